#include "scheduler_pool/sync_schedule.h"

#include <glog/logging.h>

namespace spindle::pool {

const char* SyncModeName(SyncMode mode) {
  switch (mode) {
    case SyncMode::kParSync:
      return "parsync";
    case SyncMode::kSameSync:
      return "samesync";
    case SyncMode::kStateSync:
      return "statesync";
    case SyncMode::kMonolithic:
      return "monolithic";
  }
  return "unknown";
}

namespace {
Duration SlotLength(SyncMode mode, int n, Duration gap) {
  switch (mode) {
    case SyncMode::kParSync:
    case SyncMode::kSameSync:
      return gap / n;
    case SyncMode::kStateSync:
      return gap;
    case SyncMode::kMonolithic:
      return Duration(0);
  }
  return gap;
}
}  // namespace

SyncSchedule::SyncSchedule(SyncMode mode, int num_schedulers, int num_partitions, Duration gap)
    : mode_(mode),
      n_(num_schedulers),
      p_(num_partitions),
      slot_(SlotLength(mode, num_schedulers, gap)) {
  CHECK_GE(n_, 1);
  CHECK_GE(p_, 1);
  if (mode == SyncMode::kParSync || mode == SyncMode::kSameSync) {
    CHECK_GE(p_, n_) << "ParSync needs N <= P";
    CHECK_GT(slot_.count(), 0) << "sync gap too small for N";
  }
  if (mode == SyncMode::kStateSync) CHECK_GT(slot_.count(), 0);
}

int64_t SyncSchedule::SlotAt(Duration since_epoch) const {
  if (slot_.count() <= 0) return 0;
  const int64_t t = since_epoch.count();
  const int64_t s = slot_.count();
  return t >= 0 ? t / s : -((-t + s - 1) / s);
}

int SyncSchedule::num_slices() const {
  return (mode_ == SyncMode::kParSync || mode_ == SyncMode::kSameSync) ? n_ : 1;
}

PartitionRange SyncSchedule::Slice(int s) const {
  if (num_slices() == 1) return PartitionRange{0, p_};
  const int64_t first = static_cast<int64_t>(s) * p_ / n_;
  const int64_t end = static_cast<int64_t>(s + 1) * p_ / n_;
  return PartitionRange{static_cast<int>(first), static_cast<int>(end)};
}

PartitionRange SyncSchedule::RangeFor(int scheduler, int64_t slot) const {
  const auto mod = [this](int64_t x) { return static_cast<int>(((x % n_) + n_) % n_); };
  switch (mode_) {
    case SyncMode::kParSync:
      return Slice(mod(scheduler + slot));
    case SyncMode::kSameSync:
      return Slice(mod(slot));
    case SyncMode::kStateSync:
    case SyncMode::kMonolithic:
      return PartitionRange{0, p_};
  }
  return PartitionRange{0, p_};
}

}  // namespace spindle::pool
