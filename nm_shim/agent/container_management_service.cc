#include "nm_shim/agent/container_management_service.h"

#include <glog/logging.h>

#include "rm/security/yarn_id_protos.h"
#include "wire/ipc/error_mapping.h"

namespace spindle::nm {

namespace y = hadoop::yarn;

Result<std::pair<NmTokenInfo, const HostedNode*>> ContainerManagementService::Resolve(
    std::string_view identifier) const {
  auto id = DecodeNmTokenIdentifier(identifier);
  if (!id.ok()) {
    return Status::Remote(java::kInvalidToken, "not an NMToken", Status::Code::kUnauthorized);
  }
  const rm::NodeId node = rm::FromProto(id->nodeid());
  const bool hosting = hosting_.load(std::memory_order_acquire);
  const HostedNode* hosted = nullptr;
  if (hosting) {
    auto it = nodes_.find(node);
    if (it == nodes_.end()) {
      return Status::Remote(
          java::kInvalidToken,
          "NMToken for node " + node.ToString() + " which this agent does not host",
          Status::Code::kUnauthorized);
    }
    hosted = it->second;
  }
  if (hosted == nullptr || !hosted->keys->Ready()) {
    // The RM may hand out tokens for the node (and launch an AM on it) a
    // moment before the node has its registration answer and keys: the
    // client is told to retry (RetriableException through SASL, as Java's
    // Server sends it) rather than that its token is invalid.
    return Status::Remote(
        ipc::java::kRetriableException,
        "NodeManager " + node.ToString() + " has not yet connected with ResourceManager",
        Status::Code::kUnavailable);
  }
  ASSIGN_OR_RETURN(NmTokenInfo info, VerifyNmToken(identifier, node, *hosted->keys));
  return std::make_pair(std::move(info), hosted);
}

void ContainerManagementService::Host(HostedNodes nodes) {
  CHECK(!hosting_.load(std::memory_order_relaxed)) << "the agent's nodes are handed over once";
  nodes_ = std::move(nodes);
  hosting_.store(true, std::memory_order_release);
}

Result<std::pair<NmTokenInfo, const HostedNode*>> ContainerManagementService::Caller(
    const ipc::ConnectionIdentity& who) const {
  if (who.auth_method != ipc::AuthMethod::kToken) {
    return Status::Remote(ipc::java::kAccessControl,
                          "ContainerManagementProtocol needs an NMToken-authenticated connection",
                          Status::Code::kUnauthorized);
  }
  return Resolve(who.token_identifier);
}

Result<ipc::TokenSecret> ContainerManagementService::RetrieveSecret(
    std::string_view identifier) const {
  ASSIGN_OR_RETURN(auto resolved, Resolve(identifier));
  return ipc::TokenSecret{std::move(resolved.first.password), resolved.first.attempt.ToString()};
}

std::unique_ptr<ipc::RpcService> ContainerManagementService::MakeRpcService() {
  auto service = std::make_unique<ipc::RpcService>(kContainerManagementProtocol);
  service->AddMethod<y::StartContainersRequestProto, y::StartContainersResponseProto>(
      "startContainers",
      [this](const ipc::ConnectionIdentity& who, const y::StartContainersRequestProto& request,
             y::StartContainersResponseProto* response) {
        ASSIGN_OR_RETURN(auto caller, Caller(who));
        RETURN_NOT_OK(caller.second->containers->CheckAcceptingNewContainers());
        caller.second->containers->StartContainers(caller.first, request, response);
        return Status::OK();
      });
  service->AddMethod<y::StopContainersRequestProto, y::StopContainersResponseProto>(
      "stopContainers",
      [this](const ipc::ConnectionIdentity& who, const y::StopContainersRequestProto& request,
             y::StopContainersResponseProto* response) {
        ASSIGN_OR_RETURN(auto caller, Caller(who));
        caller.second->containers->StopContainers(caller.first, request, response);
        return Status::OK();
      });
  service->AddMethod<y::GetContainerStatusesRequestProto, y::GetContainerStatusesResponseProto>(
      "getContainerStatuses",
      [this](const ipc::ConnectionIdentity& who, const y::GetContainerStatusesRequestProto& request,
             y::GetContainerStatusesResponseProto* response) {
        ASSIGN_OR_RETURN(auto caller, Caller(who));
        caller.second->containers->GetContainerStatuses(caller.first, request, response);
        return Status::OK();
      });
  return service;
}

}  // namespace spindle::nm
