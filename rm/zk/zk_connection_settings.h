// ZkConnectionSettings: how the RM reaches ZooKeeper, read from the keys
// both of its ZooKeeper clients read -- the state store (ZKRMStateStore:
// RMZKUtils in 2.6, ZKCuratorManager in 3.3) and the embedded elector
// (EmbeddedElectorService / ActiveStandbyElectorBasedElectorService):
//
//   address   2.6 / 2.7: yarn.resourcemanager.zk-address. 3.3:
//             hadoop.zk.address, which 3.3's deprecation table also fills
//             from yarn.resourcemanager.zk-address (the new key wins when
//             both are set).
//   timeout   yarn.resourcemanager.zk-timeout-ms (3.3: hadoop.zk.timeout-ms),
//             default 10000: the session timeout asked; positive.
//   acl       yarn.resourcemanager.zk-acl (3.3: hadoop.zk.acl), default
//             world:anyone:rwcda, "@file" allowed.
//   auth      yarn.resourcemanager.zk-auth (3.3: hadoop.zk.auth), "@file"
//             allowed.
//
// A missing address is not an error here: each client refuses it in its
// own words (ZkKeyFor names the key to mention).
//
// Thread-safety: values and pure functions.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"
#include "persist/zk/zk_acl.h"
#include "rm/config/configuration.h"
#include "rm/config/hadoop_line.h"

namespace spindle::rm {

struct ZkConnectionSettings {
  std::string connect_string;  // empty when not configured
  std::string address_key;     // the key it was read from (ZkKeyFor)
  std::chrono::milliseconds session_timeout{10000};
  std::vector<zk::ZkAcl> acl = {zk::WorldAnyone()};
  std::vector<zk::ZkAuth> auths;
};

// The key holding a ZooKeeper setting on `line`: 3.3's hadoop.zk.* name
// unless only the old yarn.resourcemanager.zk-* one is set; 2.6/2.7 know
// only the old one.
std::string ZkKeyFor(const Configuration& conf, HadoopLine line, const std::string& old_key,
                     const std::string& new_key);

// InvalidArgument naming the file and key for a timeout that is not a
// positive int, or a bad ACL/auth (the parsers' BadAclFormatException /
// BadAuthFormatException texts); IoError for an "@file" that cannot be read.
Result<ZkConnectionSettings> ReadZkConnectionSettings(const Configuration& conf, HadoopLine line);

}  // namespace spindle::rm
