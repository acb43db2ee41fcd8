#include "bench/carbyne/drf_share.h"

#include <algorithm>
#include <limits>

namespace spindle::bench::carbyne {

std::vector<Allocation> DrfShares(const std::vector<Resources>& demands,
                                  const Resources& capacity) {
  const size_t n = demands.size();
  std::vector<Allocation> out(n);
  std::vector<char> capped(n, 0);
  std::vector<double> dominant(n);
  for (size_t k = 0; k < n; ++k) {
    dominant[k] = DominantShare(demands[k], capacity);
    if (dominant[k] <= 0) capped[k] = 1;
  }
  double share = 0;
  while (true) {
    // What the capped jobs hold, and how fast the others consume each
    // resource per unit of dominant share.
    double mem_left = static_cast<double>(capacity.memory_mb);
    double vc_left = static_cast<double>(capacity.vcores);
    double mem_rate = 0;
    double vc_rate = 0;
    for (size_t k = 0; k < n; ++k) {
      if (capped[k]) {
        mem_left -= static_cast<double>(demands[k].memory_mb);
        vc_left -= static_cast<double>(demands[k].vcores);
      } else {
        mem_rate += static_cast<double>(demands[k].memory_mb) / dominant[k];
        vc_rate += static_cast<double>(demands[k].vcores) / dominant[k];
      }
    }
    share = std::numeric_limits<double>::infinity();
    if (mem_rate > 0) share = std::min(share, mem_left / mem_rate);
    if (vc_rate > 0) share = std::min(share, vc_left / vc_rate);
    bool capped_more = false;
    for (size_t k = 0; k < n; ++k) {
      if (!capped[k] && dominant[k] <= share) {
        capped[k] = 1;
        capped_more = true;
      }
    }
    if (!capped_more) break;
  }
  for (size_t k = 0; k < n; ++k) {
    if (dominant[k] <= 0) continue;
    const double scale = capped[k] ? 1.0 : share / dominant[k];
    out[k].memory_mb = static_cast<double>(demands[k].memory_mb) * scale;
    out[k].vcores = static_cast<double>(demands[k].vcores) * scale;
  }
  return out;
}

}  // namespace spindle::bench::carbyne
