#include "bench/windtunnel/results.h"

namespace spindle::windtunnel {

namespace {

double Ratio(double a, double b) { return b == 0 ? 0 : a / b; }

}  // namespace

std::vector<RatioRow> ComputeRatios(const WindTunnelReport& report, const std::string& reference) {
  std::vector<RatioRow> rows;
  if (report.modes.empty()) return rows;
  const ModeResult* ref = &report.modes.front();
  for (const ModeResult& m : report.modes) {
    if (m.label == reference) ref = &m;
  }
  for (const ModeResult& m : report.modes) {
    if (&m == ref) continue;
    std::vector<std::pair<const PhaseResult*, const PhaseResult*>> pairs;
    for (size_t i = 0; i < m.phases.size() && i < ref->phases.size(); ++i) {
      pairs.emplace_back(&m.phases[i], &ref->phases[i]);
    }
    pairs.emplace_back(&m.total, &ref->total);
    for (const auto& [a, b] : pairs) {
      RatioRow r;
      r.label = m.label;
      r.reference = ref->label;
      r.phase = a->name;
      r.delay_p99 = Ratio(a->delay_p99_ms, b->delay_p99_ms);
      r.delay_mean = Ratio(a->delay_mean_ms, b->delay_mean_ms);
      r.conflicts = Ratio(static_cast<double>(a->conflicts), static_cast<double>(b->conflicts));
      r.throughput = Ratio(a->throughput, b->throughput);
      r.quality = Ratio(a->quality, b->quality);
      r.jsd_mean = Ratio(a->jsd_mean_ms, b->jsd_mean_ms);
      rows.push_back(r);
    }
  }
  return rows;
}

}  // namespace spindle::windtunnel
