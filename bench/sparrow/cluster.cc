#include "bench/sparrow/cluster.h"

#include <glog/logging.h>

#include <algorithm>

#include "bench/sparrow/policy.h"

namespace spindle::bench::sparrow {

Cluster::Cluster(const ModelOptions& options, const std::vector<JobSpec>& jobs, Policy& policy)
    : options_(options),
      jobs_(jobs),
      policy_(policy),
      // The scheduler's draws are independent of the workload's (same seed
      // would correlate probe targets with preferred nodes).
      rng_(options.seed ^ 0x5bd1e9955bd1e995ULL),
      nodes_(static_cast<size_t>(options.nodes)),
      records_(jobs.size()) {}

void Cluster::Run() {
  for (int j = 0; j < JobCount(); ++j) {
    records_[static_cast<size_t>(j)].arrival = Job(j).arrival;
    loop_.At(Job(j).arrival, [this, j] { policy_.OnJobArrival(j, *this); });
  }
  events_ = loop_.Run();
}

int Cluster::QueueLength(int node) const {
  const Node& n = nodes_[static_cast<size_t>(node)];
  return n.busy + static_cast<int>(n.queue.size());
}

void Cluster::SendTask(int node, int job, int task, Duration delay) {
  CHECK(node >= 0 && node < Nodes()) << node;
  loop_.After(delay, [this, node, job, task] { Enqueue(node, Entry{job, task}); });
}

void Cluster::SendReservation(int node, int job, Duration delay) {
  CHECK(node >= 0 && node < Nodes()) << node;
  loop_.After(delay, [this, node, job] { Enqueue(node, Entry{job, kReservation}); });
}

void Cluster::Enqueue(int node, Entry entry) {
  nodes_[static_cast<size_t>(node)].queue.push_back(entry);
  Pump(node);
}

void Cluster::Pump(int node) {
  Node& n = nodes_[static_cast<size_t>(node)];
  while (n.busy < options_.slots_per_node && !n.queue.empty()) {
    const Entry e = n.queue.front();
    n.queue.pop_front();
    ++n.busy;
    if (e.task == kReservation) {
      RequestTask(node, e.job);
    } else {
      Start(node, e.job, e.task);
    }
  }
}

void Cluster::Start(int node, int job, int task) {
  const JobSpec& spec = Job(job);
  CHECK(task >= 0 && task < static_cast<int>(spec.tasks.size())) << task;
  JobRecord& rec = records_[static_cast<size_t>(job)];
  rec.total_wait += Now() - spec.arrival;
  if (on_start_) on_start_(node, job, task);
  loop_.After(spec.tasks[static_cast<size_t>(task)].duration, [this, node, job] {
    JobRecord& r = records_[static_cast<size_t>(job)];
    ++r.tasks_done;
    r.finish = std::max(r.finish, Now());
    makespan_ = std::max(makespan_, Now());
    --nodes_[static_cast<size_t>(node)].busy;
    Pump(node);
  });
}

void Cluster::RequestTask(int node, int job) {
  ++get_tasks_;
  const Duration half = options_.rtt / 2;
  held_ += options_.rtt;
  // getTask() reaches the scheduler after half a round trip; its answer
  // reaches the node after the other half.
  loop_.After(half, [this, node, job, half] {
    const std::optional<int> task = policy_.OnGetTask(job, node, *this);
    loop_.After(options_.rtt - half, [this, node, job, task] {
      if (task.has_value()) {
        Start(node, job, *task);
        return;
      }
      ++no_ops_;
      --nodes_[static_cast<size_t>(node)].busy;
      Pump(node);
    });
  });
}

}  // namespace spindle::bench::sparrow
