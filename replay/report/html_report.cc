#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "base/markup_escape.h"
#include "replay/report/replay_writers.h"
#include "replay/report/svg_chart.h"

namespace spindle::replay {

namespace {

// Charts keep at most this many points per series: longer runs are
// averaged over wider buckets, which keeps an hour-long replay's page small.
constexpr size_t kMaxPoints = 600;

std::string F(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

LineStyle StyleOf(size_t i) {
  static constexpr LineStyle kStyles[] = {LineStyle::kSolid, LineStyle::kDashed,
                                          LineStyle::kDotted};
  return kStyles[(i / 6) % 3];
}

// (x, y) of `get` over a mode's series, averaged over buckets of seconds so
// that at most kMaxPoints remain; buckets where get() < 0 (undefined) are
// left out.
std::vector<std::pair<double, double>> Downsample(
    const ReplayModeResult& m, const std::function<double(const ReplaySeriesRow&)>& get) {
  std::vector<std::pair<double, double>> points;
  const size_t n = m.series.size();
  const size_t width = std::max<size_t>(1, (n + kMaxPoints - 1) / kMaxPoints);
  for (size_t start = 0; start < n; start += width) {
    double sum = 0;
    int count = 0;
    const size_t end = std::min(n, start + width);
    for (size_t i = start; i < end; ++i) {
      const double v = get(m.series[i]);
      if (v < 0) continue;
      sum += v;
      ++count;
    }
    if (count > 0) {
      points.emplace_back((static_cast<double>(start) + static_cast<double>(end)) / 2, sum / count);
    }
  }
  return points;
}

// The chart, or a "no data" note saying why when no series has a point
// (an empty chart would read as "all zero"). A series identical to an
// earlier one (tied policies, whose lines would hide each other) is named
// "B (same as A)" in the legend.
std::string Chart(ChartSpec c, const std::string& empty_why) {
  bool any = false;
  for (const ChartSeries& s : c.series) {
    for (const auto& [x, y] : s.points) any = any || y >= 0;
  }
  if (!any) {
    return "<p class=\"nodata\"><b>" + EscapeMarkup(c.title) + "</b>: no data (" +
           EscapeMarkup(empty_why) + ")</p>\n";
  }
  std::vector<std::string> names;
  for (const ChartSeries& s : c.series) names.push_back(s.name);
  for (size_t i = 0; i < c.series.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (!c.series[i].points.empty() && c.series[i].points == c.series[j].points) {
        c.series[i].name = names[i] + " (same as " + names[j] + ")";
        break;
      }
    }
  }
  return "<div class=\"chart\">" + RenderLineChart(c) + "</div>\n";
}

std::string SeriesChart(const ReplayReport& r, const std::string& title, const std::string& y_label,
                        bool log_y, const std::function<double(const ReplaySeriesRow&)>& get,
                        const std::string& empty_why = "nothing recorded") {
  ChartSpec c;
  c.title = title;
  c.x_label = "trace time (s)";
  c.y_label = y_label;
  c.log_y = log_y;
  for (size_t i = 0; i < r.modes.size(); ++i) {
    c.series.push_back(ChartSeries{r.modes[i].label, Downsample(r.modes[i], get), StyleOf(i)});
  }
  return Chart(std::move(c), empty_why);
}

// A CDF per mode. With `log_x` the x axis is log10 of the value (at least
// 0.01), so that modes whose values differ by orders of magnitude (a
// monolithic scheduler falling behind) do not flatten the others.
std::string CdfChart(const ReplayReport& r, const std::string& title, const std::string& x_label,
                     bool log_x,
                     const std::function<const SampleSummary&(const ReplayModeResult&)>& get) {
  ChartSpec c;
  c.title = title;
  c.x_label = log_x ? "log10 of " + x_label : x_label;
  c.y_label = "fraction <= x";
  for (size_t i = 0; i < r.modes.size(); ++i) {
    ChartSeries s{r.modes[i].label, {}, StyleOf(i)};
    for (const auto& [v, f] : get(r.modes[i]).cdf) {
      s.points.emplace_back(log_x ? std::log10(std::max(v, 0.01)) : v, f);
    }
    c.series.push_back(std::move(s));
  }
  return Chart(std::move(c), "no sample (no task placed, or no job finished)");
}

std::string QueueShareChart(const ReplayModeResult& m) {
  ChartSpec c;
  c.title = "Queue shares of the cluster's memory per window: " + m.label;
  c.x_label = "window start (s)";
  c.y_label = "share of the cluster";
  for (size_t q = 0; q < m.queues.size(); ++q) {
    ChartSeries s{m.queues[q], {}, StyleOf(q)};
    for (const FairnessWindow& w : m.windows) {
      if (q < w.share.size()) s.points.emplace_back(w.start_s, w.share[q]);
    }
    c.series.push_back(std::move(s));
  }
  std::string o = Chart(std::move(c), "no fairness window");
  // A window per column: a long run's table scrolls inside its box.
  o += "<div class=\"scroll\"><table><tr><th>queue</th><th>guaranteed</th>";
  for (const FairnessWindow& w : m.windows) o += "<th>" + F("%.0fs", w.start_s) + "</th>";
  o += "</tr>";
  for (size_t q = 0; q < m.queues.size(); ++q) {
    o += "<tr><td>" + EscapeMarkup(m.queues[q]) + "</td><td>" +
         F("%.1f%%", 100 * (q < m.queue_guaranteed.size() ? m.queue_guaranteed[q] : 0)) + "</td>";
    for (const FairnessWindow& w : m.windows) {
      o += "<td>" + F("%.1f%%", 100 * (q < w.share.size() ? w.share[q] : 0)) + "</td>";
    }
    o += "</tr>";
  }
  o += "<tr><td>Jain's index</td><td></td>";
  for (const FairnessWindow& w : m.windows) {
    o += "<td>" + (w.jain < 0 ? std::string("-") : F("%.3f", w.jain)) + "</td>";
  }
  return o + "</tr></table></div>\n";
}

std::string JainChart(const ReplayReport& r) {
  ChartSpec c;
  c.title = "Jain's fairness index per window (usage / guaranteed share of the queues with demand)";
  c.x_label = "window start (s)";
  c.y_label = "Jain's index";
  for (size_t i = 0; i < r.modes.size(); ++i) {
    ChartSeries s{r.modes[i].label, {}, StyleOf(i)};
    for (const FairnessWindow& w : r.modes[i].windows) s.points.emplace_back(w.start_s, w.jain);
    c.series.push_back(std::move(s));
  }
  return Chart(std::move(c), "fewer than two queues had demand in every window");
}

}  // namespace

std::string ToHtml(const ReplayReport& r) {
  std::string o;
  o += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
       "<title>" +
       EscapeMarkup(r.title) +
       "</title><style>"
       "body{font-family:sans-serif;margin:24px;color:#222}"
       "table{border-collapse:collapse;margin:8px 0 20px 0;font-size:12px}"
       "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}"
       "th{background:#f4f4f4}td:first-child{text-align:left}"
       ".chart{margin:8px 0}h2{margin-top:28px}pre{font-size:12px}"
       ".bad{color:#b00020}.warn{color:#8a5a00}.nodata{color:#666;font-size:13px}"
       ".scroll{overflow-x:auto;max-width:100%}pre{overflow-x:auto;white-space:pre}"
       "td{overflow-wrap:anywhere}"
       "</style></head><body>\n";
  o += "<h1>" + EscapeMarkup(r.title) + "</h1>\n";
  o += "<div class=\"scroll\"><table><tr><th>setting</th><th>value</th></tr>";
  for (const ReplaySetting& s : r.settings) {
    o += "<tr><td>" + EscapeMarkup(s.key) + "</td><td>" + EscapeMarkup(s.value) + "</td></tr>";
  }
  o += "</table></div>\n<h2>Summary</h2>\n<pre>" + EscapeMarkup(ToSummaryTable(r)) + "</pre>\n";
  for (const std::string& w : r.warnings) {
    o += "<p class=\"warn\">warning: " + EscapeMarkup(w) + "</p>\n";
  }
  for (const ReplayModeResult& m : r.modes) {
    for (const std::string& v : m.violations) {
      o += "<p class=\"bad\">" + EscapeMarkup(m.label) + ": " + EscapeMarkup(v) + "</p>\n";
    }
  }
  o += "<h2>Scheduling delay</h2>\n";
  o += CdfChart(r, "Task scheduling delay CDF (asked -> placed)", "delay (ms)", /*log_x=*/true,
                [](const ReplayModeResult& m) -> const SampleSummary& { return m.delay_ms; });
  o += SeriesChart(
      r, "Scheduling delay p99 per second", "delay p99 (ms)", /*log_y=*/true,
      [](const ReplaySeriesRow& row) { return row.placed > 0 ? row.delay_p99_ms : -1; });
  o += SeriesChart(
      r, "Scheduling delay p50 per second", "delay p50 (ms)", /*log_y=*/true,
      [](const ReplaySeriesRow& row) { return row.placed > 0 ? row.delay_p50_ms : -1; });
  o += "<h2>Utilisation and load</h2>\n";
  o += SeriesChart(r, "Cluster utilisation (memory)", "allocated / capacity", false,
                   [](const ReplaySeriesRow& row) { return row.utilisation_memory; });
  o += SeriesChart(r, "Tasks running", "tasks", false,
                   [](const ReplaySeriesRow& row) { return static_cast<double>(row.running); });
  o += SeriesChart(r, "Backlog (asked, not placed)", "tasks", false,
                   [](const ReplaySeriesRow& row) { return static_cast<double>(row.backlog); });
  o += "<h2>Quality and conflicts</h2>\n";
  o += SeriesChart(
      r, "Quality: share of tasks with a preference placed on it", "share", false,
      [](const ReplaySeriesRow& row) { return row.quality; },
      "no task had a preferred node or rack");
  o += SeriesChart(r, "Conflicts per second (commits refused by the cell state)", "conflicts/s",
                   false,
                   [](const ReplaySeriesRow& row) { return static_cast<double>(row.conflicts); });
  o += "<h2>Fairness</h2>\n" + JainChart(r);
  for (const ReplayModeResult& m : r.modes) o += QueueShareChart(m);
  o += "<h2>Job completion time</h2>\n";
  o += CdfChart(r, "Job completion time CDF (submitted -> last task ended)", "JCT (s)",
                /*log_x=*/false,
                [](const ReplayModeResult& m) -> const SampleSummary& { return m.jct_s; });
  o += "</body></html>\n";
  return o;
}

}  // namespace spindle::replay
