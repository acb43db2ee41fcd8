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
