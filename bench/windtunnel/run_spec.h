// RunSpec: everything one wind tunnel run of one mode needs (cluster,
// workload, pool settings, clock, task model), and the PoolOptions it
// implies. Defaults are the paper's Wind Tunnel setting (ParSync §6).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "base/clock.h"
#include "base/status.h"
#include "bench/windtunnel/cluster_model.h"
#include "bench/windtunnel/workload.h"
#include "scheduler_pool/pool_options.h"

namespace spindle::windtunnel {

enum class ClockKind : uint8_t {
  kReal,     // the pool's own threads on the system clock
  kVirtual,  // a discrete-event run on a ManualClock, decisions cost a model
};
const char* ClockKindName(ClockKind kind);

struct RunSpec {
  // Row label, e.g. "parsync/latency-first". Default: "".
  std::string label;
  ClockKind clock = ClockKind::kVirtual;
  pool::SyncMode mode = pool::SyncMode::kParSync;
  pool::StrategyKind strategy = pool::StrategyKind::kLatencyFirst;
  // N, P, G and adaptive's tau. Defaults: 20, 20, 500 ms, 2 s.
  int schedulers = 20;
  int partitions = 20;
  Duration sync_gap = std::chrono::milliseconds(500);
  Duration tau = std::chrono::seconds(2);
  // Tasks a scheduler decides per step (the pool's max-tasks-per-step).
  // Default: 100 (one job's batch).
  int step_tasks = 100;
  // Where latency-first (and adaptive while it uses it) looks for a job's
  // preferred nodes: kFreshest is the paper's latency-first (its freshest
  // partitions first, preferred nodes there first; README "Latency-first
  // and quality-first, as the paper has them"), kAnywhere the RM's (YARN
  // locality over the whole view first). Default: kFreshest.
  pool::PreferenceScope latency_first_preferences = pool::PreferenceScope::kFreshest;
  // Seed of the schedulers. Default: 1.
  uint64_t seed = 1;
  ClusterOptions cluster;
  WorkloadOptions workload;
  // How long a task holds its slot. Default: 5 s.
  Duration task_duration = std::chrono::seconds(5);
  // A task on a preferred node runs alpha x task_duration (ParSync Table
  // 1). Default: 1 (no benefit).
  double alpha = 1.0;
  // After the last phase, keep running (no new jobs) at most this long, so
  // backlogs drain and the last jobs complete. Default: 10 s.
  Duration drain = std::chrono::seconds(10);
  // End the run as soon as every task is committed (releases pending are
  // not waited for). Default: false.
  bool stop_when_committed = false;
  // Virtual clock: the modelled cost of one scheduling decision (one claim,
  // committed or refused). Default: 250 us (the paper's 0.25 ms).
  Duration decision_cost = std::chrono::microseconds(250);
  // Virtual clock: a decision made with quality-first (also adaptive's)
  // costs this many times decision_cost — ParSync §6.2: "Quality-first has
  // a higher scheduling overhead as it checks all partitions to find
  // preferred slots". Default: 1 (every decision costs the same).
  double quality_cost_factor = 1.0;
  // Real clock: the decision cost the schedulers emulate by sleeping
  // (PoolOptions::emulated_decision_cost, quality-first decisions
  // quality_cost_factor times longer). Default: 0 (none: a decision costs
  // what this code costs on this machine).
  Duration real_decision_cost{0};
  // Real clock: how often the driver polls for placements and releases.
  // Default: 2 ms.
  Duration tick = std::chrono::milliseconds(2);
  // K of the N schedulers as members of the pool's cell-state service
  // (scheduler_pool/remote) instead of pool threads: their calls go through
  // the Thrift codec (virtual clock: in memory, each a modelled round trip
  // of remote_rtt; real clock: over 127.0.0.1). 0..N-1 (the pool keeps one
  // thread of its own); not with monolithic. Default: 0.
  int remote_schedulers = 0;
  Duration remote_rtt = std::chrono::microseconds(500);
};

// InvalidArgument naming the field at fault.
Status ValidateRunSpec(const RunSpec& spec);

// The pool's options for `spec` (validated by the pool itself).
pool::PoolOptions MakePoolOptions(const RunSpec& spec);

}  // namespace spindle::windtunnel
