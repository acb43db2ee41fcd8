// `spindle bench pool`: the placement core alone. A cell of N nodes with S
// slots each, P partitions, N schedulers each serving one application (or
// --apps of them, ordered by the queue's --ordering) with an unbounded
// backlog of 1-slot asks. Each scheduler is driven by its own
// thread (RunOnce in a loop, as the pool's threads do), which also takes the
// placements and releases the oldest ones to hold the cell at a target
// utilisation, so the run reaches a steady state of commits and releases.
//
// Reports, per sync mode x strategy (in one run, same seed): committed
// placements/s, CPU ns per placement inside the scheduler step (decision +
// commit, plus the step's share of syncing the view), conflicts per 1,000
// committed placements, mean slot score. Prints figures; asserts nothing
// about time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/flags/command_line.h"
#include "base/result.h"
#include "scheduler_pool/pool_options.h"
#include "scheduler_pool/queue_ledger.h"

namespace spindle::bench {

struct PoolBenchOptions {
  // Nodes in the cell. Default: 100000.
  int nodes = 100'000;
  // 1-slot containers per node (a slot is <1024 MB, 1 vcore>). Default: 2.
  int slots_per_node = 2;
  // Schedulers N (monolithic rows use one). Default: 20.
  int schedulers = 20;
  // Partitions P. Default: 20.
  int partitions = 20;
  // Sync gap G in milliseconds. Default: 500.
  int gap_ms = 500;
  // Share of the slots kept allocated (releases keep it there), percent.
  // Default: 50.
  int hold_percent = 50;
  // Measured seconds per row, after 1 s of warm-up. Default: 2.
  int seconds = 2;
  // Tasks a scheduler chooses per step. Default: 256.
  int batch = 256;
  pool::TransactionMode transaction = pool::TransactionMode::kIncremental;
  pool::ConflictMode conflict = pool::ConflictMode::kFineGrained;
  std::vector<pool::SyncMode> modes = {pool::SyncMode::kParSync, pool::SyncMode::kSameSync,
                                       pool::SyncMode::kStateSync, pool::SyncMode::kMonolithic};
  std::vector<pool::StrategyKind> strategies = {pool::StrategyKind::kLatencyFirst,
                                                pool::StrategyKind::kQualityFirst,
                                                pool::StrategyKind::kAdaptive};
  uint64_t seed = 1;
  // Users the applications belong to, round robin; with users the queue
  // limits them (Hadoop 3.3's user limit, minimum-user-limit-percent
  // 100 / users, user-limit-factor 1, the queue's capacity the whole cell),
  // so every reservation checks the limit. Default: 0 (no users, no check).
  int users = 0;
  // Applications per scheduler, all in the one queue, each with an
  // unbounded backlog. Default: 1.
  int apps_per_scheduler = 1;
  // The queue's application ordering (3.3 FIFO or fair). Default: FIFO.
  pool::QueueOrdering ordering = pool::QueueOrdering::kFifo;
  // Where to write the figures as JSON as well ("" = nowhere).
  std::string json_path;
};

struct PoolBenchRow {
  pool::SyncMode mode = pool::SyncMode::kParSync;
  pool::StrategyKind strategy = pool::StrategyKind::kLatencyFirst;
  int schedulers = 0;
  int64_t placements = 0;
  int64_t conflicts = 0;
  int64_t transactions = 0;
  double seconds = 0;
  double placements_per_second = 0;
  double cpu_ns_per_placement = 0;  // CPU time in RunOnce / placements
  double conflicts_per_1000 = 0;
  double mean_score = 0;
  double mean_staleness_ms = 0;
  double utilisation = 0;  // at the end
};

Result<PoolBenchRow> RunPoolBenchRow(const PoolBenchOptions& options, pool::SyncMode mode,
                                     pool::StrategyKind strategy);

// `spindle bench pool`'s flag table and entry point.
const CommandSpec& PoolBenchCommand();
int PoolBenchMain(const CommandLine& flags);

}  // namespace spindle::bench
