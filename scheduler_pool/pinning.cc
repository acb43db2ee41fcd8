#include "scheduler_pool/pinning.h"

namespace spindle::pool {

namespace {
uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

Pinning::Pinning(int num_schedulers, PinningMode mode,
                 std::map<std::string, std::pair<int, int>> queue_groups)
    : n_(num_schedulers), mode_(mode), groups_(std::move(queue_groups)) {}

int Pinning::SchedulerFor(AppId app, const std::string& queue_name) const {
  if (mode_ == PinningMode::kInIdOrder) {
    return static_cast<int>((app.value() - 1) % static_cast<uint64_t>(n_));
  }
  const uint64_t h = Mix(app.value());
  if (mode_ == PinningMode::kQueueGroups) {
    auto it = groups_.find(queue_name);
    if (it != groups_.end()) {
      const auto [first, last] = it->second;
      const int span = last - first + 1;
      return first + static_cast<int>(h % static_cast<uint64_t>(span));
    }
  }
  return static_cast<int>(h % static_cast<uint64_t>(n_));
}

}  // namespace spindle::pool
