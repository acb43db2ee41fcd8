// A few seconds of a small wind tunnel on the virtual clock, for the tests:
// 2,000 nodes (4,000 slots), N = 4, P = 8, G = 100 ms, tau = 200 ms, jobs of
// 20 one-second tasks with 20 preferred nodes, R = 2,000 tasks/s in two 2 s
// phases at 50% and 95%, 3 s of drain, 1 ms per decision, seed 9.
#pragma once

#include <chrono>
#include <string>
#include <utility>

#include "bench/windtunnel/json_report.h"
#include "bench/windtunnel/results.h"
#include "bench/windtunnel/run_spec.h"

namespace spindle::windtunnel {

inline RunSpec SmallSpec(pool::SyncMode mode, pool::StrategyKind strategy) {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  RunSpec s;
  s.label = std::string(pool::SyncModeName(mode)) + "/" + pool::StrategyKindName(strategy);
  s.mode = mode;
  s.strategy = strategy;
  s.schedulers = 4;
  s.partitions = 8;
  s.sync_gap = milliseconds(100);
  s.tau = milliseconds(200);
  s.step_tasks = 20;
  s.seed = 9;
  s.cluster.nodes = 2000;
  s.cluster.seed = 9;
  s.workload.base_rate = 2000;
  s.workload.fractions = {0.5, 0.95};
  s.workload.phase_length = seconds(2);
  s.workload.tasks_per_job = 20;
  s.workload.preferred_nodes = 20;
  s.workload.seed = 9;
  s.task_duration = seconds(1);
  s.drain = seconds(3);
  s.decision_cost = milliseconds(1);
  return s;
}

// A run's report as JSON without the wall-clock time (the only figure that
// may vary between two runs of one spec).
inline std::string SummaryOf(ModeResult r) {
  r.wall_seconds = 0;
  WindTunnelReport report;
  report.modes.push_back(std::move(r));
  return ToJson(report);
}

}  // namespace spindle::windtunnel
