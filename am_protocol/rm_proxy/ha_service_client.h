// HaServiceClient: the caller's side of HAServiceProtocol
// (org.apache.hadoop.ha.HAServiceProtocol on an RM's admin port), as
// Hadoop's HAServiceProtocolClientSideTranslatorPB sends it: getServiceStatus,
// monitorHealth, transitionToActive / transitionToStandby with the request
// source (StateChangeRequestInfo). One client for everything in Spindle that
// asks an RM about its HA state: `spindle rmadmin`, ActiveRmFinder (the
// standby web app's search for the active) and the HA tests.
//
// Errors are the RPC's: a Remote status carries the Java exception class the
// RM answered (AccessControlException, ServiceFailedException,
// HealthCheckFailedException, ...); a connection failure is the RpcClient's.
//
// Thread contract: as the RpcClient it is given (thread-safe); the client
// must outlive this object.
#pragma once

#include <string>

#include "am_protocol/admin_service/ha_service.h"
#include "base/result.h"
#include "ha_service_protocol.pb.h"
#include "rm/config/socket_address.h"
#include "wire/ipc/rpc_client.h"

namespace spindle::am_protocol {

// HAServiceState.toString() in Java (3.3): the lower-case names
// "initializing", "active", "standby", "observer" that `yarn rmadmin
// -getServiceState` prints.
const char* HaStateJavaName(hadoop::common::HAServiceStateProto state);

class HaServiceClient {
 public:
  // Calls go out as `user` (SIMPLE authentication), the identity the RM
  // checks against yarn.admin.acl.
  HaServiceClient(ipc::RpcClient* client, std::string user)
      : client_(client), user_(std::move(user)) {}

  Result<hadoop::common::GetServiceStatusResponseProto> GetServiceStatus(
      const rm::SocketAddress& admin) const;
  Status MonitorHealth(const rm::SocketAddress& admin) const;
  Status TransitionToActive(const rm::SocketAddress& admin, HaRequestSource source) const;
  Status TransitionToStandby(const rm::SocketAddress& admin, HaRequestSource source) const;

 private:
  ipc::ConnectionSpec Spec(const rm::SocketAddress& admin) const;

  ipc::RpcClient* const client_;
  const std::string user_;
};

}  // namespace spindle::am_protocol
