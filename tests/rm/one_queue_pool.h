// The scheduler pool the rm/ unit fixtures share: monolithic, one scheduler,
// one partition, and the single leaf queue root.default every Hadoop
// distribution ships, so a test sees one decision per RunAllOnce.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "base/clock.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm::test_support {

struct OneQueuePool {
  std::unique_ptr<pool::SchedulerPool> pool;
  pool::QueueId queue;
};

inline OneQueuePool MakeOneQueuePool(Clock* clock) {
  pool::PoolOptions options;
  options.mode = pool::SyncMode::kMonolithic;
  options.num_schedulers = 1;
  options.num_partitions = 1;
  OneQueuePool made;
  made.pool = std::move(pool::SchedulerPool::Create(options, clock)).value();
  pool::QueueSpec queue;
  queue.name = "root.default";
  made.queue = made.pool->SetQueues({queue}).value().at(0);
  return made;
}

}  // namespace spindle::rm::test_support
