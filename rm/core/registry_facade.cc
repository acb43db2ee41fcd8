#include "rm/core/registry_facade.h"

#include "rm/yarn_exceptions.h"

namespace spindle::rm {

namespace {

Status NoTokens() {
  return Status::Remote(yarn::kYarnException, "This ResourceManager issues no delegation tokens");
}

}  // namespace

Result<ApplicationManager*> RegistryFacade::Apps() const {
  if (parts_.apps == nullptr) return Status::Unavailable("no application manager");
  return parts_.apps;
}

const Clock* RegistryFacade::clock() const {
  return parts_.clock != nullptr ? parts_.clock : SystemClock::Get();
}

const GroupMapping& RegistryFacade::groups() const {
  return parts_.groups != nullptr ? *parts_.groups : no_groups_;
}

std::shared_ptr<const QueueTree> RegistryFacade::QueueReport() const {
  return parts_.queues != nullptr ? parts_.queues->Current() : nullptr;
}

int64_t RegistryFacade::ClusterTimestamp() const {
  return parts_.apps != nullptr ? parts_.apps->cluster_timestamp() : 0;
}

// ---- Applications ----

Result<ApplicationId> RegistryFacade::NewApplicationId() {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  return apps->NewApplicationId();
}

Result<pool::Resource> RegistryFacade::MaximumAllocation() const {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  return apps->options().max_allocation;
}

Status RegistryFacade::SubmitApplication(Submission submission) {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  return apps->Submit(std::move(submission));
}

Result<bool> RegistryFacade::KillApplication(const ApplicationId& app,
                                             const std::string& diagnostics) {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  return apps->Kill(app, diagnostics);
}

Status RegistryFacade::MoveApplication(const ApplicationId& app, const std::string& queue,
                                       const std::string& user,
                                       const std::vector<std::string>& groups) {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  const std::shared_ptr<const QueueTree> tree = QueueReport();
  const CsQueue* target = tree != nullptr ? tree->FindLeaf(queue) : nullptr;
  if (target == nullptr || !tree->CanSubmit(*target, user, groups)) {
    // ClientRMService.moveApplicationAcrossQueues (3.3).
    return Status::Remote(yarn::kAccessControl,
                          "User " + user +
                              " cannot submit applications to target queue or the target queue "
                              "doesn't exist: " +
                              queue + " while moving " + app.ToString());
  }
  return apps->Move(app, QueueTree::PoolQueueName(*target),
                    QueueLimits{target->path, target->maximum_applications,
                                target->maximum_applications_per_user});
}

Result<int32_t> RegistryFacade::UpdateApplicationPriority(const ApplicationId& app,
                                                          int32_t priority) {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  return apps->UpdatePriority(app, priority);
}

Result<ApplicationManager::LifetimeUpdate> RegistryFacade::UpdateApplicationLifetime(
    const ApplicationId& app, int64_t expiry_ms) {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  return apps->UpdateLifetime(app, expiry_ms);
}

Status RegistryFacade::FailApplicationAttempt(const ApplicationAttemptId& attempt,
                                              const std::string& diagnostics) {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  return apps->FailAttempt(attempt, diagnostics);
}

Result<NodeId> RegistryFacade::SignalContainer(const ContainerId& container,
                                               SignalCommand command) {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  // The scheduler's live container (the AM's included), and its node.
  std::optional<NodeId> node;
  if (parts_.containers != nullptr) {
    if (auto live = parts_.containers->Get(container); live.has_value()) node = live->node;
  } else if (auto app = apps->GetApp(container.attempt.app); app.ok()) {
    for (const RmAttempt& attempt : app->attempts) {
      if (attempt.am_container.has_value() && attempt.am_container->id == container &&
          !IsFinal(attempt.state)) {
        node = attempt.am_container->node;
      }
    }
  }
  if (!node.has_value()) return Status::NotFound("no live container " + container.ToString());
  ContainerSignal signal;
  signal.container = container;
  signal.command = command;
  apps->container_signals().Queue(*node, signal);
  return *node;
}

// ---- Reports ----

Result<RmApp> RegistryFacade::ApplicationReport(const ApplicationId& app) const {
  ASSIGN_OR_RETURN(ApplicationManager * apps, Apps());
  return apps->GetApp(app);
}

std::vector<RmApp> RegistryFacade::ApplicationReports() const {
  return parts_.apps != nullptr ? parts_.apps->ListApps() : std::vector<RmApp>{};
}

std::vector<RmContainer> RegistryFacade::ContainerReports(
    const ApplicationAttemptId& attempt) const {
  if (parts_.containers != nullptr) return parts_.containers->LiveContainersOf(attempt);
  return {};
}

std::optional<RmContainer> RegistryFacade::ContainerReport(const ContainerId& container) const {
  if (parts_.containers != nullptr) return parts_.containers->Get(container);
  return std::nullopt;
}

ResourceSeconds RegistryFacade::UsageSecondsOf(const ApplicationId& app) const {
  if (parts_.containers != nullptr) return parts_.containers->UsageSecondsOf(app);
  return {};
}

NodeReport RegistryFacade::WithLiveCount(NodeReport report,
                                         const std::map<NodeId, int32_t>& live) const {
  // Like Hadoop's SchedulerNodeReport: what the RM has placed there.
  if (parts_.containers != nullptr) {
    auto count = live.find(report.info.id);
    report.num_containers = count == live.end() ? 0 : count->second;
  }
  return report;
}

std::vector<NodeReport> RegistryFacade::NodeReports() const {
  if (parts_.nodes == nullptr) return {};
  const std::map<NodeId, int32_t> live = parts_.containers != nullptr
                                             ? parts_.containers->LiveCountByNode()
                                             : std::map<NodeId, int32_t>{};
  std::vector<NodeReport> out = parts_.nodes->Nodes();
  for (NodeReport& node : out) node = WithLabels(WithLiveCount(std::move(node), live));
  return out;
}

std::optional<NodeReport> RegistryFacade::NodeReportOf(const NodeId& node) const {
  if (parts_.nodes == nullptr) return std::nullopt;
  std::optional<NodeReport> report = parts_.nodes->Get(node);
  if (!report.has_value()) return report;
  if (parts_.containers == nullptr) return WithLabels(std::move(*report));
  return WithLabels(WithLiveCount(std::move(*report), parts_.containers->LiveCountByNode()));
}

NodeReport RegistryFacade::WithLabels(NodeReport report) const {
  if (parts_.node_labels == nullptr) return report;
  const std::set<std::string> labels = parts_.node_labels->LabelsOf(report.info.id);
  report.labels.assign(labels.begin(), labels.end());
  return report;
}

std::vector<NodeId> RegistryFacade::SchedulableNodes() const {
  std::vector<NodeId> out;
  if (parts_.nodes == nullptr) return out;
  // RMNodeLabelsManager.activateNode/deactivateNode follow the scheduler's
  // node added/removed events: running and decommissioning nodes.
  for (const NodeReport& node : parts_.nodes->Nodes()) {
    if (node.state == NodeState::kRunning || node.state == NodeState::kDecommissioning) {
      out.push_back(node.info.id);
    }
  }
  return out;
}

Result<std::vector<ClusterNodeLabel>> RegistryFacade::ClusterNodeLabels() const {
  if (parts_.node_labels == nullptr) return std::vector<ClusterNodeLabel>{};
  return parts_.node_labels->ClusterLabels();
}

Result<std::map<NodeId, std::set<std::string>>> RegistryFacade::NodeToLabels() const {
  if (parts_.node_labels == nullptr) return std::map<NodeId, std::set<std::string>>{};
  return parts_.node_labels->NodeToLabels(SchedulableNodes());
}

Result<std::map<std::string, std::set<NodeId>>> RegistryFacade::LabelsToNodes(
    const std::set<std::string>& only) const {
  if (parts_.node_labels == nullptr) return std::map<std::string, std::set<NodeId>>{};
  return parts_.node_labels->LabelsToNodes(SchedulableNodes(), only);
}

ClusterNodeCounts RegistryFacade::NodeCounts() const {
  return parts_.nodes != nullptr ? parts_.nodes->Counts() : ClusterNodeCounts{};
}

QueueStatsSnapshot RegistryFacade::QueueStatistics() const {
  const std::shared_ptr<const QueueTree> tree = QueueReport();
  if (tree == nullptr || parts_.nodes == nullptr) return {};
  const std::map<std::string, QueueActivity> activity =
      parts_.apps != nullptr ? parts_.apps->ActivityReport()
                             : std::map<std::string, QueueActivity>();
  QueueStatsSnapshot snapshot = SnapshotQueueStats(*tree, ApplicationReports(), *parts_.nodes,
                                                   parts_.pool, parts_.containers, &activity);
  snapshot.tree = tree;
  // Both are 3.3's QueueMetrics (CSQueueMetrics) figures.
  snapshot.am_metrics = parts_.queue_preemption_metrics;
  if (parts_.queue_preemption_metrics && snapshot.stats.size() == tree->queues().size()) {
    const std::map<std::string, ResourceSeconds> by_leaf =
        parts_.preemption != nullptr ? parts_.preemption->PreemptedByQueue()
                                     : std::map<std::string, ResourceSeconds>();
    for (size_t i = 0; i < snapshot.stats.size(); ++i) snapshot.stats[i].preempted.emplace();
    // QueueMetrics.preemptContainer and its kin add to every ancestor:
    // children follow their parent, so walk backwards.
    for (size_t i = snapshot.stats.size(); i-- > 0;) {
      ResourceSeconds& mine = *snapshot.stats[i].preempted;
      if (auto it = by_leaf.find(tree->queues()[i].path); it != by_leaf.end()) {
        mine = it->second;
      }
      const int parent = tree->queues()[i].parent;
      if (parent < 0) continue;
      AddPreemptionFigures(&*snapshot.stats[static_cast<size_t>(parent)].preempted, mine);
    }
  }
  if (parts_.apps != nullptr) {
    for (size_t i = 0; i < tree->queues().size() && i < snapshot.stats.size(); ++i) {
      const CsQueue& queue = tree->queues()[i];
      snapshot.stats[i].state = parts_.apps->QueueStateOf(queue);
      if (!queue.is_leaf()) continue;
      QueueStats& stats = snapshot.stats[i];
      stats.am = parts_.apps->AmReport(QueueTree::PoolQueueName(queue));
      if (!stats.am->limited) continue;
      for (const auto& [name, user] : stats.am->users) {
        UserQueueStats& figures = stats.users[name];
        figures.am_used = user.am_used;
        figures.am_limit = user.am_limit;
      }
    }
  }
  return snapshot;
}

ClusterResources RegistryFacade::ClusterResourceReport() const {
  const std::shared_ptr<const QueueTree> tree = QueueReport();
  if (tree == nullptr || parts_.nodes == nullptr) return {};
  return SnapshotClusterResources(*parts_.nodes, *tree, parts_.pool);
}

std::optional<PoolReport> RegistryFacade::PoolStatus() const {
  if (parts_.pool == nullptr) return std::nullopt;
  PoolReport report;
  // The series first (pool_report.h).
  report.series = parts_.pool->Series();
  report.metrics = parts_.pool->Metrics();
  report.since_epoch = clock()->Now() - parts_.pool->epoch();
  report.mode = pool::SyncModeName(parts_.pool->options().mode);
  return report;
}

// ---- Tokens ----

Result<Token> RegistryFacade::AmrmTokenOf(const ApplicationAttemptId& attempt) {
  if (parts_.amrm_tokens == nullptr) {
    return Status::Remote(yarn::kYarnException, "This ResourceManager issues no AMRM tokens");
  }
  return parts_.amrm_tokens->CreateToken(attempt);
}

std::optional<Token> RegistryFacade::ClientToAmTokenOf(const ApplicationAttemptId& attempt,
                                                       const std::string& client) const {
  if (parts_.client_to_am_tokens == nullptr) return std::nullopt;
  return parts_.client_to_am_tokens->CreateToken(attempt, client);
}

Result<Token> RegistryFacade::CreateDelegationToken(std::string_view owner,
                                                    std::string_view renewer,
                                                    std::string_view real_user) {
  if (parts_.delegation_tokens == nullptr) return NoTokens();
  return parts_.delegation_tokens->CreateToken(owner, renewer, real_user);
}

Result<int64_t> RegistryFacade::RenewDelegationToken(const Token& token, std::string_view renewer) {
  if (parts_.delegation_tokens == nullptr) return NoTokens();
  return parts_.delegation_tokens->Renew(token, renewer);
}

Status RegistryFacade::CancelDelegationToken(const Token& token, std::string_view canceller) {
  if (parts_.delegation_tokens == nullptr) return NoTokens();
  return parts_.delegation_tokens->Cancel(token, canceller).status();
}

Result<RmDelegationTokenSecret> RegistryFacade::RetrieveDelegationTokenSecret(
    std::string_view identifier) const {
  if (parts_.delegation_tokens == nullptr) return NoTokens();
  return parts_.delegation_tokens->RetrieveSecret(identifier);
}

}  // namespace spindle::rm
