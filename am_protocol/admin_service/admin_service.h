// AdminService: ResourceManagerAdministrationProtocol on port 8033 (`yarn
// rmadmin`): refreshQueues, refreshNodes, refreshAdminAcls,
// refreshSuperUserGroupsConfiguration, refreshUserToGroupsMappings,
// refreshServiceAcls, getGroupsForUser and the node-label methods
// (addToClusterNodeLabels, removeFromClusterNodeLabels,
// replaceLabelsOnNodes; 2.6/2.7 clients send label names where 2.8+ send
// NodeLabelProto, both are taken). Every call but getGroupsForUser
// is checked against yarn.admin.acl, as Hadoop's AdminService does, except
// refreshServiceAcls on 2.6/2.7, which checks no admin ACL there (3.3 does);
// refreshServiceAcls first needs hadoop.security.authorization on.
//
// Thread contract: handlers run concurrently; AdminActions must be
// thread-safe.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "rm/config/hadoop_line.h"
#include "rm/nodes/node_labels.h"
#include "rm/queues/access_control_list.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_service.h"

namespace spindle::am_protocol {

using ipc::kAdminProtocol;

// What the admin protocol acts on: implemented by the RM process, which
// knows its configuration files.
class AdminActions {
 public:
  virtual ~AdminActions() = default;
  // Re-reads capacity-scheduler.xml and applies it if valid.
  virtual Status RefreshQueues() = 0;
  // Re-reads the include/exclude host files; excluded nodes are decommissioned.
  virtual Status RefreshNodes() = 0;
  // Re-reads yarn.admin.acl.
  virtual Status RefreshAdminAcls() = 0;
  // Forgets cached group memberships.
  virtual void RefreshGroups() = 0;
  // addToClusterNodeLabels / removeFromClusterNodeLabels /
  // replaceLabelsOnNodes (ResourceManager's node-label methods).
  virtual Status AddToClusterNodeLabels(std::vector<rm::ClusterNodeLabel> labels) = 0;
  virtual Status RemoveFromClusterNodeLabels(const std::vector<std::string>& labels) = 0;
  virtual Status ReplaceLabelsOnNodes(const std::map<rm::NodeId, std::set<std::string>>& labels,
                                      bool fail_on_unknown_nodes) = 0;
  virtual rm::AccessControlList AdminAcl() const = 0;
  virtual std::vector<std::string> GroupsOf(const std::string& user) const = 0;
  // hadoop.security.authorization of the RM's configuration.
  virtual bool ServiceAuthorizationEnabled() const = 0;
  // Re-reads hadoop-policy.xml into the RPC servers' service ACLs.
  virtual Status RefreshServiceAcls() = 0;
  // Re-reads hadoop.proxyuser.* (and yarn.resourcemanager.proxyuser.*).
  virtual Status RefreshSuperUserGroups() = 0;
  // The Hadoop line the RM stands in for (who may refresh service ACLs).
  virtual rm::HadoopLine Line() const = 0;
};

// AccessControlException ("User <user> doesn't have permission to call
// '<method>'", Hadoop's RMServerUtils.verifyAdminAccess, 2.6 to 3.3) unless
// `user` is in yarn.admin.acl or is `daemon_user` (3.3's AdminService adds
// the RM's own user to the list; empty: nobody more).
Status VerifyAdminAccess(const AdminActions& actions, const std::string& user,
                         const std::string& method, const std::string& daemon_user = "");

class AdminService {
 public:
  explicit AdminService(AdminActions* actions) : actions_(actions) {}
  std::unique_ptr<ipc::RpcService> MakeRpcService();

 private:
  // Unless the caller is in yarn.admin.acl: a YarnException wrapping
  // VerifyAdminAccess's AccessControlException, as Java's checkAcls sends it
  // ("org.apache.hadoop.security.AccessControlException: User <user> doesn't
  // have permission to call '<method>'").
  Status CheckAdmin(const ipc::ConnectionIdentity& who, const std::string& method) const;

  AdminActions* const actions_;
};

}  // namespace spindle::am_protocol
