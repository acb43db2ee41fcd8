// The simulations of the paper's Figures 2 and 3 (ParSync §4.3, §5.2),
// run with the real scheduling code on the virtual clock: how many extra
// slots (beyond S = R x T) the cluster needs so that submitting R tasks/s
// for D seconds finishes within 110% x D, as R, G and V vary and as the
// schedulers are multiplied by A (N = A x R x cost, batches of B / A).
//
//  - Figure 2: Omega's shared state (statesync, whole view synced every G)
//    on an unpartitioned master (P = 1), series A = 1, 2, 4.
//  - Figure 3: DiffSyn (parsync) vs SameSyn (samesync), and statesync, on
//    P partitions, series by sync mode and A.
//
// The setting is the paper's scaled down by `scale` (cluster, rate and
// batch x scale, decision cost / scale), which keeps every ratio that
// drives conflicts (tasks per scheduler per G vs free slots) and makes a
// sweep take seconds. For each of `seeds` seeds (cluster, workload and
// schedulers all drawn from it) a bisection over a grid of extra
// percentages of S (assuming more slots never hurt) finds the least extra
// that passes; a point's value is the mean over the seeds, or < 0 if some
// seed fails even at the largest extra. A single seed is a pass/fail
// threshold on one random draw, and the scaled-down runs are small enough
// for the draw to move it by a grid step or two either way, so one seed
// can put neighbouring points out of order. Points run on `jobs` threads;
// each run is deterministic, so the tables do not depend on `jobs`.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "bench/windtunnel/results.h"
#include "bench/windtunnel/run_spec.h"

namespace spindle::windtunnel {

struct FigureOptions {
  // Which figures to run (2 and/or 3). Default: both.
  std::vector<int> figures = {2, 3};
  // Scale of the cluster, rates and batches. Default: 0.05.
  double scale = 0.05;
  // Submission period D. Default: 30 s (the paper: 90 s).
  Duration seconds = std::chrono::seconds(30);
  // Decision cost at full scale. Default: 250 us.
  Duration decision_cost = std::chrono::microseconds(250);
  Duration task_duration = std::chrono::seconds(5);
  // Tasks per batch (job) at full scale and A = 1. Default: 100.
  int batch = 100;
  // The extra slots tried, percent of S, ascending. Default: 0 .. 200.
  std::vector<double> grid_percent = {0,  2.5, 5,  7.5, 10,  15,  20,  30,
                                      40, 50,  60, 80,  100, 125, 150, 200};
  // How schedulers pick slots: the paper's simulator picker for both
  // (score-sampling: every free slot of the view, in any partition, drawn
  // by score; §4.3 [A1], and §5.2 "a scheduler may pick slots from any
  // partition"). Latency-first would hide what Figure 3 is about: it
  // ignores scores (so V cannot matter) and by design keeps each DiffSyn
  // scheduler in its own fresh partitions.
  pool::StrategyKind fig2_strategy = pool::StrategyKind::kScoreSampling;
  pool::StrategyKind fig3_strategy = pool::StrategyKind::kScoreSampling;
  // Defaults of the parameters not being varied: R, G, V.
  double rate = 40'000;
  Duration gap = std::chrono::milliseconds(500);
  double variance = 2;
  // Values swept.
  std::vector<double> rates = {16'000, 24'000, 32'000, 40'000};
  std::vector<double> gaps_s = {0.125, 0.25, 0.5, 1.0};
  std::vector<double> variances = {0.5, 1, 2, 4};
  std::vector<int> fig2_a = {1, 2, 4};
  // Figure 3: DiffSyn and SameSyn for each A, statesync for the first.
  std::vector<int> fig3_a = {1, 2};
  // Partitions of the master state. Defaults: 1 (Figure 2), 40 (Figure 3;
  // raised to N where N is larger).
  int fig2_partitions = 1;
  int fig3_partitions = 40;
  // Preferred nodes per task of a job, and the PreferenceSampler's tilt.
  // Default: 1, 1.
  int preferred_per_task = 1;
  double preference_tilt = 1.0;
  uint64_t seed = 1;
  // Seeds per point: seed, seed + 1, ... (>= 1). Default: 3.
  int seeds = 3;
  // Threads running simulation points at once. Default: 1.
  int jobs = 1;
};

// One simulation point.
struct SimPoint {
  pool::SyncMode mode = pool::SyncMode::kStateSync;
  pool::StrategyKind strategy = pool::StrategyKind::kQualityFirst;
  double rate = 40'000;
  Duration gap = std::chrono::milliseconds(500);
  double variance = 2;
  int a = 1;
  int partitions = 1;
};

// The run of `point` with `extra_percent` extra slots.
RunSpec MakeSimSpec(const FigureOptions& options, const SimPoint& point, double extra_percent);
// Whether that run finishes within 110% of its submission period.
Result<bool> SimPasses(const FigureOptions& options, const SimPoint& point, double extra_percent);
// The smallest extra percentage of the grid that passes with
// options.seed; < 0 if none.
Result<double> ExtraSlotsNeeded(const FigureOptions& options, const SimPoint& point);
// ExtraSlotsNeeded() averaged over options.seeds seeds from options.seed;
// < 0 if it is < 0 for any of them.
Result<double> MeanExtraSlotsNeeded(const FigureOptions& options, const SimPoint& point);

// Runs the figures; `progress` (may be null) gets each table when done
// (called from the calling thread).
Result<std::vector<FigureTable>> RunFigures(
    const FigureOptions& options, const std::function<void(const FigureTable&)>& progress);

}  // namespace spindle::windtunnel
