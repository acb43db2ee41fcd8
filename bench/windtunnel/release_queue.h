// ReleaseQueue: the simulated nodes' timer — tasks holding their slots
// until they end. Entries are kept by release time (a map of batches: one
// scheduler step's tasks share a commit time, hence usually one release
// time), so a driver pops whole batches.
//
// Deterministic: entries due at the same time come out in insertion order.
// Thread-safety: none (one driver owns it).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "base/clock.h"
#include "scheduler_pool/ask.h"

namespace spindle::windtunnel {

class ReleaseQueue {
 public:
  struct Entry {
    pool::Placement placement;
    int64_t job = 0;
    Duration at{0};  // when the task ends (since the start of the run)
  };

  void Add(Duration at, const pool::Placement& placement, int64_t job) {
    batches_[at].push_back(Entry{placement, job, at});
    ++size_;
  }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The earliest release time; only if !empty().
  Duration next() const { return batches_.begin()->first; }
  // Moves every entry due at or before `now` to the end of `out`, earliest
  // first.
  void PopDue(Duration now, std::vector<Entry>* out) {
    while (!batches_.empty() && batches_.begin()->first <= now) {
      auto& batch = batches_.begin()->second;
      size_ -= batch.size();
      out->insert(out->end(), batch.begin(), batch.end());
      batches_.erase(batches_.begin());
    }
  }

 private:
  std::map<Duration, std::vector<Entry>> batches_;
  size_t size_ = 0;
};

}  // namespace spindle::windtunnel
