// ReplayRecorder: what a replay driver tells about one run (one mode or
// policy) — jobs submitted and finished, tasks asked, placed and ended,
// conflicts — and the figures it makes of them (replay_result.h): task
// scheduling delay (asked -> placed) percentiles and CDF, quality (share of
// tasks with a preference placed on a preferred node), conflicts, cluster
// utilisation (allocated / capacity, memory and vcores) over time, job
// completion time (submit -> last task ended) and makespan, per-queue share
// of the cluster and Jain's fairness index over fixed windows, and a 1 s
// time series. Times are durations since the start of the run (trace time:
// a staging cell run at --speed 10 reports trace seconds, not wall ones).
//
// The driver's view: both modes call it the same way, so their figures
// compare. Jobs are named by the driver's own dense index (0, 1, ...).
//
// Thread-safety: every method is thread-safe (one mutex); Finish() may be
// called once all events are in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "replay/report/replay_events.h"
#include "replay/report/replay_result.h"

namespace spindle::replay {

struct QueueShareSpec {
  std::string name;  // the leaf queue's name as jobs name it ("default", "sls_queue_1")
  // Its guaranteed share of the cluster (0..1): capacity as an absolute
  // fraction. Jain's index is computed over usage / guaranteed share.
  double guaranteed = 0;
};

struct RecorderOptions {
  // The cluster's capacity (sum of the nodes). Required, > 0.
  int64_t capacity_memory_mb = 0;
  int64_t capacity_vcores = 0;
  // Leaf queues. Jobs in a queue not listed are counted under their own
  // name with a guaranteed share of 0 (left out of Jain's index).
  std::vector<QueueShareSpec> queues;
  // Fairness windows. Default: 60 s (ParSync/ARCHITECTURE.md).
  Duration fairness_window = std::chrono::seconds(60);
  // Series bucket. Default: 1 s.
  Duration bucket = std::chrono::seconds(1);
};

class ReplayRecorder final : public ReplayEvents {
 public:
  explicit ReplayRecorder(RecorderOptions options);

  // A job entered the RM (submitted). `job` is dense, from 0.
  void OnJobSubmitted(int64_t job, const std::string& trace_id, const std::string& queue,
                      int64_t tasks, Duration at) override EXCLUDES(mu_);
  // The RM refused the job (unknown queue, ACL, too big): it runs nothing.
  void OnJobRejected(int64_t job, const std::string& reason, Duration at) override EXCLUDES(mu_);
  // Its AM asked for `count` more tasks.
  void OnTasksAsked(int64_t job, int64_t count, Duration at) override EXCLUDES(mu_);
  // One task was placed (given a container) on node `node` (the driver's
  // node index; -1 if unknown). `with_preference`: it named nodes or racks;
  // `preferred`: it landed on one of them.
  void OnTaskPlaced(int64_t job, Duration asked, Duration placed, int64_t node, int64_t memory_mb,
                    int64_t vcores, bool with_preference, bool preferred) override EXCLUDES(mu_);
  // A placed task ended and its container was released.
  void OnTaskEnded(int64_t job, Duration at, int64_t memory_mb, int64_t vcores) override
      EXCLUDES(mu_);
  // The job's last task ended (the AM unregistered).
  void OnJobFinished(int64_t job, Duration at) override EXCLUDES(mu_);
  // Commits refused by the cell state (wind tunnel only: the wire hides them).
  void OnConflicts(Duration at, int64_t count) override EXCLUDES(mu_);

  // The figures of the run so far; `end` is when it stopped.
  ReplayModeResult Finish(Duration end) const EXCLUDES(mu_);

 private:
  struct Bucket {
    int64_t submitted_jobs = 0;
    int64_t asked = 0;
    int64_t placed = 0;
    int64_t ended = 0;
    int64_t conflicts = 0;
    int64_t preferred = 0;
    int64_t with_preference = 0;
    std::vector<double> delays_ms;  // of the tasks placed in the bucket
    // Allocated resources change within the bucket: the sum of the changes,
    // and of each change times the seconds left in the bucket after it
    // (what it adds to the bucket's integral). O(1) per event, whatever
    // the order events arrive in.
    double memory_delta = 0;
    double memory_partial = 0;
    double vcores_delta = 0;
    double vcores_partial = 0;
  };
  // The same per fairness window and queue (memory only), and whether the
  // queue asked for anything in the window.
  struct QueueWindow {
    double delta = 0;
    double partial = 0;
    bool demand = false;
  };
  struct JobRecord {
    std::string trace_id;
    int32_t queue = -1;
    int64_t tasks = 0;
    int64_t placed = 0;
    int64_t ended = 0;
    Duration submitted{-1};
    Duration first_placed{-1};
    Duration last_placed{-1};
    Duration finished{-1};
    bool rejected = false;
  };

  Bucket& BucketAt(Duration at) REQUIRES(mu_);
  JobRecord& Job(int64_t job) REQUIRES(mu_);
  int32_t QueueIndex(const std::string& name) REQUIRES(mu_);
  QueueWindow& WindowAt(Duration at, int32_t queue) REQUIRES(mu_);
  // Allocated resources of `queue` change by (memory_mb, vcores) at `at`.
  void ChangeUsage(Duration at, int32_t queue, int64_t memory_mb, int64_t vcores) REQUIRES(mu_);

  const RecorderOptions options_;
  mutable Mutex mu_;
  std::vector<std::string> queue_names_ GUARDED_BY(mu_);
  std::vector<double> queue_guaranteed_ GUARDED_BY(mu_);
  std::vector<JobRecord> jobs_ GUARDED_BY(mu_);
  std::vector<Bucket> buckets_ GUARDED_BY(mu_);
  std::vector<std::vector<QueueWindow>> windows_ GUARDED_BY(mu_);  // [window][queue]
  std::vector<double> all_delays_ms_ GUARDED_BY(mu_);
  std::vector<std::string> rejections_ GUARDED_BY(mu_);
};

}  // namespace spindle::replay
