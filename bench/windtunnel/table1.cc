#include "bench/windtunnel/table1.h"

#include <cstdio>
#include <string>

namespace spindle::windtunnel {

namespace {

const ModeResult* Find(const WindTunnelReport& report, const std::string& label) {
  for (const ModeResult& m : report.modes) {
    if (m.label == label) return &m;
  }
  return nullptr;
}

}  // namespace

void AddTable1(WindTunnelReport* report) {
  const ModeResult* lf = Find(*report, "parsync/latency-first");
  const ModeResult* ad = Find(*report, "parsync/adaptive");
  const ModeResult* qf = Find(*report, "parsync/quality-first");
  if (lf == nullptr || ad == nullptr || qf == nullptr) return;
  const double l = lf->total.jsd_mean_ms;
  const double a = ad->total.jsd_mean_ms;
  const double q = qf->total.jsd_mean_ms;
  char detail[160];
  std::snprintf(detail, sizeof(detail),
                "mean JSD latency-first %.1f ms, adaptive %.1f ms, quality-first %.1f ms", l, a, q);
  report->trends.push_back(
      TrendCheck{"T1", "job scheduling delay: parsync/latency-first < adaptive < quality-first",
                 l < a && a < q, detail});
}

}  // namespace spindle::windtunnel
