#include "am_protocol/admin_service/admin_service.h"

#include <glog/logging.h>

#include "rm/yarn_exceptions.h"
#include "yarn_server_resourcemanager_service_protos.pb.h"

namespace spindle::am_protocol {

namespace y = hadoop::yarn;

namespace {
using AdminCheck = std::function<Status(const ipc::ConnectionIdentity&, const std::string&)>;

// Registers an ACL-checked method whose work is `action(request)`.
template <typename Req, typename Resp>
void AddAdminRequestMethod(ipc::RpcService* service, const std::string& name, AdminCheck check,
                           std::function<Status(const Req&)> action) {
  service->AddMethod<Req, Resp>(
      name, [check, action, name](const ipc::ConnectionIdentity& who, const Req& request, Resp*) {
        RETURN_NOT_OK(check(who, name));
        Status s = action(request);
        if (s.ok()) {
          LOG(INFO) << "admin " << who.user << " called " << name;
        } else {
          LOG(WARNING) << "admin " << who.user << " called " << name << ": " << s.ToString();
        }
        return s;
      });
}

// Registers an ACL-checked method whose work is `action()`.
template <typename Req, typename Resp>
void AddAdminMethod(ipc::RpcService* service, const std::string& name, AdminCheck check,
                    std::function<Status()> action) {
  AddAdminRequestMethod<Req, Resp>(service, name, std::move(check),
                                   [action](const Req&) { return action(); });
}

// AddToClusterNodeLabelsRequestPBImpl (3.3): the NodeLabelProto list, or
// when it is empty the names of a 2.6/2.7 client, exclusive.
std::vector<rm::ClusterNodeLabel> LabelsOf(const y::AddToClusterNodeLabelsRequestProto& request) {
  std::vector<rm::ClusterNodeLabel> labels;
  for (const auto& label : request.nodelabels()) {
    labels.push_back({label.name(), label.isexclusive()});
  }
  if (labels.empty()) {
    for (const auto& name : request.deprecatednodelabels()) labels.push_back({name, true});
  }
  return labels;
}

std::map<rm::NodeId, std::set<std::string>> NodeToLabelsOf(
    const y::ReplaceLabelsOnNodeRequestProto& request) {
  std::map<rm::NodeId, std::set<std::string>> out;
  for (const auto& entry : request.nodetolabels()) {
    auto& labels = out[rm::NodeId{entry.nodeid().host(), entry.nodeid().port()}];
    labels.insert(entry.nodelabels().begin(), entry.nodelabels().end());
  }
  return out;
}
}  // namespace

Status VerifyAdminAccess(const AdminActions& actions, const std::string& user,
                         const std::string& method, const std::string& daemon_user) {
  if ((!daemon_user.empty() && user == daemon_user) ||
      actions.AdminAcl().IsUserAllowed(user, actions.GroupsOf(user))) {
    return Status::OK();
  }
  LOG(WARNING) << "User " << user << " doesn't have permission to call '" << method << "'";
  return Status::Remote(rm::yarn::kAccessControl,
                        "User " + user + " doesn't have permission to call '" + method + "'",
                        Status::Code::kUnauthorized);
}

Status AdminService::CheckAdmin(const ipc::ConnectionIdentity& who,
                                const std::string& method) const {
  Status allowed = VerifyAdminAccess(*actions_, who.user, method);
  if (allowed.ok()) return allowed;
  // AdminService.checkAcls (2.6 to 3.3): RPCUtil.getRemoteException, a
  // YarnException whose message is the AccessControlException's toString().
  return Status::Remote(rm::yarn::kYarnException,
                        std::string(rm::yarn::kAccessControl) + ": " + allowed.message(),
                        Status::Code::kUnauthorized);
}

std::unique_ptr<ipc::RpcService> AdminService::MakeRpcService() {
  auto service = std::make_unique<ipc::RpcService>(kAdminProtocol);
  auto check = [this](const ipc::ConnectionIdentity& who, const std::string& method) {
    return CheckAdmin(who, method);
  };
  AddAdminMethod<y::RefreshQueuesRequestProto, y::RefreshQueuesResponseProto>(
      service.get(), "refreshQueues", check, [this] { return actions_->RefreshQueues(); });
  AddAdminMethod<y::RefreshNodesRequestProto, y::RefreshNodesResponseProto>(
      service.get(), "refreshNodes", check, [this] { return actions_->RefreshNodes(); });
  AddAdminMethod<y::RefreshAdminAclsRequestProto, y::RefreshAdminAclsResponseProto>(
      service.get(), "refreshAdminAcls", check, [this] { return actions_->RefreshAdminAcls(); });
  AddAdminMethod<y::RefreshUserToGroupsMappingsRequestProto,
                 y::RefreshUserToGroupsMappingsResponseProto>(
      service.get(), "refreshUserToGroupsMappings", check, [this] {
        actions_->RefreshGroups();
        return Status::OK();
      });
  AddAdminMethod<y::RefreshSuperUserGroupsConfigurationRequestProto,
                 y::RefreshSuperUserGroupsConfigurationResponseProto>(
      service.get(), "refreshSuperUserGroupsConfiguration", check,
      [this] { return actions_->RefreshSuperUserGroups(); });
  // AdminService.refreshServiceAcls: "not enabled" before anything else
  // (an IOException through RPCUtil.getRemoteException: a YarnException
  // whose message is its toString()); the admin ACL only from 3.3 on.
  service->AddMethod<y::RefreshServiceAclsRequestProto, y::RefreshServiceAclsResponseProto>(
      "refreshServiceAcls",
      [this](const ipc::ConnectionIdentity& who, const y::RefreshServiceAclsRequestProto&,
             y::RefreshServiceAclsResponseProto*) {
        if (!actions_->ServiceAuthorizationEnabled()) {
          return Status::Remote(rm::yarn::kYarnException,
                                "java.io.IOException: Service Authorization "
                                "(hadoop.security.authorization) not enabled.");
        }
        if (actions_->Line() == rm::HadoopLine::k3_3) {
          RETURN_NOT_OK(CheckAdmin(who, "refreshServiceAcls"));
        }
        Status refreshed = actions_->RefreshServiceAcls();
        LOG(INFO) << "admin " << who.user << " called refreshServiceAcls"
                  << (refreshed.ok() ? std::string() : ": " + refreshed.ToString());
        return refreshed;
      });
  AddAdminRequestMethod<y::AddToClusterNodeLabelsRequestProto,
                        y::AddToClusterNodeLabelsResponseProto>(
      service.get(), "addToClusterNodeLabels", check,
      [this](const y::AddToClusterNodeLabelsRequestProto& request) {
        return actions_->AddToClusterNodeLabels(LabelsOf(request));
      });
  AddAdminRequestMethod<y::RemoveFromClusterNodeLabelsRequestProto,
                        y::RemoveFromClusterNodeLabelsResponseProto>(
      service.get(), "removeFromClusterNodeLabels", check,
      [this](const y::RemoveFromClusterNodeLabelsRequestProto& request) {
        return actions_->RemoveFromClusterNodeLabels(
            {request.nodelabels().begin(), request.nodelabels().end()});
      });
  AddAdminRequestMethod<y::ReplaceLabelsOnNodeRequestProto, y::ReplaceLabelsOnNodeResponseProto>(
      service.get(), "replaceLabelsOnNodes", check,
      [this](const y::ReplaceLabelsOnNodeRequestProto& request) {
        return actions_->ReplaceLabelsOnNodes(NodeToLabelsOf(request),
                                              request.failonunknownnodes());
      });
  service->AddMethod<y::GetGroupsForUserRequestProto, y::GetGroupsForUserResponseProto>(
      "getGroupsForUser",
      [this](const ipc::ConnectionIdentity&, const y::GetGroupsForUserRequestProto& request,
             y::GetGroupsForUserResponseProto* response) {
        for (const auto& group : actions_->GroupsOf(request.user())) response->add_groups(group);
        return Status::OK();
      });
  return service;
}

}  // namespace spindle::am_protocol
