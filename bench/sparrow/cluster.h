// Cluster: the mechanism of a Sparrow simulation — worker nodes with a fixed
// number of slots and one FIFO queue each, on the virtual clock of an
// EventLoop. A queue holds tasks (bound to the node) and reservations (a
// late-binding probe of a job, bound to no task yet). Whenever a slot is free
// the node takes its queue's head: a task starts and holds the slot for its
// duration; a reservation holds the slot while the node sends getTask() to
// the job's scheduler (half a round trip), the policy answers there, and the
// answer comes back (the other half): a task starts, a no-op frees the slot
// and the node takes its next entry. So late binding costs one round trip of
// idle slot per reservation served, as in the paper's §4.3.
//
// Policies (policy.h) drive it through the calls below; the cluster records
// when each job arrived and when its last task finished.
//
// Thread-safety: none; one simulation.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/random.h"
#include "bench/sparrow/event_loop.h"
#include "bench/sparrow/model_options.h"
#include "bench/sparrow/workload.h"

namespace spindle::bench::sparrow {

class Policy;

class Cluster {
 public:
  struct JobRecord {
    Duration arrival{};
    Duration finish{};  // when its last task finished
    int tasks_done = 0;
    // Sum over its tasks of (start - job arrival).
    Duration total_wait{};
  };

  // `options` valid; `jobs` from GenerateWorkload(options) (or any jobs
  // within options.nodes). Both must outlive the cluster.
  Cluster(const ModelOptions& options, const std::vector<JobSpec>& jobs, Policy& policy);

  // Submits every job at its arrival time and runs until the last task ends.
  void Run();

  // --- For policies ---
  Duration Now() const { return loop_.Now(); }
  EventLoop& Loop() { return loop_; }
  // The scheduler's randomness (probe targets), seeded from options.seed.
  Random& Rng() { return rng_; }
  const ModelOptions& Options() const { return options_; }
  const JobSpec& Job(int job) const { return jobs_[static_cast<size_t>(job)]; }
  int JobCount() const { return static_cast<int>(jobs_.size()); }
  int Nodes() const { return static_cast<int>(nodes_.size()); }
  // What a probe reads at `node` now: entries in its queue (tasks and
  // reservations) plus slots in use (running or waiting on a getTask).
  int QueueLength(int node) const;
  // Task `task` of `job` joins `node`'s queue after `delay` (the launch
  // message's flight).
  void SendTask(int node, int job, int task, Duration delay);
  // A reservation of `job` joins `node`'s queue after `delay`.
  void SendReservation(int node, int job, Duration delay);

  // --- Results ---
  const std::vector<JobRecord>& Records() const { return records_; }
  uint64_t GetTaskRequests() const { return get_tasks_; }
  uint64_t NoOps() const { return no_ops_; }
  uint64_t Events() const { return events_; }
  // Slot time spent waiting on getTask() answers, over all nodes.
  Duration HeldSlotTime() const { return held_; }
  // When the last task finished.
  Duration Makespan() const { return makespan_; }
  // Called as each task starts (tests check where and when tasks ran).
  void SetStartObserverForTest(std::function<void(int node, int job, int task)> fn) {
    on_start_ = std::move(fn);
  }

 private:
  struct Entry {
    int job;
    int task;  // kReservation for a reservation
  };
  static constexpr int kReservation = -1;
  struct Node {
    int busy = 0;  // slots running a task or waiting on a getTask()
    std::deque<Entry> queue;
  };

  void Enqueue(int node, Entry entry);
  // Fills the node's free slots from its queue.
  void Pump(int node);
  void Start(int node, int job, int task);
  void RequestTask(int node, int job);

  const ModelOptions& options_;
  const std::vector<JobSpec>& jobs_;
  Policy& policy_;
  EventLoop loop_;
  Random rng_;
  std::vector<Node> nodes_;
  std::vector<JobRecord> records_;
  uint64_t get_tasks_ = 0;
  uint64_t no_ops_ = 0;
  uint64_t events_ = 0;
  Duration held_{};
  Duration makespan_{};
  std::function<void(int, int, int)> on_start_;
};

}  // namespace spindle::bench::sparrow
