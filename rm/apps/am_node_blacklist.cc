#include "rm/apps/am_node_blacklist.h"

namespace spindle::rm {

bool CountsTowardsAmBlacklisting(int32_t exit_status) {
  switch (exit_status) {
    case 0:     // SUCCESS
    case -100:  // ABORTED
    case -101:  // DISKS_FAILED
    case -102:  // PREEMPTED
    case -103:  // KILLED_EXCEEDED_VMEM
    case -104:  // KILLED_EXCEEDED_PMEM
    case -105:  // KILLED_BY_APPMASTER
    case -106:  // KILLED_BY_RESOURCEMANAGER
    case -107:  // KILLED_AFTER_APP_COMPLETION
      return false;
    default:  // INVALID (-1000) and the command's own failures
      return true;
  }
}

std::vector<pool::NodeId> AmNodeBlacklist::NodesToAvoid(int32_t usable_nodes,
                                                        double disable_threshold) const {
  if (static_cast<double>(nodes_.size()) >= disable_threshold * usable_nodes) return {};
  return {nodes_.begin(), nodes_.end()};
}

}  // namespace spindle::rm
