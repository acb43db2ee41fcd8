// CsQueue: one queue of the CapacityScheduler tree as configured in
// capacity-scheduler.xml (yarn.scheduler.capacity.<queue-path>.*), after
// Hadoop's defaults and inheritance were applied. Plain values; QueueTree
// (queue_tree.h) builds and validates them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rm/queues/access_control_list.h"
#include "scheduler_pool/queue_ledger.h"

namespace spindle::rm {

// QueueState (QueueStateProto: Q_STOPPED = 1, Q_RUNNING = 2, and in 3.x
// Q_DRAINING = 3). Configuration says RUNNING or STOPPED; DRAINING is a
// run-time state of the 3.3 line (a queue stopped while it still has
// applications; see ApplicationManager::QueueStateOf).
enum class QueueState : uint8_t { kStopped = 1, kRunning = 2, kDraining = 3 };
// QueueACL (QueueACLProto: QACL_SUBMIT_APPLICATIONS = 1, QACL_ADMINISTER_QUEUE = 2).
enum class QueueAcl : uint8_t { kSubmitApplications = 1, kAdministerQueue = 2 };

// A queue's share of one node-label partition (not the default one), from
// <path>.accessible-node-labels.<label>.capacity and .maximum-capacity, as
// fractions (Hadoop's QueueCapacities per label). A label the queue has no
// entry for is all zeros: the queue may not use that partition (it may
// still borrow a non-exclusive partition's idle resources for its
// default-partition asks, which no queue capacity limits).
struct LabelCapacity {
  double capacity = 0;          // of the parent's share of the partition
  double maximum_capacity = 0;  // of the parent's maximum
  // Of the whole partition: products of the ratios along the path.
  double absolute_capacity = 0;
  double absolute_maximum_capacity = 0;
  // Whether the queue has keys for the label (2.7 / 3.3 read only those;
  // every 2.6 entry counts as configured): what 3.3's QueueCapacities and
  // QueueResourceQuotas were set from (CSQueueUtils.
  // loadCapacitiesByLabelsFromConf over getConfiguredNodeLabels), which
  // REST's per-partition answer shows.
  bool configured = false;
};

std::string_view Name(QueueState state);
std::string_view Name(QueueAcl acl);

struct CsQueue {
  // The short name ("default") and the full path ("root.default").
  std::string name;
  std::string path;
  // Indexes into QueueTree::queues(); -1 for root.
  int parent = -1;
  std::vector<int> children;

  // <path>.capacity: percent of the parent's guarantee, 0..100. Default: 0
  // (Hadoop 3's default; root is always 100).
  double capacity = 100;
  // <path>.maximum-capacity: percent of the parent's maximum, 0..100; -1 or
  // unset means 100.
  double maximum_capacity = 100;
  // Fractions of the whole cluster (Hadoop's absoluteCapacity and
  // absoluteMaximumCapacity): products of the ratios along the path.
  double absolute_capacity = 1;
  double absolute_maximum_capacity = 1;

  // <path>.state: RUNNING or STOPPED. Default: the parent's (root: RUNNING).
  QueueState state = QueueState::kRunning;
  // <path>.acl_submit_applications / acl_administer_queue. Default: "*" for
  // root, " " (nobody) below it; a queue also grants what its ancestors grant.
  AccessControlList submit_acl;
  AccessControlList administer_acl;

  // <path>.user-limit-factor. Default: yarn.scheduler.capacity.user-limit-factor, 1.
  double user_limit_factor = 1;
  // <path>.minimum-user-limit-percent, within (0, 100]. Default: 100.
  int32_t minimum_user_limit_percent = 100;
  // <path>.maximum-applications as configured; -1 when unset.
  int32_t configured_maximum_applications = -1;
  // What applies: the configured value, else
  // yarn.scheduler.capacity.global-queue-max-application if > 0, else
  // yarn.scheduler.capacity.maximum-applications (10000) x absolute capacity.
  int32_t maximum_applications = 0;
  // Applications one user may have in the queue: maximum_applications x
  // minimum-user-limit-percent / 100 x user-limit-factor, at most
  // maximum_applications (LeafQueue.maxApplicationsPerUser).
  int32_t maximum_applications_per_user = 0;
  // <path>.maximum-am-resource-percent as a fraction. Default:
  // yarn.scheduler.capacity.maximum-am-resource-percent, 0.1.
  double maximum_am_resource_fraction = 0.1;
  // How a leaf orders its applications. 2.6 / 2.7: kApplicationId, always
  // (those lines have no ordering-policy). 3.3: <path>.ordering-policy,
  // fifo (default, also fifo-with-partitions while no partition is
  // exclusive-enforced) or fair.
  pool::QueueOrdering ordering = pool::QueueOrdering::kFifo;
  // 3.3, fair: <path>.ordering-policy.fair.enable-size-based-weight.
  // Default: false.
  bool fair_size_based_weight = false;
  // 3.3: <path>.user-settings.<user>.weight for this queue and its ancestors
  // (a queue's own setting overrides its parent's), as
  // AbstractCSQueue.getUserWeightsFromHierarchy. Users not named weigh 1.
  // Empty under 2.6 / 2.7, which have no user weights.
  std::map<std::string, float> user_weights;
  // Application lifetimes in seconds, as Hadoop 3.3's AbstractCSQueue
  // derives them (getInheritedMaxAppLifetime / getInheritedDefaultAppLifetime):
  // <path>.maximum-application-lifetime, the parent's when unset or negative
  // (root: as configured; <= 0 means no maximum);
  // <path>.default-application-lifetime, when unset the parent's (if some
  // ancestor configured one and it is within this queue's maximum) else this
  // queue's maximum; finally the maximum whenever it is not positive.
  int64_t maximum_application_lifetime = -1;
  int64_t default_application_lifetime = -1;
  // Whether this queue or an ancestor configured a default lifetime.
  bool default_lifetime_configured = false;
  // Whether the preemption monitor may take this queue's containers: never
  // while yarn.resourcemanager.scheduler.monitor.enable is false; else
  // <path>.disable_preemption, by default the parent's (root: false), as
  // 2.7+ AbstractCSQueue.isQueueHierarchyPreemptionDisabled. 2.6 has no
  // such key (every queue may be preempted from once monitors run).
  bool preemption_disabled = true;
  // <path>.accessible-node-labels. Root: "*"; others: the parent's unless set.
  std::vector<std::string> accessible_node_labels;
  // <path>.default-node-label-expression: the partition of the ANY requests
  // (and AM containers) of its apps that name none. Default: the parent's
  // (root: "", the default partition), as AbstractCSQueue.setupQueueConfigs.
  std::string default_node_label_expression;
  // Capacities per node label (not the default partition, which is
  // capacity / maximum_capacity above). Which labels have an entry follows
  // the line (queue_tree.h): 2.7 / 3.3 every label named anywhere in the
  // file (unconfigured ones: capacity 0, maximum 0), 2.6 the labels the
  // queue may access (unconfigured: capacity 0, maximum 100%).
  std::map<std::string, LabelCapacity, std::less<>> label_capacities;

  // This queue's capacities in `label`'s partition ("" is the default
  // partition); all zeros for a label without an entry.
  LabelCapacity CapacityIn(std::string_view label) const;

  bool is_leaf() const { return children.empty(); }
  bool is_root() const { return parent < 0; }
};

// The lifetime an application submitted to `leaf` gets, in seconds (<= 0:
// none), given the one it asked for (<= 0: none), as Hadoop 3.3's
// CapacityScheduler.checkAndGetApplicationLifetime: the queue's default when
// it asked for none, capped by the queue's maximum when there is one.
int64_t CheckAndGetApplicationLifetime(const CsQueue& leaf, int64_t requested_seconds);

}  // namespace spindle::rm
