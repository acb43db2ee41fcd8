// AmNodeBlacklist: the nodes an application's AM containers failed on, which
// its later attempts' AM containers avoid (Hadoop 2.8+ / 3.x AM blacklisting,
// yarn.resourcemanager.am-scheduling.node-blacklisting-enabled, off by
// default; Hadoop 2.6 and 2.7 have none).
//  - A node is added when an AM container on it completes with an exit
//    status that is the node's fault or may be (Apps.shouldCountTowardsNode-
//    Blacklisting, 3.3.0): not for SUCCESS, ABORTED (a lost node is gone
//    anyway), PREEMPTED, DISKS_FAILED (the node is already unhealthy), the
//    kills by the AM, the RM or after completion, or memory limits; INVALID
//    and the command's own exit codes count (RMAppAttemptImpl.amContainer-
//    Finished).
//  - The list applies while it is smaller than disable-threshold x the
//    cluster's usable nodes; beyond that it is ignored whole
//    (SimpleBlacklistManager.getBlacklistUpdates).
//
// Thread-safety: a value, guarded by its owner.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "scheduler_pool/ids.h"

namespace spindle::rm {

// Apps.shouldCountTowardsNodeBlacklisting.
bool CountsTowardsAmBlacklisting(int32_t exit_status);

class AmNodeBlacklist {
 public:
  void Add(pool::NodeId node) { nodes_.insert(node); }
  size_t size() const { return nodes_.size(); }

  // The nodes the next AM container must avoid, given the cluster's usable
  // nodes and the disable threshold (a fraction in [0, 1]): all of them, or
  // none once they reach threshold x usable nodes.
  std::vector<pool::NodeId> NodesToAvoid(int32_t usable_nodes, double disable_threshold) const;

 private:
  std::set<pool::NodeId> nodes_;
};

}  // namespace spindle::rm
