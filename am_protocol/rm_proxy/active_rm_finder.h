// ActiveRmFinder: which rm-id is active, as Hadoop's
// RMHAUtils.findActiveRMHAId finds it (read in 2.6.0 and 3.3.0): for each
// rm-id of yarn.resourcemanager.ha.rm-ids in order, HAServiceProtocol
// getServiceStatus on that rm-id's admin address
// (yarn.resourcemanager.admin.address.<id>, or hostname.<id>:8033), with
// ha.failover-controller.cli-check.rpc-timeout.ms (default 20000) as the
// call's timeout; the first that answers ACTIVE. An rm-id that cannot be
// asked, or answers an error, is passed over, as Hadoop swallows the
// exception. The standby's web app asks it where to redirect
// (RMWebApp.getRedirectPath), for the active rm-id's webapp address.
//
// Thread contract: thread-safe; FindActiveRmId blocks for up to one
// timeout per rm-id.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "rm/config/configuration.h"
#include "wire/ipc/rpc_client.h"

namespace spindle::am_protocol {

class ActiveRmFinder {
 public:
  // `conf` as the RM read it (HA on, rm-ids set); `user` is who asks (the
  // RM's own user, as Hadoop's RM asks as its login user). InvalidArgument
  // for a bad timeout value.
  static Result<std::unique_ptr<ActiveRmFinder>> Create(rm::Configuration conf, std::string user);

  // The active rm-id, or nullopt when none answers ACTIVE.
  std::optional<std::string> FindActiveRmId() const;
  // "http://<host>:<port>" of the active rm-id's
  // yarn.resourcemanager.webapp.address, or nullopt (Spindle serves HTTP
  // only, so never https).
  std::optional<std::string> FindActiveWebUrl() const;

 private:
  ActiveRmFinder(rm::Configuration conf, std::string user, ipc::RpcClientOptions options);

  const rm::Configuration conf_;
  const std::string user_;
  const std::vector<std::string> rm_ids_;
  std::unique_ptr<ipc::RpcClient> client_;
};

}  // namespace spindle::am_protocol
