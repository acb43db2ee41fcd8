// The ZooKeeper state store's settings from the Hadoop configuration, per
// Hadoop line (read in YarnConfiguration, ZKRMStateStore, RMZKUtils (2.6)
// and ZKCuratorManager / ResourceManager.createAndStartZKManager (3.3)):
//
//   address       2.6 / 2.7: yarn.resourcemanager.zk-address. 3.3:
//                 hadoop.zk.address, which 3.3's deprecation table also
//                 fills from yarn.resourcemanager.zk-address (the new key
//                 wins when both are set). Required: a missing address
//                 refuses the start, naming the key.
//   timeout       zk-timeout-ms (3.3: hadoop.zk.timeout-ms), default 10000.
//   retries       zk-num-retries (hadoop.zk.num-retries), default 1000, and
//                 zk-retry-interval-ms (hadoop.zk.retry-interval-ms), default
//                 1000; 2.x with HA on retries every timeout / num-retries
//                 instead (ZKRMStateStore.initInternal).
//   acl, auth     zk-acl (hadoop.zk.acl), default world:anyone:rwcda, and
//                 zk-auth (hadoop.zk.auth), both with "@file" indirection.
//   parent path   yarn.resourcemanager.zk-state-store.parent-path, /rmstore.
//   fencing       yarn.resourcemanager.ha.enabled; the RM's address
//                 (yarn.resourcemanager.address.<ha.id>, else
//                 yarn.resourcemanager.address, else 0.0.0.0:8032) names its
//                 fencing digest; yarn.resourcemanager.zk-state-store.
//                 root-node.acl replaces the default root ACL.
//   split index   3.3 only: yarn.resourcemanager.zk-appid-node.split-index
//                 and zk-delegation-token-node.split-index; a value outside
//                 0..4 is logged and read as 0, as 3.3 does.
//
// Thread-safety: pure function.
#pragma once

#include "base/result.h"
#include "rm/config/configuration.h"
#include "rm/recovery/zk/zk_rm_state_store.h"

namespace spindle::rm {

// InvalidArgument naming the file, key and value at fault, or the missing
// address key.
Result<ZkStoreOptions> ZkStoreOptionsFromConfiguration(const Configuration& conf);

}  // namespace spindle::rm
