// CsQueue: one queue of the CapacityScheduler tree as configured in
// capacity-scheduler.xml (yarn.scheduler.capacity.<queue-path>.*), after
// Hadoop's defaults and inheritance were applied. Plain values; QueueTree
// (queue_tree.h) builds and validates them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rm/queues/access_control_list.h"
#include "scheduler_pool/queue_ledger.h"

namespace spindle::rm {

// QueueState (QueueStateProto: Q_STOPPED = 1, Q_RUNNING = 2).
enum class QueueState : uint8_t { kStopped = 1, kRunning = 2 };
// QueueACL (QueueACLProto: QACL_SUBMIT_APPLICATIONS = 1, QACL_ADMINISTER_QUEUE = 2).
enum class QueueAcl : uint8_t { kSubmitApplications = 1, kAdministerQueue = 2 };

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
  // <path>.ordering-policy of a leaf: fifo (default) or fair.
  pool::QueueOrdering ordering = pool::QueueOrdering::kFifo;
  // <path>.accessible-node-labels. Root: "*"; others: the parent's unless set.
  std::vector<std::string> accessible_node_labels;

  bool is_leaf() const { return children.empty(); }
  bool is_root() const { return parent < 0; }
};

}  // namespace spindle::rm
