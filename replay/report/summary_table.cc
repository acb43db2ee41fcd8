#include <algorithm>
#include <cstdio>

#include "replay/report/replay_writers.h"

namespace spindle::replay {

namespace {

std::string Fmt(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

// A share in [0, 1] as a percentage; "-" when undefined (< 0).
std::string Share(double v) { return v < 0 ? "-" : Fmt("%.1f%%", 100 * v); }
std::string Index(double v) { return v < 0 ? "-" : Fmt("%.3f", v); }

}  // namespace

std::string ToSummaryTable(const ReplayReport& report) {
  const std::vector<std::string> head = {
      "mode",      "jobs",      "done",    "rejected", "tasks",    "delay_p50",
      "delay_p90", "delay_p99", "quality", "confl/s",  "util_mem", "util_vc",
      "makespan",  "jct_mean",  "jct_p99", "jain",     "jain_min", "wall_s"};
  std::vector<std::vector<std::string>> rows;
  for (const ReplayModeResult& m : report.modes) {
    rows.push_back({m.label, std::to_string(m.jobs_submitted), std::to_string(m.jobs_finished),
                    std::to_string(m.jobs_rejected),
                    std::to_string(m.tasks_placed) + "/" + std::to_string(m.tasks_asked),
                    Fmt("%.1fms", m.delay_ms.p50), Fmt("%.1fms", m.delay_ms.p90),
                    Fmt("%.1fms", m.delay_ms.p99), Share(m.quality), Fmt("%.1f", m.conflicts_per_s),
                    Share(m.utilisation_memory), Share(m.utilisation_vcores),
                    Fmt("%.1fs", m.makespan_s), Fmt("%.1fs", m.jct_s.mean),
                    Fmt("%.1fs", m.jct_s.p99), Index(m.jain_mean), Index(m.jain_min),
                    Fmt("%.1f", m.wall_seconds)});
  }
  std::vector<size_t> width(head.size());
  for (size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
  }
  std::string out = report.title + "\n";
  for (const ReplaySetting& s : report.settings) out += "  " + s.key + ": " + s.value + "\n";
  for (const std::string& w : report.warnings) out += "WARNING: " + w + "\n";
  const auto line = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string cell = cells[c];
      // Text left, figures right.
      if (c == 0) {
        cell.resize(width[c], ' ');
      } else {
        cell.insert(0, width[c] - cell.size(), ' ');
      }
      out += cell + (c + 1 < cells.size() ? "  " : "\n");
    }
  };
  line(head);
  for (const auto& r : rows) line(r);
  for (const ReplayModeResult& m : report.modes) {
    if (m.cut) {
      out += "CUT " + m.label + ": stopped by a signal at trace " + Fmt("%.1fs", m.end_s) +
             "; its figures cover the trace up to there\n";
    }
    if (m.failover.ha) {
      const RmFailoverSummary& f = m.failover;
      out += "failover " + m.label + ": RMs " + f.rm_ids + "; " +
             (f.first_failover_s < 0 ? std::string("no failover")
                                     : "first at " + Fmt("%.1f", f.first_failover_s) + " s") +
             ", client failovers " + std::to_string(f.client_failovers) + ", AM failovers " +
             std::to_string(f.am_failovers) + ", AM resyncs " + std::to_string(f.am_resyncs) +
             ", re-submissions " + std::to_string(f.resubmissions) +
             ", finishes seen in the report " + std::to_string(f.finishes_seen_in_report) +
             "; serving at the end: " + (f.serving_at_end.empty() ? "-" : f.serving_at_end) + "\n";
    }
    for (const std::string& v : m.violations) out += "VIOLATION " + m.label + ": " + v + "\n";
    const size_t shown = std::min<size_t>(m.rejections.size(), 5);
    for (size_t i = 0; i < shown; ++i) out += "rejected " + m.label + ": " + m.rejections[i] + "\n";
    if (m.rejections.size() > shown) {
      out += "rejected " + m.label + ": ... and " + std::to_string(m.rejections.size() - shown) +
             " more\n";
    }
  }
  for (const std::string& p : report.not_run) out += "NOT RUN " + p + "\n";
  return out;
}

}  // namespace spindle::replay
