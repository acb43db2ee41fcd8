#include "bench/wire/rm_failover.h"

#include <glog/logging.h>

namespace spindle::bench::wire {

void RmFailover::MoveFrom(int64_t seen) {
  if (failovers_ != seen) return;
  const size_t from = current_;
  current_ = (current_ + 1) % rms_.size();
  ++failovers_;
  LOG(INFO) << "failing over from " << rms_[from].client.ToString() << " to "
            << rms_[current_].client.ToString();
}

}  // namespace spindle::bench::wire
