// Helpers shared by the scheduler_pool/remote tests: a cell with its
// cell-state service on a ManualClock, and members' options.
#pragma once

#include <string>
#include <vector>

#include "scheduler_pool/remote/cell_state_service.h"
#include "scheduler_pool/remote/scheduler_member.h"
#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool::remote::testing {

inline constexpr Duration kLease = std::chrono::milliseconds(300);
inline constexpr Duration kGap = std::chrono::milliseconds(100);

struct Cluster {
  ManualClock clock;
  CellState cell{CellStateOptions{4, 256}};
  QueueLedger queues;
  CellStateService service{&cell, &queues, &clock, CellStateServiceOptions{kLease, 7}};

  Cluster() { EXPECT_TRUE(queues.SetQueues({pool::testing::NamedQueue("default")}).ok()); }
};

inline MemberOptions Member(int index, int n) {
  MemberOptions o;
  o.name = "scheduler-" + std::to_string(index);
  o.pool = pool::testing::SmallOptions(SyncMode::kParSync, n, 4);
  o.pool.sync_gap = kGap;
  o.index = index;
  return o;
}

}  // namespace spindle::pool::remote::testing
