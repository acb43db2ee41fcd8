// Helpers shared by the scheduler_pool tests.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "scheduler_pool/cell_state.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::pool::testing {

inline constexpr Resource kSlot = Resource::Of(1024, 1);

inline QueueSpec NamedQueue(std::string name) {
  QueueSpec q;
  q.name = std::move(name);
  return q;
}

inline NodeSpec Node(int slots, std::string rack = "/r0", double score = 1.0) {
  return NodeSpec{kSlot * slots, std::move(rack), score};
}

inline std::vector<NodeId> AddNodes(CellState* cell, int count, int slots,
                                    const std::string& rack = "/r0") {
  std::vector<NodeId> ids;
  for (int i = 0; i < count; ++i) {
    auto id = cell->AddNode(Node(slots, rack));
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    ids.push_back(*id);
  }
  return ids;
}

inline Ask SlotAsk(int64_t count, int32_t priority = 0) {
  Ask a;
  a.priority = priority;
  a.capability = kSlot;
  a.count = count;
  return a;
}

inline TimePoint At(std::chrono::milliseconds ms) { return TimePoint(ms); }

// A pool on a ManualClock, stepped by hand.
struct ManualPool {
  ManualClock clock;
  std::unique_ptr<SchedulerPool> pool;

  explicit ManualPool(const PoolOptions& options) {
    auto p = SchedulerPool::Create(options, &clock);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    pool = std::move(p).value();
  }
  QueueId Queue(const QueueSpec& spec) {
    auto ids = pool->SetQueues({spec});
    EXPECT_TRUE(ids.ok()) << ids.status().ToString();
    return ids->front();
  }
  StepResult Step(std::chrono::nanoseconds advance = std::chrono::milliseconds(1)) {
    clock.Advance(advance);
    return pool->RunAllOnce(clock.Now());
  }
  std::vector<Placement> Take(AppId app) {
    std::vector<Placement> out;
    EXPECT_TRUE(pool->TakePlacements(app, &out).ok());
    return out;
  }
};

inline PoolOptions SmallOptions(SyncMode mode, int n, int p) {
  PoolOptions o;
  o.mode = mode;
  o.num_schedulers = n;
  o.num_partitions = p;
  o.sync_gap = std::chrono::milliseconds(100);
  o.min_unit = kSlot;
  return o;
}

}  // namespace spindle::pool::testing
