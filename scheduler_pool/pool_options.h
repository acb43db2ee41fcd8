// PoolOptions: every knob of the scheduler pool, with its configuration key
// (under spindle.scheduler.*) and default beside it. Filled from defaults,
// or from a string -> string map (the config-file reader hands it the keys
// it found); checked once by Validate().
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "scheduler_pool/resources.h"
#include "scheduler_pool/strategies/placement_strategy.h"
#include "scheduler_pool/sync_schedule.h"
#include "scheduler_pool/transaction.h"

namespace spindle::pool {

enum class PinningMode : uint8_t {
  kHash,         // app -> scheduler hash(app) mod N
  kQueueGroups,  // the app's queue names a range of schedulers; hash within it
  // app -> scheduler (id - 1) mod N: ids 1, 2, 3, ... go to schedulers 0, 1,
  // 2, ... in turn. The RM hands out pool app ids densely in submission
  // order, so this spreads apps evenly in the order they arrive, as the
  // ParSync paper spreads its workload; the wind tunnel uses it to run the
  // paper's setting. Not a configuration value.
  kInIdOrder,
};

// How a scheduler pays PoolOptions::emulated_decision_cost.
enum class DecisionPacing : uint8_t {
  // The scheduler thread sleeps until its decisions have lasted what they
  // cost, then commits (the wind tunnel's real clock).
  kSleep,
  // Nothing waits: the clock stands still while a scheduler steps (the
  // wind tunnel's virtual clock), so each commit is stamped with the step's
  // start plus the cost of the step's decisions so far, and
  // StepResult::decided_until says when its decisions end. The delay a
  // strategy observes (adaptive's EMA) is then the delay the run reports.
  kStamp,
};

struct PoolOptions {
  // spindle.scheduler.count: number of schedulers N (1..1024); monolithic
  // mode uses one whatever N says. Default: 20.
  int num_schedulers = 20;
  // spindle.scheduler.partitions: partitions P of the cell state
  // (1..1024, >= N for parsync and samesync). Default: 20.
  int num_partitions = 20;
  // spindle.scheduler.sync-gap-ms: G, the time within which every partition
  // of every view is refreshed (> 0). Default: 500.
  Duration sync_gap = std::chrono::milliseconds(500);
  // spindle.scheduler.mode: parsync | samesync | statesync | monolithic.
  // Default: parsync.
  SyncMode mode = SyncMode::kParSync;
  // spindle.scheduler.strategy: latency-first | quality-first | adaptive
  // (or score-sampling, the paper's simulator picker, for its figures).
  // Default: latency-first.
  StrategyKind strategy = StrategyKind::kLatencyFirst;
  // spindle.scheduler.adaptive.tau-ms: adaptive's delay threshold tau
  // (> 0). Default: 2000.
  Duration tau = std::chrono::milliseconds(2000);
  // spindle.scheduler.adaptive.ema-alpha: weight of each new delay in the
  // EMA, in (0, 1]. Default: 0.05.
  double ema_alpha = 0.05;
  // spindle.scheduler.transaction: incremental | all-or-nothing. In
  // all-or-nothing mode each ask's chunk of a step is one gang: placed only
  // if all of it fits, committed as one transaction. Default: incremental.
  TransactionMode transaction = TransactionMode::kIncremental;
  // spindle.scheduler.conflict-detection: fine-grained | coarse-grained.
  // Default: fine-grained.
  ConflictMode conflict = ConflictMode::kFineGrained;
  // spindle.scheduler.max-tasks-per-step: tasks one scheduler chooses
  // before it commits (>= 1). Default: 256.
  int max_tasks_per_step = 256;
  // spindle.scheduler.max-retries: rounds of re-placing conflicted tasks
  // within one step (>= 0); the rest wait for the next step. Default: 2.
  int max_retries = 2;
  // spindle.scheduler.pinning: hash | queue-groups. Default: hash.
  PinningMode pinning = PinningMode::kHash;
  // spindle.scheduler.queue-group.<queue name>: "<first>-<last>" (or one
  // index): the schedulers that serve the queue's apps under queue-groups
  // pinning (Omega's per-workload schedulers); indices from
  // spindle.scheduler.count on are the remote slots (remote.count), so a
  // queue's apps may go to the remote schedulers. Queues not listed use all.
  // Default: none.
  std::map<std::string, std::pair<int, int>> queue_groups;
  // spindle.scheduler.min-unit.memory-mb / .vcores: the smallest container;
  // a node with less free counts as full for sampling. Default: 1024 / 1
  // (YARN's minimum allocation).
  Resource min_unit = Resource::Of(1024, 1);
  // spindle.scheduler.resource-types: comma-separated extended resource
  // types after memory-mb and vcores (at most 4). Default: "".
  std::vector<std::string> resource_types;
  // spindle.scheduler.change-log-entries: per-partition change log for
  // delta syncs (>= 1). Default: 8192.
  int change_log_entries = 8192;
  // spindle.scheduler.metrics.series-seconds: seconds of 1 s time series
  // kept (>= 1). Default: 600.
  int series_seconds = 600;
  // spindle.scheduler.seed: seed of the schedulers' random generators.
  // Default: 1.
  uint64_t seed = 1;

  // Not configuration keys: for the wind tunnel's real clock (they need the
  // system clock). When > 0, a scheduler makes each decision (claim tried)
  // last at least emulated_decision_cost, sleeping before it commits what it
  // decided, as a scheduler whose decisions cost that much would (ParSync's
  // 0.25 ms); decisions made with quality-first (adaptive's too, while it
  // uses quality-first) last emulated_quality_cost_factor (> 0) times that.
  // Sleeping, not spinning, so that N emulated schedulers need not N cores:
  // in the paper each scheduler has a machine of its own. Defaults: 0 (off:
  // a decision costs what this code costs) and 1.
  Duration emulated_decision_cost{0};
  double emulated_quality_cost_factor = 1.0;
  // How that cost is paid (see DecisionPacing). Default: kSleep.
  DecisionPacing decision_pacing = DecisionPacing::kSleep;
  // Not a configuration key: where latency-first (adaptive's too) looks for
  // preferred nodes. The wind tunnel runs the paper's kFreshest; the RM
  // keeps YARN's locality. Default: kAnywhere.
  PreferenceScope latency_first_preferences = PreferenceScope::kAnywhere;

  // spindle.scheduler.remote.address: HOST:PORT on which the RM serves the
  // pool's cell-state service (scheduler_pool/remote) to `spindle scheduler
  // --rm HOST:PORT` processes while it is active (port 0: one the kernel
  // picks; the RM logs it and writes it to its --ports-file). The pool does
  // not open it: the RM daemon does. Default: "" (no service, no remote
  // slots).
  std::string remote_address;
  // spindle.scheduler.remote.count: R further scheduler slots whose apps the
  // pool hands to its cell-state service (SchedulerPool::remote_service()),
  // to be placed by the service's members (`spindle scheduler` processes, or
  // SchedulerMembers in-process); apps are pinned over the N + R slots, so
  // the members place about R / (N + R) of them, however many members join.
  // 0..1024; from the keys, >= 1 with remote.address and 0 without (code may
  // set it without an address: tests and benches run members in-process).
  // Default: 1 with remote.address, else 0.
  int remote_schedulers = 0;
  // spindle.scheduler.remote.lease-ms: how long a member of the service
  // stays without renewing (> 0). Default: 3000.
  Duration remote_lease = std::chrono::milliseconds(3000);

  // Schedulers actually run: 1 in monolithic mode, else num_schedulers.
  int effective_schedulers() const { return mode == SyncMode::kMonolithic ? 1 : num_schedulers; }

  // InvalidArgument naming the key and the value at fault.
  Status Validate() const;

  // Defaults overridden by the spindle.scheduler.* keys of `config` (other
  // keys are ignored), then validated. InvalidArgument names an unknown
  // spindle.scheduler.* key, or the key and value that do not parse.
  static Result<PoolOptions> FromMap(const std::map<std::string, std::string>& config);
};

inline constexpr char kPoolKeyPrefix[] = "spindle.scheduler.";

Result<SyncMode> ParseSyncMode(const std::string& s);
Result<StrategyKind> ParseStrategy(const std::string& s);

}  // namespace spindle::pool
