// ContainerManagementService: ContainerManagementProtocol
// (org.apache.hadoop.yarn.api.ContainerManagementProtocolPB) for every node an
// agent hosts, on one RPC port. Connections must authenticate with an NMToken
// (TOKEN/DIGEST-MD5 only, as on a Java NM); the service is the server's
// TokenSecretProvider and computes NMToken passwords with the keys of the
// node the token names. Calls go to that node's ContainerManager, so one port
// serves a single real node or thousands of simulated ones (whose NodeIds
// differ in host and share the port).
//
// The server listens before the agent knows its nodes (their NodeIds carry
// the port the server bound), so the nodes are handed over once, by Host():
// a call that arrives earlier is told to retry, as one that arrives before a
// node has its registration keys, never that its token is invalid.
//
// Thread-safety: thread-safe; Host() once, from the controlling thread.
#pragma once

#include <atomic>
#include <memory>
#include <unordered_map>

#include "nm_shim/agent/container_manager.h"
#include "nm_shim/agent/node_token_keys.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_service.h"
#include "wire/ipc/token_secret_provider.h"

namespace spindle::nm {

using ipc::kContainerManagementProtocol;

struct HostedNode {
  const NodeTokenKeys* keys = nullptr;
  ContainerManager* containers = nullptr;
};

class ContainerManagementService final : public ipc::TokenSecretProvider {
 public:
  using HostedNodes = std::unordered_map<rm::NodeId, const HostedNode*>;

  // Starts serving the calls for `nodes` (each must outlive the service).
  // CHECKs that it is called once.
  void Host(HostedNodes nodes);

  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override;
  std::unique_ptr<ipc::RpcService> MakeRpcService();

 private:
  // A verified NMToken identifier and the hosted node it names.
  Result<std::pair<NmTokenInfo, const HostedNode*>> Resolve(std::string_view identifier) const;
  // The verified NMToken of a connection and the node it names.
  Result<std::pair<NmTokenInfo, const HostedNode*>> Caller(
      const ipc::ConnectionIdentity& who) const;

  HostedNodes nodes_;  // written once by Host(), before hosting_ is set
  std::atomic<bool> hosting_{false};
};

}  // namespace spindle::nm
