// Recorder: turns one run's events — tasks submitted, committed (with their
// ask time, preference and score), conflicts, jobs scheduled and done, and
// 1 s samples of backlog and utilisation — into per-phase figures, a 1 s
// time series and whole-run totals (results.h). Clock-agnostic: times are
// durations since the start of the run, and may arrive slightly out of
// order (the real-clock driver collects placements a tick late).
//
// Attribution: task figures (throughput, delay, quality, conflicts) go to
// the window in which the task was committed, as in the paper's time
// plots; job figures (JSD, JCT) to the phase in which the job was
// submitted. Times after the last phase belong to the "drain" window.
//
// Thread-safety: none (one driver owns it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/clock.h"
#include "bench/windtunnel/results.h"
#include "bench/windtunnel/workload.h"
#include "scheduler_pool/metrics.h"

namespace spindle::windtunnel {

class Recorder {
 public:
  Recorder(std::vector<PhaseSpec> phases, int64_t total_slots);

  void OnSubmit(Duration at, int64_t tasks);
  // One committed task. `with_preference`: its job named preferred nodes.
  void OnCommit(Duration asked, Duration committed, bool with_preference, bool preferred,
                double score);
  void OnConflicts(Duration at, int64_t count);
  void OnJobScheduled(Duration submitted, Duration last_commit);
  void OnJobDone(Duration submitted, Duration last_end);
  // The state at `at` (normally a whole second): uncommitted tasks, slots
  // held, and for adaptive the schedulers deciding with quality-first (-1
  // otherwise).
  void OnSample(Duration at, int64_t backlog, int64_t held_slots, int quality_first_schedulers);

  // Figures of the run so far, which ended at `end`.
  void Finish(Duration end, ModeResult* out) const;

 private:
  struct Window {
    int64_t submitted = 0;
    int64_t committed = 0;
    int64_t conflicts = 0;
    int64_t with_preference = 0;
    int64_t preferred = 0;
    double score_sum = 0;
    pool::LatencyHistogram delay;
    double util_sum = 0;
    int64_t util_samples = 0;
    int64_t backlog_end = 0;
    int64_t backlog_max = 0;
    Duration backlog_at{-1};
    int quality_first = -1;
    // Jobs submitted in the window.
    int64_t jobs = 0;
    int64_t jobs_scheduled = 0;
    int64_t jobs_done = 0;
    pool::LatencyHistogram jsd;
    pool::LatencyHistogram jct;

    void Merge(const Window& o);
  };

  // 0..phases-1, phases for the drain.
  int WindowAt(Duration t) const;
  Window& Second(Duration t);
  static void Fill(const Window& w, double seconds, PhaseResult* out);

  std::vector<PhaseSpec> phases_;
  int64_t total_slots_;
  std::vector<Window> windows_;  // phases, then drain
  std::vector<Window> seconds_;
};

}  // namespace spindle::windtunnel
