// ElectorZkSettings: how the RM's embedded elector reaches ZooKeeper, read
// from the keys Hadoop's elector service reads (ActiveStandbyElectorBased-
// ElectorService.serviceInit in 3.3, EmbeddedElectorService in 2.6/2.7):
//
//   address   3.3: hadoop.zk.address, else yarn.resourcemanager.zk-address
//             (YarnConfiguration deprecates the second into the first, so
//             either works); 2.6/2.7: yarn.resourcemanager.zk-address.
//             Required: Hadoop's YarnRuntimeException text when missing.
//   timeout   yarn.resourcemanager.zk-timeout-ms (3.3 also hadoop.zk.
//             timeout-ms), default 10000: the session timeout asked.
//   acl       yarn.resourcemanager.zk-acl (3.3 also hadoop.zk.acl), default
//             world:anyone:rwcda, "@file" allowed (RMZKUtils / ZKCurator-
//             Manager.getZKAcls).
//   auth      yarn.resourcemanager.zk-auth (3.3 also hadoop.zk.auth), "@file"
//             allowed.
//   retries   3.3: yarn.resourcemanager.ha.failover-controller.active-
//             standby-elector.zk.retries, else ha.failover-controller.
//             active-standby-elector.zk.op.retries; 2.6/2.7: only the
//             latter. Default 3.
//
// Address, timeout, ACL and auth are the RM's ZooKeeper connection settings
// (rm/zk/zk_connection_settings.h), which the state store reads too.
//
// Thread-safety: values and a pure function.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"
#include "persist/zk/zk_acl.h"
#include "rm/config/configuration.h"
#include "rm/config/hadoop_line.h"

namespace spindle::rm {

struct ElectorZkSettings {
  std::string connect_string;
  std::chrono::milliseconds session_timeout{10000};
  std::vector<zk::ZkAcl> acl;
  std::vector<zk::ZkAuth> auths;
  int max_retries = 3;
};

// InvalidArgument naming the key for a missing address, a bad number, or a
// bad ACL/auth (the parsers' BadAclFormatException / BadAuthFormatException
// texts); IoError for an "@file" that cannot be read.
Result<ElectorZkSettings> ReadElectorZkSettings(const Configuration& conf, HadoopLine line);

}  // namespace spindle::rm
