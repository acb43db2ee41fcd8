#include "bench/windtunnel/html_report.h"

#include <cstdio>
#include <functional>

#include "base/markup_escape.h"
#include "replay/report/svg_chart.h"

namespace spindle::windtunnel {

using replay::ChartSeries;
using replay::ChartSpec;
using replay::LineStyle;
using replay::RenderLineChart;

namespace {

std::string F(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

// Statesync dashed, monolithic dotted, parsync solid.
LineStyle StyleOf(const ModeResult& m) {
  if (m.mode == "statesync" || m.mode == "samesync") return LineStyle::kDashed;
  if (m.mode == "monolithic") return LineStyle::kDotted;
  return LineStyle::kSolid;
}

std::vector<double> PhaseMarkers(const WindTunnelReport& r) {
  std::vector<double> m;
  if (r.modes.empty()) return m;
  for (const PhaseResult& p : r.modes.front().phases) m.push_back(p.end_s);
  if (!m.empty()) m.pop_back();  // the drain's end is the run's end
  return m;
}

// One chart over the 1 s series of every mode.
std::string SeriesChart(const WindTunnelReport& r, const std::string& title,
                        const std::string& y_label, bool log_y,
                        const std::function<double(const SeriesRow&)>& get) {
  ChartSpec c;
  c.title = title;
  c.x_label = "time (s)";
  c.y_label = y_label;
  c.log_y = log_y;
  c.markers = PhaseMarkers(r);
  for (const ModeResult& m : r.modes) {
    ChartSeries s;
    s.name = m.label;
    s.style = StyleOf(m);
    for (const SeriesRow& row : m.series) {
      s.points.emplace_back(static_cast<double>(row.second) + 0.5, get(row));
    }
    c.series.push_back(std::move(s));
  }
  return RenderLineChart(c);
}

// Figure 5: a chart with a point per load phase and series, and its table.
std::string PhaseFigureSection(const PhaseFigure& f) {
  ChartSpec c;
  c.title = f.title;
  c.x_label = "phase";
  c.y_label = f.metric == "quality" ? "share on preferred slots" : "delay (" + f.unit + ")";
  c.log_y = f.metric != "quality";
  for (size_t i = 0; i < f.phases.size(); ++i) {
    if (f.fractions[i] > 0) c.x_ticks.push_back(static_cast<double>(i + 1));
  }
  for (size_t s = 0; s < f.series.size(); ++s) {
    ChartSeries cs;
    cs.name = f.series[s];
    cs.style = f.series[s].rfind("statesync", 0) == 0 ? LineStyle::kDashed : LineStyle::kSolid;
    for (size_t i = 0; i < f.phases.size(); ++i) {
      if (f.fractions[i] > 0) cs.points.emplace_back(static_cast<double>(i + 1), f.values[s][i]);
    }
    c.series.push_back(std::move(cs));
  }
  const char* fmt = f.metric == "quality" ? "%.3f" : "%.1f";
  std::string o = "<div class=\"chart\">" + RenderLineChart(c) + "</div>";
  o += "<table><tr><th>mode \\ phase</th>";
  for (const std::string& p : f.phases) o += "<th>" + EscapeMarkup(p) + "</th>";
  o += "</tr>";
  for (size_t s = 0; s < f.series.size(); ++s) {
    o += "<tr><td>" + EscapeMarkup(f.series[s]) + "</td>";
    for (double v : f.values[s]) o += "<td>" + F(fmt, v) + "</td>";
    o += "</tr>";
  }
  o += "</table>";
  return o;
}

std::string TrendList(const std::vector<TrendCheck>& trends) {
  std::string o = "<ul>";
  for (const TrendCheck& t : trends) {
    o += "<li>[" + EscapeMarkup(t.figure) + "] " + EscapeMarkup(t.claim) + ": <b>" +
         (t.holds ? "yes" : "no") + "</b> (" + EscapeMarkup(t.detail) + ")</li>";
  }
  return o + "</ul>";
}

std::string PhaseTable(const ModeResult& m) {
  std::string o =
      "<table><tr><th>phase</th><th>load</th><th>offered/s</th><th>throughput/s</th>"
      "<th>mean ms</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>backlog</th>"
      "<th>conflicts/s</th><th>quality</th><th>score</th><th>util</th><th>jobs</th>"
      "<th>JSD ms</th><th>JCT s</th></tr>";
  auto row = [&](const PhaseResult& p) {
    o += "<tr><td>" + EscapeMarkup(p.name) + "</td><td>" +
         (p.fraction > 0 ? F("%.0f%%", p.fraction * 100) : std::string("-")) + "</td><td>" +
         F("%.0f", p.offered_rate) + "</td><td>" + F("%.0f", p.throughput) + "</td><td>" +
         F("%.1f", p.delay_mean_ms) + "</td><td>" + F("%.1f", p.delay_p50_ms) + "</td><td>" +
         F("%.1f", p.delay_p90_ms) + "</td><td>" + F("%.1f", p.delay_p99_ms) + "</td><td>" +
         std::to_string(p.backlog_end) + "</td><td>" + F("%.0f", p.conflicts_per_s) + "</td><td>" +
         F("%.3f", p.quality) + "</td><td>" + F("%.2f", p.mean_score) + "</td><td>" +
         F("%.2f", p.utilisation) + "</td><td>" + std::to_string(p.jobs) + "</td><td>" +
         F("%.1f", p.jsd_mean_ms) + "</td><td>" + F("%.2f", p.jct_mean_s) + "</td></tr>";
  };
  for (const PhaseResult& p : m.phases) row(p);
  row(m.total);
  o += "</table>";
  return o;
}

std::string FigureSection(const FigureTable& t) {
  ChartSpec c;
  c.title = t.id + ": " + t.title;
  c.x_label = t.x_label;
  c.y_label = "extra slots (% of R x T)";
  for (size_t s = 0; s < t.series.size(); ++s) {
    ChartSeries cs;
    cs.name = t.series[s];
    for (size_t i = 0; i < t.xs.size(); ++i) cs.points.emplace_back(t.xs[i], t.extra_percent[s][i]);
    c.series.push_back(std::move(cs));
  }
  std::string o = "<div class=\"chart\">" + RenderLineChart(c) + "</div>";
  o += "<table><tr><th>" + EscapeMarkup(t.x_label) + "</th>";
  for (double x : t.xs) o += "<th>" + F("%g", x) + "</th>";
  o += "</tr>";
  for (size_t s = 0; s < t.series.size(); ++s) {
    o += "<tr><td>" + EscapeMarkup(t.series[s]) + "</td>";
    for (size_t i = 0; i < t.xs.size(); ++i) {
      const double v = t.extra_percent[s][i];
      o += "<td>" +
           (v < 0 ? EscapeMarkup(F(">%.0f%%", t.max_percent))
                  : F("%.1f%%", v) + " (" + F("%.0f", t.extra_slots[s][i] / 1000) + "k)") +
           "</td>";
    }
    o += "</tr>";
  }
  o += "</table>";
  return o;
}

}  // namespace

std::string ToHtml(const WindTunnelReport& r) {
  std::string o;
  o += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
       "<title>Spindle wind tunnel</title><style>"
       "body{font-family:sans-serif;margin:24px;color:#222}"
       "table{border-collapse:collapse;margin:8px 0 20px 0;font-size:12px}"
       "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}"
       "th{background:#f4f4f4}td:first-child{text-align:left}"
       ".chart{margin:8px 0}h2{margin-top:28px}"
       "</style></head><body>\n";
  o += "<h1>Spindle wind tunnel (" + EscapeMarkup(r.clock) + " clock)</h1>\n";
  o += "<p>ParSync's Wind Tunnel setting in one process: the real scheduler pool placing "
       "1-slot tasks on simulated nodes. Phases are marked by dashed lines.</p>\n";
  o += "<table><tr><th>setting</th><th>value</th></tr>";
  for (const Setting& s : r.settings) {
    o += "<tr><td>" + EscapeMarkup(s.key) + "</td><td>" + EscapeMarkup(s.value) + "</td></tr>";
  }
  o += "</table>\n";
  if (!r.modes.empty()) {
    if (!r.phase_figures.empty()) {
      o += "<h2>Figure 5: ParSync vs StateSync per phase</h2>\n";
      for (const PhaseFigure& f : r.phase_figures) o += PhaseFigureSection(f) + "\n";
      o += "<p>The paper's Figure 5 and Table 1 trends in this run:</p>" + TrendList(r.trends) +
           "\n";
    }
    o += "<h2>Time series (1 s)</h2>\n";
    o += "<div class=\"chart\">" +
         SeriesChart(r, "Scheduling delay, p99 per second", "delay (ms)", true,
                     [](const SeriesRow& s) { return s.committed > 0 ? s.delay_p99_ms : -1; }) +
         "</div>\n";
    o += "<div class=\"chart\">" +
         SeriesChart(r, "Scheduling delay, median per second", "delay (ms)", true,
                     [](const SeriesRow& s) { return s.committed > 0 ? s.delay_p50_ms : -1; }) +
         "</div>\n";
    o += "<div class=\"chart\">" +
         SeriesChart(r, "Quality", "share on preferred nodes", false,
                     [](const SeriesRow& s) { return s.committed > 0 ? s.quality : -1; }) +
         "</div>\n";
    o += "<div class=\"chart\">" +
         SeriesChart(r, "Conflicts per second", "conflicts/s", false,
                     [](const SeriesRow& s) { return static_cast<double>(s.conflicts); }) +
         "</div>\n";
    o += "<div class=\"chart\">" +
         SeriesChart(r, "Backlog of uncommitted tasks", "tasks", false,
                     [](const SeriesRow& s) { return static_cast<double>(s.backlog); }) +
         "</div>\n";
    o += "<div class=\"chart\">" +
         SeriesChart(r, "Throughput", "tasks committed/s", false,
                     [](const SeriesRow& s) { return static_cast<double>(s.committed); }) +
         "</div>\n";
    o += "<div class=\"chart\">" +
         SeriesChart(r, "Cluster utilisation", "allocated / total slots", false,
                     [](const SeriesRow& s) { return s.utilisation; }) +
         "</div>\n";
    o += "<h2>Per phase</h2>\n";
    for (const ModeResult& m : r.modes) {
      o += "<h3>" + EscapeMarkup(m.label) + " (N=" + std::to_string(m.schedulers) + ")</h3>" +
           PhaseTable(m) + "\n";
    }
    o += "<h2>Ratios to parsync/latency-first</h2>\n<table><tr><th>mode</th><th>phase</th>"
         "<th>p99 delay</th><th>mean delay</th><th>conflicts</th><th>throughput</th>"
         "<th>quality</th><th>JSD</th></tr>";
    for (const RatioRow& x : ComputeRatios(r, "parsync/latency-first")) {
      o += "<tr><td>" + EscapeMarkup(x.label) + "</td><td>" + EscapeMarkup(x.phase) + "</td><td>" +
           F("%.2f", x.delay_p99) + "</td><td>" + F("%.2f", x.delay_mean) + "</td><td>" +
           F("%.2f", x.conflicts) + "</td><td>" + F("%.2f", x.throughput) + "</td><td>" +
           F("%.2f", x.quality) + "</td><td>" + F("%.2f", x.jsd_mean) + "</td></tr>";
    }
    o += "</table>\n";
  }
  if (!r.figures.empty()) {
    o += "<h2>Figures 2 and 3: extra slots needed (simulation, virtual clock)</h2>\n";
    for (const FigureTable& t : r.figures) o += FigureSection(t) + "\n";
  }
  o += "</body></html>\n";
  return o;
}

}  // namespace spindle::windtunnel
