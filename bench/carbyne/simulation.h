// Simulation: one policy over one workload on the virtual clock. The
// mechanism: machines with a capacity, DAG jobs whose stages become
// runnable when their parents finish, tasks that hold their demand on one
// machine for their duration. The scheduler runs on every job arrival, job
// completion and task completion (§3.3: Pseudocode 1 is invoked on those
// events); what it does is the policy's (README.md, "Policies"):
//  - DRF: progressive filling, the job with the lowest dominant share next,
//    each job's tasks in breadth-first order, first-fit machines, until
//    nothing fits (work conserving).
//  - Carbyne: the same DRF pass, but a job that is altruistic at this event
//    offers only the tasks its plan (PlanJob) says must start now; then the
//    leftover goes to every job's other runnable tasks, jobs by least
//    remaining work (SRTF), each task on the best-aligned machine (packing).
//    P(altruism) = 0 makes every job non-altruistic: exactly DRF.
//  - Tetris: each machine in turn takes the runnable task best aligned with
//    its free resources, until none fits.
//  - SRTF: jobs by least remaining work, each placing what fits.
// Events at the same time run completions first, then arrivals, then one
// scheduling pass; everything iterates in index order, so a run is a pure
// function of its inputs.
//
// Thread-safety: none; one run owns its simulation.
#pragma once

#include <cstdint>
#include <vector>

#include "base/random.h"
#include "bench/carbyne/job_plan.h"
#include "bench/carbyne/model_options.h"
#include "bench/carbyne/policy.h"
#include "bench/carbyne/workload.h"

namespace spindle::bench::carbyne {

class Simulation {
 public:
  // `jobs` must be valid for `options` (ValidateJobs) and outlive this.
  Simulation(const ModelOptions& options, const std::vector<JobSpec>& jobs, PolicyKind policy);

  // Runs until every job has finished.
  void Run();

  // Per job, the time its last task ended.
  const std::vector<Time>& Finish() const { return finish_; }
  // Jain's index of each fairness window with at least two jobs (README.md,
  // "Metrics"), in time order.
  const std::vector<double>& JainPerWindow() const { return jain_; }
  // Scheduling passes, intra-job plans computed, and tasks Carbyne placed
  // from leftover (beyond what the DRF pass gave).
  uint64_t Passes() const { return passes_; }
  uint64_t Plans() const { return plans_; }
  uint64_t LeftoverPlacements() const { return leftover_placements_; }

 private:
  struct JobState {
    std::vector<StageState> stages;
    int stages_left = 0;
    Resources used;              // held by its running tasks
    Resources remaining_demand;  // sum over its unfinished tasks
    double remaining_work = 0;   // sum of duration x dominant share, tasks not started
    Allocation fair;             // DRF's closed-form allocation, A_k
    bool plan_valid = false;
    JobPlan plan;
  };
  struct Running {
    Time end;
    uint64_t seq;
    int job;
    int stage;
    int machine;
  };
  // Min-heap order on (end, seq).
  struct Later {
    bool operator()(const Running& a, const Running& b) const {
      return a.end != b.end ? a.end > b.end : a.seq > b.seq;
    }
  };

  void Arrive(int job);
  void Complete(const Running& task);
  void RecomputeFairShares();
  void Account(Time until);
  void CloseWindow();
  void Schedule();
  void ScheduleDrf(const std::vector<char>& altruistic);
  // Jobs by least remaining work, each placing its runnable tasks while
  // they fit: on the best-aligned machine (Carbyne's leftover, counted in
  // LeftoverPlacements) or the first that fits (SRTF).
  void PlaceInSrtfOrder(bool by_alignment);
  void ScheduleTetris();
  // The active jobs by least remaining work (ties: arrival order).
  std::vector<int> BySrtf() const;
  // The pending task of stage `s` of `job` to offer now, or -1: the first
  // one, or (`altruistic`) the first whose latest start has come.
  int Candidate(int job, int s, bool altruistic) const;
  int FirstFit(const Resources& demand) const;
  int BestAligned(const Resources& demand) const;
  double Alignment(int machine, const Resources& demand) const;
  void Place(int job, int s, int task, int machine);
  void UpdateOpen(int machine);

  const ModelOptions& options_;
  const std::vector<JobSpec>& jobs_;
  const PolicyKind policy_;
  Resources total_;
  Random coin_;

  Time now_ = 0;
  uint64_t seq_ = 0;
  std::vector<Resources> free_;  // per machine
  std::vector<int> open_;        // machines that can take the smallest task, ascending
  std::vector<JobState> state_;
  std::vector<int> active_;       // arrived, unfinished jobs, in arrival order
  std::vector<Running> running_;  // heap under Later
  std::vector<Time> finish_;

  // Fairness windows: per job, integrals of its dominant share and of its
  // fair (DRF) dominant share over the current window.
  Time window_start_ = 0;
  std::vector<double> window_used_;
  std::vector<double> window_fair_;
  std::vector<int> window_jobs_;
  std::vector<double> jain_;

  bool stage_done_ = false;
  uint64_t passes_ = 0;
  uint64_t plans_ = 0;
  uint64_t leftover_placements_ = 0;
};

}  // namespace spindle::bench::carbyne
