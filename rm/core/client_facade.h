// ClientFacade: the seam between the RM core and its client-facing front
// ends: the ApplicationClientProtocol service (am_protocol/client_service),
// the REST API, the UI's pool endpoint and the metrics beans (web/). They
// hold a ClientFacade& and call these use-case methods; none reaches into a
// registry, so none holds a pointer that a TransitionToStandby frees.
//
// ResourceManager implements it over its current activation (standby:
// StandbyException or empty answers, as each method says);
// RegistryFacade (registry_facade.h) implements it over one set of active
// objects, which is what ResourceManager delegates to and what tests build
// by hand around registries they drive themselves.
//
// Thread-safety: every method is thread-safe; reports are snapshots
// (values), never references into the core.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "rm/apps/app_manager.h"
#include "rm/apps/container_signals.h"
#include "rm/containers/container_registry.h"
#include "rm/core/cluster_resources.h"
#include "rm/core/ha_state.h"
#include "rm/core/pool_report.h"
#include "rm/core/queue_statistics.h"
#include "rm/nodes/node_labels.h"
#include "rm/nodes/node_registry.h"
#include "rm/queues/group_mapping.h"
#include "rm/queues/queue_tree.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "rm/security/token.h"

namespace spindle::rm {

class ClientFacade {
 public:
  virtual ~ClientFacade() = default;

  // ---- Always on ----
  virtual HaState ha_state() const = 0;
  // OK while active, else Hadoop's StandbyException (rm::yarn::kStandby).
  Status CheckActive() const;
  virtual const Clock* clock() const = 0;
  virtual const GroupMapping& groups() const = 0;
  // The queue tree now in force.
  virtual std::shared_ptr<const QueueTree> QueueReport() const = 0;
  // The first run's start (every application id's prefix): the last
  // activation's while standby, 0 before any.
  virtual int64_t ClusterTimestamp() const = 0;

  // ---- Applications (StandbyException while standby) ----
  virtual Result<ApplicationId> NewApplicationId() = 0;
  // yarn.scheduler.maximum-allocation-*, as getNewApplication reports it.
  virtual Result<pool::Resource> MaximumAllocation() const = 0;
  virtual Status SubmitApplication(Submission submission) = 0;
  virtual Result<bool> KillApplication(const ApplicationId& app,
                                       const std::string& diagnostics) = 0;
  // To the leaf `queue` (full path or leaf name) for `user` in `groups`:
  // AccessControlException (Hadoop 3.3 ClientRMService's message) if the
  // queue does not exist or the user may not submit to it, then as
  // ApplicationManager::Move under that queue's limits.
  virtual Status MoveApplication(const ApplicationId& app, const std::string& queue,
                                 const std::string& user,
                                 const std::vector<std::string>& groups) = 0;
  virtual Result<int32_t> UpdateApplicationPriority(const ApplicationId& app, int32_t priority) = 0;
  virtual Result<ApplicationManager::LifetimeUpdate> UpdateApplicationLifetime(
      const ApplicationId& app, int64_t expiry_ms) = 0;
  virtual Status FailApplicationAttempt(const ApplicationAttemptId& attempt,
                                        const std::string& diagnostics) = 0;
  // Queues `command` for the node of the live container `container` (the
  // AM's included), delivered with that node's next heartbeat. NotFound if
  // the scheduler holds no such container; the node it was queued for.
  virtual Result<NodeId> SignalContainer(const ContainerId& container, SignalCommand command) = 0;

  // ---- Reports (snapshots) ----
  // ApplicationNotFoundException for an unknown app; StandbyException while
  // standby.
  virtual Result<RmApp> ApplicationReport(const ApplicationId& app) const = 0;
  // Empty while standby, as every report below.
  virtual std::vector<RmApp> ApplicationReports() const = 0;
  // The live containers of an attempt (task and AM containers).
  virtual std::vector<RmContainer> ContainerReports(const ApplicationAttemptId& attempt) const = 0;
  virtual std::optional<RmContainer> ContainerReport(const ContainerId& container) const = 0;
  // The resource-seconds of an app's containers so far.
  virtual ResourceSeconds UsageSecondsOf(const ApplicationId& app) const = 0;
  // Every node the RM knows, num_containers being the live containers the
  // RM has placed there (Hadoop's SchedulerNodeReport).
  virtual std::vector<NodeReport> NodeReports() const = 0;
  virtual std::optional<NodeReport> NodeReportOf(const NodeId& node) const = 0;
  virtual ClusterNodeCounts NodeCounts() const = 0;
  // Usage and application counts of every queue of the tree now in force.
  virtual QueueStatsSnapshot QueueStatistics() const = 0;
  virtual ClusterResources ClusterResourceReport() const = 0;
  // The scheduler pool's figures; nullopt while standby.
  virtual std::optional<PoolReport> PoolStatus() const = 0;

  // ---- Node labels (rm/nodes/node_labels.h; StandbyException while
  // standby). Hadoop answers them whether labels are enabled or not (empty
  // when none were added). ----
  // getClusterNodeLabels.
  virtual Result<std::vector<ClusterNodeLabel>> ClusterNodeLabels() const = 0;
  // getNodeToLabels: the nodes (and hosts, as host:0) that carry a label.
  virtual Result<std::map<NodeId, std::set<std::string>>> NodeToLabels() const = 0;
  // getLabelsToNodes: per label (all, or those in `only`), its nodes.
  virtual Result<std::map<std::string, std::set<NodeId>>> LabelsToNodes(
      const std::set<std::string>& only) const = 0;

  // ---- Tokens (StandbyException while standby) ----
  // The AMRMToken of an attempt (an unmanaged AM's owner gets it in the
  // application report).
  virtual Result<Token> AmrmTokenOf(const ApplicationAttemptId& attempt) = 0;
  // Secure mode: a ClientToAMToken of the attempt for `client` (the caller's
  // principal or user name), made with the attempt's registered master key
  // (RMAppAttemptImpl.createClientToken). nullopt with security off, while
  // standby, or while the attempt has no registered key (not yet stored, or
  // ended).
  virtual std::optional<Token> ClientToAmTokenOf(const ApplicationAttemptId& attempt,
                                                 const std::string& client) const = 0;
  // RM delegation tokens, as RmDelegationTokenSecretManager's CreateToken,
  // Renew and Cancel.
  virtual Result<Token> CreateDelegationToken(std::string_view owner, std::string_view renewer,
                                              std::string_view real_user) = 0;
  virtual Result<int64_t> RenewDelegationToken(const Token& token, std::string_view renewer) = 0;
  virtual Status CancelDelegationToken(const Token& token, std::string_view canceller) = 0;
  // The password and owner of a live RM delegation token, for the SASL
  // DIGEST-MD5 server of the client port: non-blocking, no I/O, fit for I/O
  // threads.
  virtual Result<RmDelegationTokenSecret> RetrieveDelegationTokenSecret(
      std::string_view identifier) const = 0;
};

}  // namespace spindle::rm
