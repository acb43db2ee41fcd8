// RegistryFacade: ClientFacade over one set of active objects (application
// manager, node and container registries, scheduler pool, queue tree,
// secret managers). The logic of the client-facing use cases lives here:
// ResourceManager builds one over its current activation for each call,
// and tests build one around registries they drive by hand. It is always
// "active": the standby answers are ResourceManager's.
//
// Thread-safety: as the objects it points to (all thread-safe); the
// pointees must outlive it.
#pragma once

#include "rm/core/client_facade.h"
#include "rm/core/preemption_monitor.h"
#include "rm/queues/queue_manager.h"
#include "rm/security/amrm_token_secret_manager.h"
#include "rm/security/client_to_am_token_secret_manager.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm {

struct RegistryFacadeParts {
  // Required, except in a facade that only reports the pool (PoolStatus):
  // without them the methods that need them answer empty or Unavailable.
  ApplicationManager* apps = nullptr;
  const NodeRegistry* nodes = nullptr;
  const QueueManager* queues = nullptr;
  // Optional: queue usage and the pool's figures (zero / none without it).
  const pool::SchedulerPool* pool = nullptr;
  // Optional: live containers and their resource-seconds; without it only
  // AM containers are known (as the application reports hold them).
  const ContainerRegistry* containers = nullptr;
  // Optional: users' groups (none without it).
  const GroupMapping* groups = nullptr;
  // Optional: default the system clock.
  const Clock* clock = nullptr;
  // Optional: without them the token methods answer a YarnException.
  AmrmTokenSecretManager* amrm_tokens = nullptr;
  RmDelegationTokenSecretManager* delegation_tokens = nullptr;
  // Optional (secure mode only): without it no ClientToAMTokens.
  const ClientToAmTokenSecretManager* client_to_am_tokens = nullptr;
  // Optional: without it there are no labels (empty maps, unlabelled nodes).
  const NodeLabels* node_labels = nullptr;
  // The 3.3 line: queue statistics carry the preemption aggregates, from
  // `preemption` (null: the monitor is off, all zero).
  bool queue_preemption_metrics = false;
  const PreemptionMonitor* preemption = nullptr;
};

class RegistryFacade final : public ClientFacade {
 public:
  explicit RegistryFacade(const RegistryFacadeParts& parts) : parts_(parts) {}

  HaState ha_state() const override { return HaState::kActive; }
  const Clock* clock() const override;
  const GroupMapping& groups() const override;
  std::shared_ptr<const QueueTree> QueueReport() const override;
  int64_t ClusterTimestamp() const override;

  Result<ApplicationId> NewApplicationId() override;
  Result<pool::Resource> MaximumAllocation() const override;
  Status SubmitApplication(Submission submission) override;
  Result<bool> KillApplication(const ApplicationId& app, const std::string& diagnostics) override;
  Status MoveApplication(const ApplicationId& app, const std::string& queue,
                         const std::string& user, const std::vector<std::string>& groups) override;
  Result<int32_t> UpdateApplicationPriority(const ApplicationId& app, int32_t priority) override;
  Result<ApplicationManager::LifetimeUpdate> UpdateApplicationLifetime(const ApplicationId& app,
                                                                       int64_t expiry_ms) override;
  Status FailApplicationAttempt(const ApplicationAttemptId& attempt,
                                const std::string& diagnostics) override;
  Result<NodeId> SignalContainer(const ContainerId& container, SignalCommand command) override;

  Result<RmApp> ApplicationReport(const ApplicationId& app) const override;
  std::vector<RmApp> ApplicationReports() const override;
  std::vector<RmContainer> ContainerReports(const ApplicationAttemptId& attempt) const override;
  std::optional<RmContainer> ContainerReport(const ContainerId& container) const override;
  ResourceSeconds UsageSecondsOf(const ApplicationId& app) const override;
  std::vector<NodeReport> NodeReports() const override;
  std::optional<NodeReport> NodeReportOf(const NodeId& node) const override;
  ClusterNodeCounts NodeCounts() const override;
  QueueStatsSnapshot QueueStatistics() const override;
  ClusterResources ClusterResourceReport() const override;
  std::optional<PoolReport> PoolStatus() const override;
  Result<std::vector<ClusterNodeLabel>> ClusterNodeLabels() const override;
  Result<std::map<NodeId, std::set<std::string>>> NodeToLabels() const override;
  Result<std::map<std::string, std::set<NodeId>>> LabelsToNodes(
      const std::set<std::string>& only) const override;

  Result<Token> AmrmTokenOf(const ApplicationAttemptId& attempt) override;
  std::optional<Token> ClientToAmTokenOf(const ApplicationAttemptId& attempt,
                                         const std::string& client) const override;
  Result<Token> CreateDelegationToken(std::string_view owner, std::string_view renewer,
                                      std::string_view real_user) override;
  Result<int64_t> RenewDelegationToken(const Token& token, std::string_view renewer) override;
  Status CancelDelegationToken(const Token& token, std::string_view canceller) override;
  Result<RmDelegationTokenSecret> RetrieveDelegationTokenSecret(
      std::string_view identifier) const override;

 private:
  // apps, or Unavailable.
  Result<ApplicationManager*> Apps() const;
  // The live container count of `node` as NodeReport::num_containers.
  NodeReport WithLiveCount(NodeReport report, const std::map<NodeId, int32_t>& live) const;
  // The node's labels as NodeReport::labels.
  NodeReport WithLabels(NodeReport report) const;
  // The nodes the label manager knows as running.
  std::vector<NodeId> SchedulableNodes() const;

  const RegistryFacadeParts parts_;
  const NoGroupMapping no_groups_;
};

}  // namespace spindle::rm
