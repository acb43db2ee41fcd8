#include "bench/windtunnel/csv_report.h"

#include <cstdio>

namespace spindle::windtunnel {

std::string ToCsv(const WindTunnelReport& r) {
  std::string out =
      "label,mode,strategy,clock,second,phase,submitted,committed,conflicts,backlog,utilisation,"
      "delay_p50_ms,delay_p90_ms,delay_p99_ms,quality,mean_score,quality_first_schedulers\n";
  char buf[512];
  for (const ModeResult& m : r.modes) {
    for (const SeriesRow& s : m.series) {
      std::snprintf(buf, sizeof(buf),
                    "%s,%s,%s,%s,%lld,%d,%lld,%lld,%lld,%lld,%.4f,%.3f,%.3f,%.3f,%.4f,%.3f,%d\n",
                    m.label.c_str(), m.mode.c_str(), m.strategy.c_str(), m.clock.c_str(),
                    static_cast<long long>(s.second), s.phase, static_cast<long long>(s.submitted),
                    static_cast<long long>(s.committed), static_cast<long long>(s.conflicts),
                    static_cast<long long>(s.backlog), s.utilisation, s.delay_p50_ms,
                    s.delay_p90_ms, s.delay_p99_ms, s.quality, s.mean_score,
                    s.quality_first_schedulers);
      out += buf;
    }
  }
  return out;
}

}  // namespace spindle::windtunnel

namespace spindle::windtunnel {

namespace {

// A CSV field: quoted if it holds a comma or a quote.
std::string Field(const std::string& s) {
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void Row(std::string* out, const std::string& figure, const std::string& series,
         const std::string& x_label, const std::string& x, const std::string& metric,
         double value) {
  char v[32] = "";
  if (value >= 0) std::snprintf(v, sizeof(v), "%.6g", value);
  *out += Field(figure) + "," + Field(series) + "," + Field(x_label) + "," + Field(x) + "," +
          metric + "," + v + "\n";
}

}  // namespace

std::string ToFiguresCsv(const WindTunnelReport& r) {
  std::string out = "figure,series,x_label,x,metric,value\n";
  for (const FigureTable& t : r.figures) {
    for (size_t s = 0; s < t.series.size(); ++s) {
      for (size_t i = 0; i < t.xs.size(); ++i) {
        char x[32];
        std::snprintf(x, sizeof(x), "%g", t.xs[i]);
        Row(&out, t.id, t.series[s], t.x_label, x, "extra_percent", t.extra_percent[s][i]);
        Row(&out, t.id, t.series[s], t.x_label, x, "extra_slots", t.extra_slots[s][i]);
      }
    }
  }
  for (const PhaseFigure& f : r.phase_figures) {
    for (size_t s = 0; s < f.series.size(); ++s) {
      for (size_t i = 0; i < f.phases.size(); ++i) {
        Row(&out, f.id, f.series[s], "phase", f.phases[i], f.metric, f.values[s][i]);
      }
    }
  }
  return out;
}

}  // namespace spindle::windtunnel
