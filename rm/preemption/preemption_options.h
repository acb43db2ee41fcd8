// PreemptionOptions: the scheduling monitor and its
// ProportionalCapacityPreemptionPolicy, as the Hadoop keys configure them.
//
// Where the keys are read from: Hadoop 3.3 reads the policy's keys from the
// CapacityScheduler's configuration (capacity-scheduler.xml layered over
// yarn-site.xml: CapacitySchedulerConfiguration.PREEMPTION_*, and re-reads
// them after refreshQueues); 2.6 and 2.7 read the same names from the RM's
// configuration once, at start (ProportionalCapacityPreemptionPolicy.init).
// Spindle's Configuration already holds both files, so either place works on
// every line. Keys, defaults (the same on 2.6, 2.7 and 3.3):
//   yarn.resourcemanager.scheduler.monitor.enable                     false
//   yarn.resourcemanager.scheduler.monitor.policies
//       org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.
//       ProportionalCapacityPreemptionPolicy
//   yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval 3000 (ms)
//   ...max_wait_before_kill            15000 (ms)
//   ...total_preemption_per_round      0.1
//   ...max_ignored_over_capacity       0.1
//   ...natural_termination_factor      0.2
//   ...observe_only                    false
// and per queue yarn.scheduler.capacity.<queue-path>.disable_preemption
// (inherited from the parent; rm/queues).
//
// Not supported (refused when set to true, so that nobody believes they
// apply): 3.x's intra-queue preemption (...intra-queue-preemption.enabled),
// preemption to balance queues beyond their guarantee
// (...preemption-to-balance-queue-after-satisfied.enabled), reserved-container
// selection (...select_based_on_reserved_containers) and lazy preemption
// (yarn.resourcemanager.monitor.capacity.preemption.lazy-preemption-enabled
// is 3.3's CapacityScheduler key: "lazy-preemption-enabled").
#pragma once

#include <chrono>
#include <string>

#include "base/result.h"
#include "rm/config/configuration.h"
#include "rm/config/hadoop_line.h"
#include "rm/preemption/resource_math.h"

namespace spindle::rm::preemption {

inline constexpr char kMonitorEnableKey[] = "yarn.resourcemanager.scheduler.monitor.enable";
inline constexpr char kMonitorPoliciesKey[] = "yarn.resourcemanager.scheduler.monitor.policies";
inline constexpr char kProportionalPolicyClass[] =
    "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity."
    "ProportionalCapacityPreemptionPolicy";
inline constexpr char kPreemptionPrefix[] = "yarn.resourcemanager.monitor.capacity.preemption.";

struct PreemptionOptions {
  // yarn.resourcemanager.scheduler.monitor.enable. Default: false.
  bool enabled = false;
  // ...monitoring_interval: between two runs of the policy. Default: 3000 ms.
  std::chrono::milliseconds monitoring_interval{3000};
  // ...max_wait_before_kill: from the first time a container is marked to
  // the RM killing it. Default: 15000 ms.
  std::chrono::milliseconds max_wait_before_kill{15000};
  // ...total_preemption_per_round: at most this fraction of the cluster is
  // asked back per run. Default: 0.1.
  double total_preemption_per_round = 0.1;
  // ...max_ignored_over_capacity: a queue is preempted from only while it
  // uses more than (1 + this) x its guarantee (the dead zone). Default: 0.1.
  double max_ignored_over_capacity = 0.1;
  // ...natural_termination_factor: the fraction of a queue's excess asked
  // back per run (containers also end on their own). Default: 0.2.
  double natural_termination_factor = 0.2;
  // ...observe_only: run the policy, mark and kill nothing. Default: false.
  bool observe_only = false;
  // yarn.scheduler.capacity.resource-calculator. Default: memory only.
  Calculator calculator = Calculator::kMemory;
  // spindle.compat.hadoop-version: the policy computes as that line's
  // ProportionalCapacityPreemptionPolicy does (proportional_policy.h).
  HadoopLine line = kDefaultHadoopLine;

  // Reads the keys above. InvalidArgument (naming the key) for a value that
  // does not parse, a negative interval or wait, a fraction outside its
  // range, a monitor policy other than ProportionalCapacityPreemptionPolicy
  // while monitors are enabled, or an unsupported option set to true.
  static Result<PreemptionOptions> FromConfiguration(const Configuration& conf);
};

}  // namespace spindle::rm::preemption
