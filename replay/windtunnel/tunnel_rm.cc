#include "replay/windtunnel/tunnel_rm.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>
#include <span>
#include <unordered_set>

#include "glog/logging.h"
#include "rm/yarn_exceptions.h"

namespace spindle::replay {

namespace {

// A simulated NodeManager's port (Hadoop's yarn.nodemanager.address default
// port); hosts are the trace's names.
constexpr int32_t kNmPort = 45454;
constexpr int32_t kNmHttpPort = 8042;
// The tunnel's AMs and nodes never go silent: a replay may run for
// simulated weeks without a heartbeat from a node no task ran on. A year;
// the master keys roll every four (the RM wants more than three times the
// expiry), so that no token of the run is outlived by its key.
constexpr int64_t kYearSecs = int64_t{365} * 24 * 3600;
constexpr int64_t kNeverExpiresMs = kYearSecs * 1000;
constexpr int64_t kKeyRollingSecs = 4 * kYearSecs;

// The cell has no NodeManager processes: every AM is unmanaged, so no AM
// container is ever placed or launched.
class NoAmContainers final : public rm::AmLauncher {
 public:
  void Launch(const rm::AmLaunch& launch, std::function<void(Status)> done) override {
    done(Status::NotSupported("the wind tunnel runs unmanaged AMs only, not " +
                              launch.attempt.ToString()));
  }
  void Cleanup(const rm::AmLaunch& /*launch*/) override {}
};

// The configuration the RM is created with: the caller's, then the keys of
// the options' fields, then what a cell of simulated processes needs.
rm::Configuration RmConfiguration(const TunnelRmOptions& options, const pool::Resource& max) {
  rm::Configuration conf = options.conf;
  conf.Set(rm::kResourceCalculatorKey,
           std::string(rm::ResourceCalculatorClass(options.calculator)));
  conf.Set("yarn.scheduler.minimum-allocation-mb",
           std::to_string(options.min_allocation.memory_mb()));
  conf.Set("yarn.scheduler.minimum-allocation-vcores",
           std::to_string(options.min_allocation.vcores()));
  conf.Set("yarn.scheduler.maximum-allocation-mb", std::to_string(max.memory_mb()));
  conf.Set("yarn.scheduler.maximum-allocation-vcores", std::to_string(max.vcores()));
  // One attempt per job: a simulated AM does not fail.
  conf.Set("yarn.resourcemanager.am.max-attempts", "1");
  conf.Set("yarn.am.liveness-monitor.expiry-interval-ms", std::to_string(kNeverExpiresMs));
  conf.Set("yarn.nm.liveness-monitor.expiry-interval-ms", std::to_string(kNeverExpiresMs));
  for (const char* family : {"am-rm-tokens", "nm-tokens", "container-tokens"}) {
    conf.Set(std::string("yarn.resourcemanager.") + family + ".master-key-rolling-interval-secs",
             std::to_string(kKeyRollingSecs));
  }
  // Finished jobs are only the recorder's business: keep few.
  conf.Set("yarn.resourcemanager.max-completed-applications", "100");
  // No state store: a run is not recovered.
  conf.Set("yarn.resourcemanager.recovery.enabled", "false");
  return conf;
}

}  // namespace

Result<std::unique_ptr<TunnelRm>> TunnelRm::Create(const TunnelRmOptions& options,
                                                   const std::vector<TraceNode>& nodes,
                                                   const std::vector<double>& scores,
                                                   const Clock* clock) {
  if (nodes.empty()) return Status::InvalidArgument("replay: the cluster has no nodes");
  if (!scores.empty() && scores.size() != nodes.size()) {
    return Status::InvalidArgument("replay: node scores are not one per node");
  }
  pool::Resource largest;
  std::unordered_set<std::string> hosts;
  for (const TraceNode& n : nodes) {
    if (n.memory_mb <= 0 || n.vcores <= 0) {
      return Status::InvalidArgument("replay: node " + n.host + " has no resources");
    }
    if (!hosts.insert(n.host).second) {
      return Status::InvalidArgument("replay: node " + n.host + " is listed twice");
    }
    largest = pool::Resource::Of(std::max(largest.memory_mb(), n.memory_mb),
                                 std::max<int64_t>(largest.vcores(), n.vcores));
  }
  pool::PoolOptions pool = options.pool;
  // A small cluster cannot have more partitions than nodes, and parsync
  // wants at least one partition per scheduler.
  const int partitions = static_cast<int>(std::min<size_t>(nodes.size(), 1024));
  pool.num_partitions = std::min(pool.num_partitions, partitions);
  if (pool.mode == pool::SyncMode::kParSync || pool.mode == pool::SyncMode::kSameSync) {
    pool.num_schedulers = std::min(pool.num_schedulers, pool.num_partitions);
  }
  rm::ResourceManagerOptions rm_options;
  rm_options.clock = clock;
  rm_options.launcher_factory = [](const rm::SecretManagers&) {
    return std::make_unique<NoAmContainers>();
  };
  rm_options.node_token_service = [](const rm::NodeId& node) { return node.ToString(); };
  rm_options.pool = pool;
  // The drivers run placement: RunOnce on the virtual clock, Start() when a
  // real-clock run begins.
  rm_options.start_pool_threads = false;
  ASSIGN_OR_RETURN(
      std::unique_ptr<rm::ResourceManager> core,
      rm::ResourceManager::Create(
          RmConfiguration(options, options.max_allocation.value_or(largest)), rm_options));
  RETURN_NOT_OK(core->Start());
  std::unique_ptr<TunnelRm> rm(new TunnelRm(std::move(core)));
  RETURN_NOT_OK(rm->RegisterNodes(nodes, scores));
  // The queues' shares follow the cell's capacity: applied now that every
  // node is in, before the first job, rather than by the RM's housekeeping
  // whenever it next looks (a virtual-clock run must not depend on when).
  RETURN_NOT_OK(rm->rm_->RefreshQueues());
  return rm;
}

TunnelRm::~TunnelRm() { rm_->Stop(); }

Status TunnelRm::RegisterNodes(const std::vector<TraceNode>& nodes,
                               const std::vector<double>& scores) {
  // As NodeManagers register (ResourceTracker.registerNodeManager). The
  // rack is the registration's: the RM keeps it for a host its topology
  // table does not list, and the tunnel's cluster names every node's rack.
  node_ids_.reserve(nodes.size());
  nodes_.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const TraceNode& n = nodes[i];
    rm::NodeRegisterRequest request;
    request.registration.id = rm::NodeId{n.host, kNmPort};
    request.registration.http_port = kNmHttpPort;
    request.registration.capability = pool::Resource::Of(n.memory_mb, n.vcores);
    request.registration.nm_version = "spindle-windtunnel";
    request.registration.rack = n.rack;
    ASSIGN_OR_RETURN(rm::NodeRegisterOutcome outcome, rm_->RegisterNode(request));
    if (outcome.action != rm::NodeAction::kNormal) {
      return Status::InvalidArgument("replay: the RM refused node " + n.host + ": " +
                                     outcome.diagnostics);
    }
    const std::optional<rm::NodeReport> report = rm_->NodeReportOf(request.registration.id);
    if (!report.has_value()) return Status::Internal("replay: node " + n.host + " not registered");
    if (!scores.empty()) RETURN_NOT_OK(rm_->SetNodeScore(request.registration.id, scores[i]));
    node_index_.Add(report->pool_node, i);
    node_ids_.push_back(report->pool_node);
    nodes_.push_back(Node{request.registration.id, 0, true, {}});
    ASSIGN_OR_RETURN(pool::RackId rack, rm_->pool().FindRack(report->info.rack));
    rack_names_.emplace(rack, report->info.rack);
  }
  return Status::OK();
}

Result<Admission> TunnelRm::Admit(const TraceJob& job) {
  Admission out;
  auto refused = [&](const Status& s) {
    out.rejection = s.UserMessage();
    return out;
  };
  // The asks the AM will make, checked up front as allocate checks them:
  // the job is refused before it is submitted rather than failed mid-run.
  std::set<std::pair<int64_t, int32_t>> shapes;
  for (const TraceStage& stage : job.stages) {
    for (const TraceTask& task : stage.tasks) shapes.emplace(task.memory_mb, task.vcores);
  }
  for (const auto& [memory_mb, vcores] : shapes) {
    rm::ResourceRequest ask;
    ask.resource_name = rm::kAnyResourceName;
    ask.capability = pool::Resource::Of(memory_mb, vcores);
    if (Status s = rm_->attempt_allocator().CheckAsk(ask); !s.ok()) return refused(s);
  }
  // Submitted as YarnClient submits an unmanaged AM's app.
  auto id = rm_->NewApplicationId();
  if (!id.ok()) return refused(id.status());
  rm::Submission submission;
  submission.id = *id;
  submission.user = job.user;
  submission.name = job.id;
  submission.queue = job.queue;
  submission.priority = job.priority;
  submission.max_attempts = 1;
  submission.unmanaged_am = true;
  submission.am_resource = pool::Resource::Of(0, 0);
  // The tunnel's users belong to no group: a queue's ACL names them.
  if (Status s = rm_->SubmitToQueue(std::move(submission), {}); !s.ok()) return refused(s);
  ASSIGN_OR_RETURN(rm::RmApp app, rm_->ApplicationReport(*id));
  if (app.current_attempt() == nullptr) {
    // Rejected by the ApplicationManager (an unknown or non-leaf queue): the
    // app ended FAILED with the diagnostic a client polling it reads.
    return refused(Status::Remote(rm::yarn::kYarnException, app.diagnostics.empty()
                                                                ? "application not accepted"
                                                                : app.diagnostics));
  }
  // The AM's process is this one: it registers at once.
  const rm::ApplicationAttemptId attempt = app.current_attempt()->id;
  if (auto registered = rm_->attempt_allocator().Register(attempt, "spindle-replay", 0, "");
      !registered.ok()) {
    return refused(registered.status());
  }
  AdmittedJob admitted;
  admitted.attempt = attempt;
  ASSIGN_OR_RETURN(admitted.scheduler, rm_->SchedulerOf(attempt));
  {
    MutexLock lock(&mu_);
    admitted.am = next_am_++;
    ams_.emplace(admitted.am, Am{attempt, 0, {}});
  }
  out.job = admitted;
  return out;
}

Status TunnelRm::Allocate(Am* am, rm::AllocateRequest request) {
  request.response_id = am->response_id;
  ASSIGN_OR_RETURN(std::shared_ptr<const rm::AllocateResponse> response,
                   rm_->attempt_allocator().Allocate(am->attempt, request));
  if (response == nullptr) return Status::Internal("replay: allocate gave no answer");
  am->response_id = response->response_id;
  if (response->allocated.empty()) return Status::OK();
  MutexLock lock(&mu_);
  for (const rm::AllocatedContainer& c : response->allocated) {
    const std::optional<size_t> node = node_index_.Find(c.placement.node);
    if (!node.has_value()) return Status::Internal("replay: a container on no known node");
    containers_.emplace(c.placement.id, Container{c.id, *node});
    am->handed_out.push_back(c.placement);
  }
  return Status::OK();
}

TunnelRm::Am* TunnelRm::FindAm(const AdmittedJob& job) {
  MutexLock lock(&mu_);
  auto it = ams_.find(job.am);
  return it == ams_.end() ? nullptr : &it->second;
}

Status TunnelRm::SetAsks(const AdmittedJob& job, const std::vector<pool::Ask>& asks) {
  Am* am = FindAm(job);
  if (am == nullptr) return Status::NotFound("replay: no AM " + job.attempt.ToString());
  rm::AllocateRequest request;
  size_t rows = 0;
  for (const pool::Ask& ask : asks) rows += 1 + ask.nodes.size() + ask.racks.size();
  request.asks.reserve(rows);
  for (const pool::Ask& ask : asks) {
    rm::ResourceRequest row;
    row.priority = ask.priority;
    row.allocation_request_id = ask.allocation_request_id;
    row.capability = ask.capability;
    row.count = static_cast<int32_t>(ask.count);
    row.relax_locality = true;
    row.resource_name = rm::kAnyResourceName;
    request.asks.push_back(row);
    for (pool::NodeId node : ask.nodes) {
      const std::optional<size_t> index = node_index_.Find(node);
      if (!index.has_value()) continue;
      row.resource_name = nodes_[*index].id.host;
      request.asks.push_back(row);
    }
    for (pool::RackId rack : ask.racks) {
      auto name = rack_names_.find(rack);
      if (name == rack_names_.end()) continue;
      row.resource_name = name->second;
      request.asks.push_back(row);
    }
  }
  return Allocate(am, std::move(request));
}

Status TunnelRm::TakePlacements(const AdmittedJob& job, std::vector<pool::Placement>* out) {
  Am* am = FindAm(job);
  if (am == nullptr) return Status::NotFound("replay: no AM " + job.attempt.ToString());
  RETURN_NOT_OK(Allocate(am, rm::AllocateRequest()));
  out->insert(out->end(), am->handed_out.begin(), am->handed_out.end());
  am->handed_out.clear();
  return Status::OK();
}

Status TunnelRm::Complete(const std::vector<pool::Placement>& placements) {
  ASSIGN_OR_RETURN(Heartbeats heartbeats, HeartbeatsFor(placements));
  return Send(&heartbeats);
}

Result<TunnelRm::Heartbeats> TunnelRm::HeartbeatsFor(
    const std::vector<pool::Placement>& placements) {
  // The ended containers by node, each node's in the order given: the
  // heartbeats go out in node order, the same in every run. (A sorted
  // vector: a map of vectors cost an allocation per node and per node's
  // list for every batch.)
  std::vector<std::pair<size_t, rm::ContainerId>> ended;
  ended.reserve(placements.size());
  {
    MutexLock lock(&mu_);
    for (const pool::Placement& p : placements) {
      auto it = containers_.find(p.id);
      if (it == containers_.end()) {
        return Status::NotFound("replay: no container for a placement");
      }
      ended.emplace_back(it->second.node, it->second.id);
      containers_.erase(it);
    }
  }
  std::stable_sort(ended.begin(), ended.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  Heartbeats out;
  for (size_t i = 0; i < ended.size();) {
    const size_t index = ended[i].first;
    rm::NodeHeartbeatRequest& request = out.requests.emplace_back();
    request.heartbeat.id = nodes_[index].id;
    request.heartbeat.healthy = nodes_[index].healthy;
    request.heartbeat.health_report = nodes_[index].health_report;
    size_t j = i;
    while (j < ended.size() && ended[j].first == index) ++j;
    request.containers.reserve(j - i);
    for (; i < j; ++i) {
      rm::NodeContainerReport& report = request.containers.emplace_back();
      report.id = ended[i].second;
      report.complete = true;
      report.exit_status = 0;
    }
    out.nodes.push_back(index);
  }
  return out;
}

Status TunnelRm::Send(Heartbeats* heartbeats, size_t per_call) {
  CHECK_GT(per_call, 0u);
  const size_t n = heartbeats->requests.size();
  for (size_t begin = 0; begin < n; begin += per_call) {
    RETURN_NOT_OK(SendHeartbeats(heartbeats, begin, std::min(n, begin + per_call)));
  }
  for (const rm::ApplicationAttemptId& attempt : heartbeats->unregistering) Unregister(attempt);
  return Status::OK();
}

Status TunnelRm::SendHeartbeats(Heartbeats* heartbeats, size_t begin, size_t end) {
  const std::span<rm::NodeHeartbeatRequest> requests =
      std::span(heartbeats->requests).subspan(begin, end - begin);
  for (size_t k = 0; k < requests.size(); ++k) {
    requests[k].heartbeat.response_id = nodes_[heartbeats->nodes[begin + k]].response_id;
  }
  // One lock of each registry, one pool release per call.
  ASSIGN_OR_RETURN(std::vector<rm::NodeHeartbeatOutcome> outcomes, rm_->NodeHeartbeats(requests));
  for (size_t k = 0; k < outcomes.size(); ++k) {
    Node& node = nodes_[heartbeats->nodes[begin + k]];
    if (outcomes[k].action != rm::NodeAction::kNormal) {
      return Status::Internal("replay: the RM told node " + node.id.ToString() +
                              " to stop: " + outcomes[k].diagnostics);
    }
    node.response_id = outcomes[k].response_id;
  }
  return Status::OK();
}

Status TunnelRm::SetNodeHealth(size_t node, bool healthy, const std::string& why) {
  if (node >= nodes_.size())
    return Status::InvalidArgument("replay: no node " + std::to_string(node));
  nodes_[node].healthy = healthy;
  nodes_[node].health_report = healthy ? "" : why;
  Heartbeats heartbeats;
  rm::NodeHeartbeatRequest& request = heartbeats.requests.emplace_back();
  request.heartbeat.id = nodes_[node].id;
  request.heartbeat.healthy = healthy;
  request.heartbeat.health_report = nodes_[node].health_report;
  heartbeats.nodes.push_back(node);
  return Send(&heartbeats);
}

Status TunnelRm::Release(const AdmittedJob& job, const pool::Placement& placement) {
  Am* am = FindAm(job);
  if (am == nullptr) return Status::NotFound("replay: no AM " + job.attempt.ToString());
  rm::AllocateRequest request;
  {
    MutexLock lock(&mu_);
    auto it = containers_.find(placement.id);
    if (it == containers_.end()) return Status::NotFound("replay: no container for a placement");
    request.releases.push_back(it->second.id);
    containers_.erase(it);
  }
  return Allocate(am, std::move(request));
}

void TunnelRm::Finish(const AdmittedJob& job) {
  Forget(job);
  Unregister(job.attempt);
}

void TunnelRm::Forget(const AdmittedJob& job) {
  MutexLock lock(&mu_);
  ams_.erase(job.am);
}

void TunnelRm::Unregister(const rm::ApplicationAttemptId& attempt) {
  auto finished = rm_->attempt_allocator().Finish(attempt, rm::FinalStatus::kSucceeded, "", "");
  if (!finished.ok() || !*finished) {
    LOG(WARNING) << "replay: the AM of " << attempt.ToString() << " could not unregister: "
                 << (finished.ok() ? std::string("not yet") : finished.status().ToString());
  }
}

}  // namespace spindle::replay
