// StoreFenced: the state store's refusal to write because another
// ResourceManager took it over (Hadoop's StoreFencedException). A store
// that fences (the ZooKeeper store, rm/recovery/zk/) returns it for every
// write once another RM owns the store; the RM that gets it must stop being
// active (go to standby with HA, as RMStateStore.notifyStoreOperationFailed
// does), never retry the write.
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "base/status.h"

namespace spindle::rm {

inline constexpr char kStoreFencedException[] =
    "org.apache.hadoop.yarn.server.resourcemanager.recovery.StoreFencedException";

// The refusal, `detail` saying what was refused and why.
Status StoreFencedStatus(std::string_view detail);
// True for StoreFencedStatus (and for it with context added).
bool IsStoreFenced(const Status& status);

}  // namespace spindle::rm
