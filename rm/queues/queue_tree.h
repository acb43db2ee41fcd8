// QueueTree: the CapacityScheduler queue hierarchy of capacity-scheduler.xml,
// read as Hadoop's CapacitySchedulerConfiguration reads it:
//
//   yarn.scheduler.capacity.root.queues                  children of root
//   yarn.scheduler.capacity.<path>.queues                children (none: a leaf)
//   yarn.scheduler.capacity.<path>.capacity              percent of the parent
//   yarn.scheduler.capacity.<path>.maximum-capacity      percent, -1 = 100
//   yarn.scheduler.capacity.<path>.state                 RUNNING | STOPPED
//   yarn.scheduler.capacity.<path>.acl_submit_applications
//   yarn.scheduler.capacity.<path>.acl_administer_queue
//   yarn.scheduler.capacity.<path>.user-limit-factor
//   yarn.scheduler.capacity.<path>.maximum-applications
//   yarn.scheduler.capacity.<path>.maximum-am-resource-percent
//   yarn.scheduler.capacity.<path>.ordering-policy       fifo | fair (leaves; 3.3)
//   yarn.scheduler.capacity.<path>.ordering-policy.fair.enable-size-based-weight (3.3)
//   yarn.scheduler.capacity.<path>.user-settings.<user>.weight  (3.3; inherited)
//   yarn.scheduler.capacity.<path>.accessible-node-labels
//   yarn.scheduler.capacity.<path>.accessible-node-labels.<label>.capacity
//   yarn.scheduler.capacity.<path>.accessible-node-labels.<label>.maximum-capacity
//                                                        (label_capacities.h)
//
// Validation (each failure is an InvalidArgument naming the file, the key and
// the value): root must have children; queue names are non-empty, without
// '.' or blanks, unique among siblings; capacities are numbers in [0, 100]
// (absolute "[memory=...]" and weight "Nw" forms are refused as unsupported);
// a queue's absolute capacity may not exceed its absolute maximum; the
// capacities of a parent's children sum to 100 (or to 0 under a 0-capacity
// parent) within Hadoop's precision; leaf names are distinct (queues are
// referable by short leaf name or by full path); a RUNNING queue may not sit
// under a STOPPED one; at most pool::QueueLedger::kMaxQueues leaves.
//
// Thread-safety: an immutable value once built; share it freely (QueueManager
// swaps whole trees on refresh).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "rm/config/configuration.h"
#include "rm/config/hadoop_line.h"
#include "rm/queues/queue_config.h"
#include "scheduler_pool/queue_ledger.h"
#include "scheduler_pool/resources.h"

namespace spindle::rm {

// What the pool's user limits are computed with: the scheduler's minimum
// allocation and resource calculator and the Hadoop line whose
// CapacityScheduler formulas apply (scheduler_pool/user_limit.h).
struct UserLimitContext {
  pool::Resource minimum_allocation = pool::Resource::Of(1024, 1);
  pool::LimitCalculator calculator = pool::LimitCalculator::kMemory;
  HadoopLine line = kDefaultHadoopLine;
};

inline constexpr char kCapacitySchedulerPrefix[] = "yarn.scheduler.capacity.";

// A node label of the cluster (not the default partition) and the
// resources of its running nodes (RMNodeLabelsManager.getResourceByLabel).
struct LabelResources {
  std::string name;
  pool::Resource resources;
};

class QueueTree {
 public:
  // Builds and validates the tree from `conf` (capacity-scheduler.xml and
  // whatever else was loaded into it).
  static Result<QueueTree> Parse(const Configuration& conf);

  // refreshQueues: parses `conf` and checks that the result may replace
  // `current`: no queue removed or moved to another path, no leaf turned into
  // a parent nor a parent into a leaf (new queues are fine). `current` is not
  // touched either way.
  static Result<QueueTree> Reload(const QueueTree& current, const Configuration& conf);
  // The check alone.
  Status CheckReplaceableBy(const QueueTree& next) const;

  // Every queue, root first, in depth-first pre-order (children in the order
  // their parent lists them).
  const std::vector<CsQueue>& queues() const { return queues_; }
  const CsQueue& root() const { return queues_.front(); }
  const CsQueue& parent_of(const CsQueue& queue) const {
    return queues_[static_cast<size_t>(queue.parent)];
  }
  std::vector<const CsQueue*> Leaves() const;
  // yarn.scheduler.capacity.user-metrics.enable (default false, every
  // line): whether each queue's metrics keep per-user QueueMetrics
  // (AbstractCSQueue passes it to QueueMetrics.forQueue).
  bool user_metrics_enabled() const { return user_metrics_enabled_; }

  // A queue by full path ("root.a.b") or by short name ("b"). A short name
  // shared by a leaf and a parent means the leaf. nullptr if unknown.
  const CsQueue* Find(std::string_view name) const;
  // A leaf by either name; nullptr if unknown or not a leaf.
  const CsQueue* FindLeaf(std::string_view name) const;

  // Whether `user` (with `groups`) holds `acl` on `queue`: granted by the
  // queue's own ACL or by any ancestor's (Hadoop's hasAccess).
  bool HasAccess(const CsQueue& queue, QueueAcl acl, const std::string& user,
                 const std::vector<std::string>& groups) const;
  // Submission needs SUBMIT_APPLICATIONS or ADMINISTER_QUEUE.
  bool CanSubmit(const CsQueue& queue, const std::string& user,
                 const std::vector<std::string>& groups) const {
    return HasAccess(queue, QueueAcl::kSubmitApplications, user, groups) ||
           HasAccess(queue, QueueAcl::kAdministerQueue, user, groups);
  }

  // The name a leaf has in the scheduler pool: its short name, which is
  // unique among leaves and is what rm::Submission::queue carries.
  static const std::string& PoolQueueName(const CsQueue& leaf) { return leaf.name; }

  // The leaves as scheduler-pool queues for a cluster whose default
  // partition has `cluster` resources and whose other node labels have
  // `labels` (call again, and SetQueues again, when nodes come and go or
  // change labels):
  //   min    = absolute capacity x cluster, rounded down per dimension;
  //   max    = absolute maximum x cluster, rounded down, or unlimited when the
  //            absolute maximum is the whole cluster (so a node that joins
  //            before the next SetQueues is usable at once);
  //   weight = absolute capacity (at least 1e-6), for weighted DRF;
  //   ordering from ordering-policy (2.x: application id order);
  //   user weights (3.3) by user name, for SchedulerPool::SetQueues to intern;
  //   user_limits (enabled) from minimum-user-limit-percent and
  //            user-limit-factor, with the queue's capacity as the line
  //            computes it for users: 2.6 / 2.7 normalise absolute capacity
  //            x cluster up to the minimum allocation
  //            (multiplyAndNormalizeUp: memory rounded to nearest, or each
  //            dimension's ceiling under the dominant calculator); 3.3 takes
  //            the queue's effective minimum resource, truncated per
  //            dimension.
  //   partitions: one PartitionShare per label of `labels`, from the
  //            leaf's absolute capacities for it (label_capacities.h) the
  //            same way, a label without an entry getting nothing; labels
  //            not listed are closed (pool::UnlistedPartitions::kClosed).
  std::vector<pool::QueueSpec> ToQueueSpecs(const pool::Resource& cluster,
                                            const UserLimitContext& users = {},
                                            const std::vector<LabelResources>& labels = {}) const;

 private:
  QueueTree() = default;

  std::vector<CsQueue> queues_;
  bool user_metrics_enabled_ = false;
  std::map<std::string, int, std::less<>> by_path_;
  // Short name -> index; a leaf wins over a parent of the same name.
  std::map<std::string, int, std::less<>> by_name_;
};

}  // namespace spindle::rm
