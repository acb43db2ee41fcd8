// PlanJob: Carbyne's intra-job scheduler (§3.3, Pseudocode 1 lines 16-24).
// Given the job's fair allocation A_k and its remaining DAG, it computes
// T_k, the time the job needs to finish within A_k (forward packing of the
// remaining tasks, longest first, each at the earliest time its stage's
// parents are done and it fits in A_k over its whole run), then packs the
// reversed DAG backwards from T_k, as late as possible. A task's latest
// start is T_k minus its end in the reversed packing; a runnable task whose
// latest start has come must start now (an ask DEFAULT), the others may wait
// (asks ALTRUISTIC) without delaying T_k, so the job can yield their share.
//
// Running tasks hold their resources until they end, in both packings. A
// task larger than A_k in some resource is given room to run alone (A_k is
// raised to the job's largest task), so a plan always exists.
//
// Thread-safety: a pure function.
#pragma once

#include <vector>

#include "bench/carbyne/resources.h"
#include "bench/carbyne/workload.h"

namespace spindle::bench::carbyne {

// Where one stage of a job stands at a scheduling instant.
struct StageState {
  std::vector<Time> running_end;  // end times of its running tasks
  std::vector<int> pending;       // its tasks not started yet, ascending
  int unfinished = 0;             // tasks not finished (running + pending)
  int parents_left = 0;           // parent stages not finished
};

struct JobPlan {
  Time completion = 0;  // absolute time the forward packing ends (now + T_k)
  // latest_start[s][i]: absolute latest start of task i of stage s; only
  // pending tasks' entries are meaningful.
  std::vector<std::vector<Time>> latest_start;
};

// `state` has one entry per stage of `job`; `now` is the current time.
JobPlan PlanJob(const JobSpec& job, const std::vector<StageState>& state,
                const Allocation& allocation, Time now);

}  // namespace spindle::bench::carbyne
