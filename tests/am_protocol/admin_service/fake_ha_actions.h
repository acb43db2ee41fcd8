// Fakes of what HaService acts on: AdminActions with a settable ACL and
// refresh results, HaTransitions that flip a state.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "am_protocol/admin_service/ha_service.h"

namespace spindle::am_protocol::testing {

class FakeAdmin : public AdminActions {
 public:
  Status RefreshQueues() override {
    ++queue_refreshes;
    return refresh_queues_result;
  }
  Status RefreshNodes() override { return Status::OK(); }
  Status RefreshAdminAcls() override {
    ++acl_refreshes;
    return refresh_acls_result;
  }
  void RefreshGroups() override {}
  Status AddToClusterNodeLabels(std::vector<rm::ClusterNodeLabel>) override { return Status::OK(); }
  Status RemoveFromClusterNodeLabels(const std::vector<std::string>&) override {
    return Status::OK();
  }
  Status ReplaceLabelsOnNodes(const std::map<rm::NodeId, std::set<std::string>>&, bool) override {
    return Status::OK();
  }
  rm::AccessControlList AdminAcl() const override { return rm::AccessControlList::Parse(acl); }
  std::vector<std::string> GroupsOf(const std::string&) const override { return {}; }
  bool ServiceAuthorizationEnabled() const override { return service_authorization; }
  Status RefreshServiceAcls() override {
    ++service_acl_refreshes;
    return Status::OK();
  }
  Status RefreshSuperUserGroups() override {
    ++super_user_refreshes;
    return refresh_super_users_result;
  }
  rm::HadoopLine Line() const override { return line; }

  bool service_authorization = false;
  rm::HadoopLine line = rm::HadoopLine::k3_3;
  int service_acl_refreshes = 0;
  int super_user_refreshes = 0;
  Status refresh_super_users_result;

  std::string acl = "*";
  Status refresh_queues_result;
  Status refresh_acls_result;
  int queue_refreshes = 0;
  int acl_refreshes = 0;
};

class FakeTransitions : public HaTransitions {
 public:
  rm::HaState ha_state() const override { return state; }
  bool ActiveServicesRunning() const override { return services_running; }
  Status TransitionToActive() override {
    ++activations;
    if (!activation_result.ok()) return activation_result;
    state = rm::HaState::kActive;
    return Status::OK();
  }
  Status TransitionToStandby() override {
    state = rm::HaState::kStandby;
    return Status::OK();
  }

  rm::HaState state = rm::HaState::kStandby;
  bool services_running = true;
  Status activation_result;
  int activations = 0;
};

}  // namespace spindle::am_protocol::testing
