// The pending work a scheduler holds for its applications: per application
// its asks, each with how many tasks are outstanding and since when. Owned
// and mutated by one Scheduler; its policy reads it during a step.
//
// Thread-safety: none (owned by one scheduler thread).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "base/clock.h"
#include "scheduler_pool/ask.h"
#include "scheduler_pool/resources.h"

namespace spindle::pool {

// `count` tasks became outstanding at `at`.
struct Arrival {
  TimePoint at;
  int64_t count = 0;
};

struct AskState {
  Ask ask;  // the latest spec (ask.count is the last total the app sent)
  // Tasks asked for and not committed (including those in flight).
  int64_t outstanding = 0;
  // Chosen in the current step, not yet committed.
  int64_t in_flight = 0;
  // Tasks ever committed for this key.
  int64_t committed_total = 0;
  // Outstanding tasks by arrival time, oldest first; counts sum to
  // `outstanding`. Commits consume the front; lowered totals trim the back.
  std::deque<Arrival> arrivals;

  int64_t pending() const { return outstanding - in_flight; }
};

struct AppState {
  AppSpec spec;
  // Arrival order here: ties after the pool's AppSpec::order (FIFO ordering).
  uint64_t seq = 0;
  // Committed and not yet released.
  Resource usage;
  // Sorted by Ask::KeyLess (priority first).
  std::vector<AskState> asks;
  // Sum of asks' outstanding.
  int64_t outstanding = 0;
  // Since when its asks found no node in the view (none_fit): after a sync
  // round of that, its demand no longer holds back the apps its queue
  // serves after it (Scheduler::ReportDemand).
  bool none_fit = false;
  TimePoint none_fit_since;
  // YARN's blacklist: nodes and racks the app's containers must avoid.
  std::vector<NodeId> blacklist_nodes;
  std::vector<RackId> blacklist_racks;
};

}  // namespace spindle::pool
