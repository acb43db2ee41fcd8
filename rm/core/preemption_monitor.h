// PreemptionMonitor: Hadoop's SchedulingMonitor running the
// ProportionalCapacityPreemptionPolicy against the live RM, while the RM is
// active (yarn.resourcemanager.scheduler.monitor.enable). Every
// monitoring_interval (on the core's clock: tests drive it with a simulated
// one) it takes the queue tree, each leaf's usage (its live containers) and
// demand (active attempts' outstanding asks, or their AM container while it
// waits for a place), and every live container, and runs the policy
// (rm/preemption/proportional_policy.h). Then, per selected container, as
// 3.3's preemptOrkillSelectedContainerAfterWait:
//   - first selection: marked now; the owning attempt's next allocate answer
//     carries it in a PreemptionMessage (TakeMessage; each mark is handed out
//     once, as FiCaSchedulerApp.getAllocation clears containersToPreempt);
//   - selected again once max_wait_before_kill has passed since its mark
//     (marked + wait <= now): the RM kills it (ContainerRegistry::Preempt:
//     exit status PREEMPTED -102, "Container preempted by scheduler"; its
//     node kills it at its next heartbeat, its AM gets the completion; an AM
//     container ends its attempt as the app manager decides).
// Marks older than 2 x max_wait_before_kill are forgotten; a container that
// completes on its own leaves the marks and the pending announcement.
// 2.6 and 2.7 differ in what the AM sees: every run re-announces every
// selected container that is not killed yet (their PREEMPT_CONTAINER event
// is sent each round), and the kill waits for marked + wait < now. With
// observe_only the policy runs and nothing is marked or killed.
//
// Thread contract: RunIfDue / RunOnce from one thread (the active services'
// housekeeping thread); TakeMessage and Stats from any thread. The policy
// runs without the monitor's lock; registries take their own.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "base/clock.h"
#include "base/mutex.h"
#include "rm/apps/app_manager.h"
#include "rm/config/hadoop_line.h"
#include "rm/containers/container_registry.h"
#include "rm/core/attempt_allocator.h"
#include "rm/nodes/node_labels.h"
#include "rm/preemption/preemption_options.h"
#include "rm/preemption/proportional_policy.h"
#include "rm/queues/queue_manager.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm {

struct PreemptionMonitorDeps {
  // Its `line` also decides the kill timing and which marks the AM hears.
  preemption::PreemptionOptions options;
  const QueueManager* queues = nullptr;
  // Not const: a user's limit is looked up by its interned id.
  pool::SchedulerPool* pool = nullptr;
  ContainerRegistry* containers = nullptr;
  // Which partition each node is in: the policy works on the default
  // partition (null: every node is in it).
  const NodeLabels* node_labels = nullptr;
  ApplicationManager* apps = nullptr;
  // The attempts' outstanding asks (their queues' demand).
  const AttemptAllocator* allocator = nullptr;
  // yarn.scheduler.minimum-allocation-*: the contract's resource request.
  pool::Resource minimum_allocation;
  const Clock* clock = nullptr;
};

// Counters since the activation (for logs, metrics and benches).
struct PreemptionMonitorStats {
  int64_t rounds = 0;
  int64_t marked = 0;  // first selections
  int64_t killed = 0;
  std::chrono::microseconds last_round{0};   // the last RunOnce, whole
  std::chrono::microseconds last_policy{0};  // of which ComputePreemption
  int64_t last_containers = 0;               // live containers it looked at
};

class PreemptionMonitor {
 public:
  explicit PreemptionMonitor(PreemptionMonitorDeps deps);

  // RunOnce if monitoring_interval has passed since the last run (the first
  // call runs: Hadoop schedules the policy at a fixed rate from 0).
  void RunIfDue(TimePoint now);
  // One run of the policy and of what follows it (see above).
  void RunOnce();

  // The PreemptionMessage of the attempt's next allocate answer: what was
  // marked (and, 2.6/2.7, re-announced) since its last call and is still
  // live; nullopt when nothing is.
  std::optional<PreemptionMessage> TakeMessage(const ApplicationAttemptId& attempt) EXCLUDES(mu_);

  PreemptionMonitorStats Stats() const EXCLUDES(mu_);
  // What the RM has killed so far, by leaf queue path (3.3's QueueMetrics
  // aggregateContainersPreempted, aggregateMemoryMBPreempted / VcoresPreempted
  // and aggregate{MemoryMB,Vcore}SecondsPreempted; the parents' sums are the
  // reader's). Monotonic over the activation.
  std::map<std::string, ResourceSeconds> PreemptedByQueue() const EXCLUDES(mu_);
  // The policy's input as the RM is now (for tests and benches).
  preemption::PolicyInput SnapshotInput() const;

 private:
  struct Mark {
    ApplicationAttemptId attempt;
    TimePoint at;
  };

  const PreemptionMonitorDeps deps_;
  std::optional<TimePoint> last_run_;  // RunIfDue's thread only

  mutable Mutex mu_;
  // preemptionCandidates: container -> when first marked.
  std::map<ContainerId, Mark> marked_ GUARDED_BY(mu_);
  // containersToPreempt of each attempt, until its next allocate.
  std::map<ApplicationAttemptId, std::set<ContainerId>> to_announce_ GUARDED_BY(mu_);
  PreemptionMonitorStats stats_ GUARDED_BY(mu_);
  std::map<std::string, ResourceSeconds> preempted_by_queue_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
