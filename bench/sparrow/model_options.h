// ModelOptions: the setting of one Sparrow simulation (seed paper 004): the
// cluster, the workload, the probing and the network delay. Defaults are the
// paper's §7.1 setting (Figure 9): 100 workers of 4 slots, 10-task jobs of
// 100 ms tasks, probe ratio d = 2, a 1 ms network round trip.
//
// Thread-safety: a value.
#pragma once

#include <cstdint>
#include <string>

#include "base/clock.h"
#include "base/result.h"

namespace spindle::bench::sparrow {

enum class DurationKind : uint8_t {
  kConstant,     // every task runs exactly the mean (§7.1's synthetic tasks)
  kExponential,  // exponential with the mean (§5's simulations)
  kPareto,       // Pareto, shape kParetoShape, scaled to the mean (§5.2's heavy tail)
};

// Shape of the Pareto durations. The paper does not give its shape; 1.5 has
// a finite mean and an infinite variance: a heavy tail, as §5.2 wants.
inline constexpr double kParetoShape = 1.5;

const char* DurationKindName(DurationKind kind);
// "constant", "exponential" or "pareto"; InvalidArgument otherwise.
Result<DurationKind> ParseDurationKind(const std::string& text);

struct ModelOptions {
  // Worker nodes. Default: 100 (§7.1: 100 slaves, 10 more host schedulers).
  int nodes = 100;
  // Tasks a node runs at once; the rest wait in its queue. Default: 4 (cores).
  int slots_per_node = 4;
  // Tasks per job, m. Default: 10.
  int tasks_per_job = 10;
  // Offered load: task work arriving per second over slot-seconds available,
  // in (0, 1). Jobs arrive as a Poisson process of rate
  // load * nodes * slots_per_node / (tasks_per_job * mean task duration).
  // Default: 0.8.
  double load = 0.8;
  // Mean task duration. Default: 100 ms.
  Duration mean_task = std::chrono::milliseconds(100);
  DurationKind durations = DurationKind::kConstant;
  // Probes per task, d (probe d*m nodes for an m-task job). Default: 2.
  double probe_ratio = 2.0;
  // Network round trip between a scheduler and a node (probe, task launch,
  // getTask). Default: 1 ms (§7.1's simulation).
  Duration rtt = std::chrono::milliseconds(1);
  // Jobs submitted. Default: 20,000.
  int jobs = 20'000;
  // Jobs left out of the figures at the start and at the end (the cluster
  // fills up and drains there), each as a share of `jobs`. Default: 0.1.
  double edge_share = 0.1;
  // Share of jobs with per-task constraints; each task of such a job prefers
  // `preferred_nodes` random distinct nodes (data replicas). Default: 0.
  double constrained_share = 0.0;
  // Preferred nodes of a constrained task. Default: 3 (three-way replicas).
  int preferred_nodes = 3;
  uint64_t seed = 1;

  // InvalidArgument naming the first setting out of range.
  Status Validate() const;
  // Jobs per second that give `load`.
  double JobRate() const;
};

}  // namespace spindle::bench::sparrow
