// Resources: a multi-resource amount of the Carbyne model (memory and
// vcores, as YARN's two standard resources), in whole units, so sums and
// differences are exact. Shares over a capacity are doubles.
//
// Thread-safety: a value.
#pragma once

#include <algorithm>
#include <cstdint>

namespace spindle::bench::carbyne {

// Virtual time of the model, in milliseconds since the start of the run.
using Time = int64_t;

struct Resources {
  int64_t memory_mb = 0;
  int64_t vcores = 0;

  Resources& operator+=(const Resources& o) {
    memory_mb += o.memory_mb;
    vcores += o.vcores;
    return *this;
  }
  Resources& operator-=(const Resources& o) {
    memory_mb -= o.memory_mb;
    vcores -= o.vcores;
    return *this;
  }
  friend bool operator==(const Resources&, const Resources&) = default;
  // Every component of *this fits in `o`.
  bool FitsIn(const Resources& o) const { return memory_mb <= o.memory_mb && vcores <= o.vcores; }
};

// The larger of the two shares of `capacity` that `r` takes (DRF's dominant
// share); capacity components are > 0.
inline double DominantShare(const Resources& r, const Resources& capacity) {
  return std::max(static_cast<double>(r.memory_mb) / static_cast<double>(capacity.memory_mb),
                  static_cast<double>(r.vcores) / static_cast<double>(capacity.vcores));
}

// A fractional amount: a job's fair allocation, which DRF's closed form
// gives in real numbers.
struct Allocation {
  double memory_mb = 0;
  double vcores = 0;
};

}  // namespace spindle::bench::carbyne
