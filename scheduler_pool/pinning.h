// Pinning: which scheduler of the pool serves an application. Every app is
// pinned to one scheduler for its lifetime, so its asks are ordered and
// placed by one thread: by hash of the app id, or (Omega's per-workload
// schedulers) by hash within the range of schedulers its queue's group names,
// or (the wind tunnel) in id order.
//
// Thread-safety: immutable after construction.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "scheduler_pool/ids.h"
#include "scheduler_pool/pool_options.h"

namespace spindle::pool {

class Pinning {
 public:
  Pinning(int num_schedulers, PinningMode mode,
          std::map<std::string, std::pair<int, int>> queue_groups);

  int SchedulerFor(AppId app, const std::string& queue_name) const;

 private:
  const int n_;
  const PinningMode mode_;
  const std::map<std::string, std::pair<int, int>> groups_;
};

}  // namespace spindle::pool
