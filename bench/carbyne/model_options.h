// ModelOptions: the setting of one Carbyne simulation (seed paper 003): the
// cluster, the synthetic DAG workload and the altruism level. Defaults are
// the paper's §5.1 cluster (100 machines of 20 cores and 128 GB, 250 jobs)
// with all jobs submitted at time 0 (the offline case of Figure 4, where
// the paper's 1.26x makespan and 1.59x mean JCT over DRF come from).
//
// Thread-safety: a value.
#pragma once

#include <cstdint>

#include "base/result.h"
#include "bench/carbyne/resources.h"

namespace spindle::bench::carbyne {

struct ModelOptions {
  // Machines of the cluster. Default: 100 (§5.1).
  int machines = 100;
  // Capacity of each machine. Default: 128 GB, 20 vcores (§5.1).
  Resources machine{128 * 1024, 20};
  // Jobs submitted. Default: 250 (§5.1: "each experiment has 250 jobs").
  int jobs = 250;
  // Mean gap between job arrivals (Poisson), seconds; 0 submits every job
  // at time 0 (the offline case). Default: 0. §5.1's online case uses 20.
  double interarrival_s = 0;
  // Stages per job are uniform in [2, max_stages]. Default: 12 (median 7;
  // Table 2: medians 7-13 across the workloads).
  int max_stages = 12;
  // Tasks per stage are log-uniform in [1, max_tasks]. Default: 100.
  int max_tasks = 100;
  // A stage's mean task duration is log-uniform in [min_task_s, max_task_s];
  // its tasks vary +-25% around it. Default: 5 s to 60 s (jobs of a few to
  // tens of minutes, §5.1).
  double min_task_s = 5;
  double max_task_s = 60;
  // A stage's per-task demand: vcores in {1, 2, 4}, memory uniform in whole
  // GB in [1, max_task_memory_gb]. Default: 24.
  int max_task_memory_gb = 24;
  // Probability that a job yields (is altruistic) at a scheduling event,
  // §3.5's P(Altruism). Default: 1 (the paper's default); 0 is DRF.
  double p_altruism = 1.0;
  // Length of the windows Jain's index is computed on. Default: 60 s (§5.1).
  Time fairness_window_ms = 60'000;
  uint64_t seed = 1;

  // InvalidArgument naming the first setting out of range.
  Status Validate() const;
};

}  // namespace spindle::bench::carbyne
