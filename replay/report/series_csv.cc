#include <cstdio>

#include "replay/report/replay_writers.h"

namespace spindle::replay {

namespace {

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

// A label as a CSV field: quoted if it holds a comma or a quote.
std::string Field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

}  // namespace

std::string ToSeriesCsv(const ReplayReport& report) {
  std::string out =
      "mode,second,jobs_submitted,asked,placed,ended,conflicts,backlog,running,"
      "utilisation_memory,utilisation_vcores,delay_p50_ms,delay_p99_ms,quality\n";
  for (const ReplayModeResult& m : report.modes) {
    for (const ReplaySeriesRow& r : m.series) {
      out += Field(m.label) + "," + std::to_string(r.second) + "," +
             std::to_string(r.jobs_submitted) + "," + std::to_string(r.asked) + "," +
             std::to_string(r.placed) + "," + std::to_string(r.ended) + "," +
             std::to_string(r.conflicts) + "," + std::to_string(r.backlog) + "," +
             std::to_string(r.running) + "," + Num(r.utilisation_memory) + "," +
             Num(r.utilisation_vcores) + "," + Num(r.delay_p50_ms) + "," + Num(r.delay_p99_ms) +
             "," + (r.quality < 0 ? "" : Num(r.quality)) + "\n";
    }
  }
  return out;
}

}  // namespace spindle::replay
