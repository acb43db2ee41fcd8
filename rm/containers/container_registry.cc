#include "rm/containers/container_registry.h"

#include <glog/logging.h>

#include <algorithm>

#include "rm/yarn_exceptions.h"

namespace spindle::rm {

namespace {

// Hadoop's RMAppAttemptMetrics.updateAggregateAppResourceUsage: resource x
// milliseconds, divided down to seconds.
ResourceSeconds SecondsOf(const pool::Resource& r, int64_t millis) {
  millis = std::max<int64_t>(millis, 0);
  ResourceSeconds seconds;
  seconds.memory_seconds = r.memory_mb() * millis / 1000;
  seconds.vcore_seconds = r.vcores() * millis / 1000;
  return seconds;
}

void Accumulate(ResourceSeconds* total, const ResourceSeconds& more) {
  total->memory_seconds += more.memory_seconds;
  total->vcore_seconds += more.vcore_seconds;
}

// RMAppAttemptMetrics.updatePreemptionInfo and
// updateAggregatePreemptedAppResourceUsage for one container.
void AccumulatePreempted(ResourceSeconds* total, const RmContainer& c, int64_t millis) {
  total->preempted += c.placement.resource;
  (c.is_am ? total->num_am_preempted : total->num_non_am_preempted) += 1;
  const ResourceSeconds seconds = SecondsOf(c.placement.resource, millis);
  total->preempted_memory_seconds += seconds.memory_seconds;
  total->preempted_vcore_seconds += seconds.vcore_seconds;
}

}  // namespace

Status ContainerRegistry::Add(const RmContainer& container) {
  MutexLock lock(&mu_);
  return AddLocked(container);
}

std::vector<ContainerId> ContainerRegistry::AddAll(const std::vector<RmContainer>& containers) {
  std::vector<ContainerId> known;
  MutexLock lock(&mu_);
  for (const RmContainer& container : containers) {
    if (!AddLocked(container).ok()) known.push_back(container.id);
  }
  return known;
}

Status ContainerRegistry::AddLocked(const RmContainer& container) {
  auto [it, inserted] = containers_.emplace(container.id, Entry{container, false});
  if (!inserted) {
    return Status::AlreadyExists("container " + container.id.ToString() + " is already known");
  }
  if (it->second.container.created_ms == 0) it->second.container.created_ms = clock_->WallMillis();
  nodes_of_app_[container.id.attempt.app].insert(container.node);
  return Status::OK();
}

std::optional<RmContainer> ContainerRegistry::Get(const ContainerId& id) const {
  MutexLock lock(&mu_);
  auto it = containers_.find(id);
  if (it == containers_.end()) return std::nullopt;
  return it->second.container;
}

std::vector<RmContainer> ContainerRegistry::LiveContainersOf(
    const ApplicationAttemptId& attempt) const {
  MutexLock lock(&mu_);
  std::vector<RmContainer> out;
  // Ids sort by attempt first: the attempt's containers are one range.
  for (auto it = containers_.lower_bound(ContainerId{attempt, INT64_MIN});
       it != containers_.end() && it->first.attempt == attempt; ++it) {
    if (!it->second.completed) out.push_back(it->second.container);
  }
  return out;
}

std::map<NodeId, int32_t> ContainerRegistry::LiveCountByNode() const {
  MutexLock lock(&mu_);
  std::map<NodeId, int32_t> out;
  for (const auto& [id, entry] : containers_) {
    if (!entry.completed) ++out[entry.container.node];
  }
  return out;
}

std::vector<RmContainer> ContainerRegistry::AllLive() const {
  MutexLock lock(&mu_);
  std::vector<RmContainer> out;
  for (const auto& [id, entry] : containers_) {
    if (!entry.completed) out.push_back(entry.container);
  }
  return out;
}

bool ContainerRegistry::IsLive(const ContainerId& id) const {
  MutexLock lock(&mu_);
  auto it = containers_.find(id);
  return it != containers_.end() && !it->second.completed;
}

std::optional<CompletedContainer> ContainerRegistry::Preempt(const ContainerId& id,
                                                             ResourceSeconds* figures) {
  MutexLock lock(&mu_);
  auto it = containers_.find(id);
  if (it == containers_.end() || it->second.completed) return std::nullopt;
  const RmContainer& c = it->second.container;
  ResourceSeconds taken;
  AccumulatePreempted(&taken, c, clock_->WallMillis() - c.created_ms);
  AddPreemptionFigures(&completed_seconds_[id.attempt.app], taken);
  if (figures != nullptr) *figures = taken;
  std::vector<CompletedContainer> out;
  CompleteLocked(it->second, kExitPreempted, kPreemptedContainerDiagnostics, /*kill=*/true, &out);
  return out.front();
}

ResourceSeconds ContainerRegistry::UsageSecondsOf(const ApplicationId& app) const {
  MutexLock lock(&mu_);
  ResourceSeconds total;
  if (auto it = completed_seconds_.find(app); it != completed_seconds_.end()) total = it->second;
  const int64_t now = clock_->WallMillis();
  // Container ids sort by app first: only the app's own range is read.
  for (auto it = containers_.lower_bound(ContainerId{{app, 0}, 0});
       it != containers_.end() && it->first.attempt.app == app; ++it) {
    const Entry& entry = it->second;
    if (entry.completed) continue;
    Accumulate(&total,
               SecondsOf(entry.container.placement.resource, now - entry.container.created_ms));
  }
  return total;
}

void ContainerRegistry::ForgetApplication(const ApplicationId& app) {
  MutexLock lock(&mu_);
  completed_seconds_.erase(app);
}

void ContainerRegistry::MoveApplicationQueue(const ApplicationId& app, pool::QueueId to) {
  MutexLock lock(&mu_);
  for (auto it = containers_.lower_bound(ContainerId{{app, 0}, 0});
       it != containers_.end() && it->first.attempt.app == app; ++it) {
    Entry& entry = it->second;
    if (entry.completed || entry.container.placement.queue == to) continue;
    Status moved = pool_->MoveCharge(&entry.container.placement, to);
    if (!moved.ok()) {
      LOG(WARNING) << "moving " << it->first.ToString()
                   << " to another queue: " << moved.ToString();
    }
  }
}

void ContainerRegistry::CompleteLocked(Entry& entry, int32_t exit_status,
                                       const std::string& diagnostics, bool kill,
                                       std::vector<CompletedContainer>* out,
                                       std::vector<pool::Placement>* freed) {
  if (entry.completed) return;
  entry.completed = true;
  Accumulate(&completed_seconds_[entry.container.id.attempt.app],
             SecondsOf(entry.container.placement.resource,
                       clock_->WallMillis() - entry.container.created_ms));
  if (freed != nullptr) {
    freed->push_back(entry.container.placement);
  } else if (Status released = pool_->Release(entry.container.placement); !released.ok()) {
    LOG(WARNING) << "releasing " << entry.container.id.ToString() << ": " << released.ToString();
  }
  CompletedContainer done{entry.container.id, exit_status, diagnostics, entry.container.is_am};
  undelivered_[entry.container.id.attempt].push_back(done);
  if (kill) node_queues_[entry.container.node].to_cleanup.insert(entry.container.id);
  if (out != nullptr) out->push_back(std::move(done));
}

NodeContainerActions ContainerRegistry::OnNodeReport(
    const NodeId& node, const std::vector<ReportedContainer>& reported) {
  // Released in one batch at the end (a pool call per container woke a
  // scheduler thread per container).
  std::vector<pool::Placement> freed;
  MutexLock lock(&mu_);
  NodeContainerActions actions = OnNodeReportLocked(node, reported, &freed);
  if (Status released = ReleaseFreedLocked(freed); !released.ok()) {
    LOG(WARNING) << "node " << node.ToString() << ": releasing " << freed.size()
                 << " containers: " << released.ToString();
  }
  return actions;
}

std::vector<NodeContainerActions> ContainerRegistry::OnNodeReports(
    std::span<const NodeReportRef> reports) {
  std::vector<NodeContainerActions> out;
  out.reserve(reports.size());
  std::vector<pool::Placement> freed;
  MutexLock lock(&mu_);
  for (const NodeReportRef& report : reports) {
    out.push_back(OnNodeReportLocked(*report.node, *report.reported, &freed));
    const std::vector<CompletedContainer>& completed = out.back().completed;
    if (std::any_of(completed.begin(), completed.end(),
                    [](const CompletedContainer& c) { return c.is_am; })) {
      break;
    }
  }
  if (Status released = ReleaseFreedLocked(freed); !released.ok()) {
    LOG(WARNING) << out.size() << " node reports: releasing " << freed.size()
                 << " containers: " << released.ToString();
  }
  return out;
}

NodeContainerActions ContainerRegistry::OnNodeReportLocked(
    const NodeId& node, const std::vector<ReportedContainer>& reported,
    std::vector<pool::Placement>* freed) {
  NodeContainerActions actions;
  // Hand over what earlier events queued for this node. (Elements of an
  // unordered_map stay put when it grows: `queues` survives the inserts
  // below, of this node's and other nodes' records.)
  auto found = node_queues_.find(node);
  NodeQueues* queues = found == node_queues_.end() ? nullptr : &found->second;
  std::set<ContainerId> cleanup;
  if (queues != nullptr) {
    actions.to_remove_from_nm.assign(queues->to_ack.begin(), queues->to_ack.end());
    queues->to_ack.clear();
    cleanup = std::move(queues->to_cleanup);
    queues->to_cleanup.clear();
  }
  for (const auto& r : reported) {
    auto it = containers_.find(r.id);
    if (it == containers_.end()) {
      // Not ours (or long forgotten): a running one must not keep resources
      // the scheduler thinks are free.
      if (!r.complete) cleanup.insert(r.id);
      continue;
    }
    Entry& entry = it->second;
    if (r.complete) {
      if (!entry.completed) {
        CompleteLocked(entry, r.exit_status, r.diagnostics, /*kill=*/false, &actions.completed,
                       freed);
      }
      // The AM container is acknowledged on the next heartbeat, with what
      // the AM was sent (Hadoop's sendAMContainerToNM); other completions
      // once the AM has them.
      if (entry.container.is_am && !entry.am_acked) {
        entry.am_acked = true;
        if (queues == nullptr) queues = &node_queues_[node];
        queues->to_ack.insert(r.id);
        AckSentToAmLocked(r.id.attempt);
      }
      cleanup.erase(r.id);
    } else if (entry.completed) {
      // Completed by the RM (released, attempt over) but still running there.
      cleanup.insert(r.id);
    }
  }
  actions.to_cleanup.assign(cleanup.begin(), cleanup.end());
  if (queues != nullptr) {
    actions.applications_to_cleanup.assign(queues->apps_to_cleanup.begin(),
                                           queues->apps_to_cleanup.end());
    queues->apps_to_cleanup.clear();
    // What the AM container's ack or an ack of this report queued stays for
    // the next heartbeat.
    if (queues->empty()) node_queues_.erase(node);
  }
  return actions;
}

Status ContainerRegistry::ReleaseFreedLocked(const std::vector<pool::Placement>& freed) {
  return freed.empty() ? Status::OK() : pool_->ReleaseBatch(freed);
}

Status ContainerRegistry::CheckReleasable(const ApplicationAttemptId& attempt,
                                          const ContainerId& id) {
  if (id.attempt.app != attempt.app) {
    return Status::Remote(yarn::kInvalidContainerRelease,
                          "Cannot release container : " + id.ToString() +
                              " not belonging to this application attempt : " + attempt.ToString());
  }
  return Status::OK();
}

Status ContainerRegistry::ReleaseAll(const ApplicationAttemptId& attempt,
                                     const std::vector<ContainerId>& ids) {
  for (const ContainerId& id : ids) RETURN_NOT_OK(CheckReleasable(attempt, id));
  std::vector<pool::Placement> freed;
  MutexLock lock(&mu_);
  for (const ContainerId& id : ids) {
    auto it = containers_.find(id);
    if (it == containers_.end()) {
      LOG(INFO) << attempt.ToString() << " released " << id.ToString()
                << ", which this RM does not know; ignored";
      continue;
    }
    CompleteLocked(it->second, kExitAborted, "Container released by application", /*kill=*/true,
                   nullptr, &freed);
  }
  if (Status released = ReleaseFreedLocked(freed); !released.ok()) {
    LOG(WARNING) << attempt.ToString() << ": releasing " << freed.size()
                 << " containers: " << released.ToString();
  }
  return Status::OK();
}

Status ContainerRegistry::Release(const ApplicationAttemptId& attempt, const ContainerId& id) {
  return ReleaseAll(attempt, {id});
}

std::vector<CompletedContainer> ContainerRegistry::OnNodeLost(const NodeId& node) {
  MutexLock lock(&mu_);
  std::vector<CompletedContainer> out;
  for (auto& [id, entry] : containers_) {
    if (entry.container.node == node && !entry.completed) {
      CompleteLocked(entry, kExitAborted, kLostContainerDiagnostics, /*kill=*/false, &out);
    }
  }
  if (auto it = node_queues_.find(node); it != node_queues_.end()) {
    it->second.to_cleanup.clear();
    it->second.to_ack.clear();
    if (it->second.empty()) node_queues_.erase(it);
  }
  // Nothing to acknowledge to a node that is gone.
  for (auto& [attempt, sent] : sent_to_am_) {
    std::erase_if(sent, [&node](const auto& pair) { return pair.first == node; });
  }
  return out;
}

void ContainerRegistry::OnAttemptEnded(const ApplicationAttemptId& attempt, bool keep_containers) {
  MutexLock lock(&mu_);
  // Container ids sort by attempt first: only the attempt's own range is read
  // (a scan of every container per ended attempt was a quarter of the RM's
  // CPU under `spindle bench wire`).
  for (auto it = containers_.lower_bound(ContainerId{attempt, INT64_MIN});
       it != containers_.end() && it->first.attempt == attempt; ++it) {
    Entry& entry = it->second;
    if (entry.completed) continue;
    if (keep_containers && !entry.container.is_am) continue;
    CompleteLocked(entry, kExitKilledByRm, "Container of a completed application attempt",
                   /*kill=*/true, nullptr);
  }
  undelivered_.erase(attempt);
  AckSentToAmLocked(attempt);
}

void ContainerRegistry::AckSentToAmLocked(const ApplicationAttemptId& attempt) {
  auto it = sent_to_am_.find(attempt);
  if (it == sent_to_am_.end()) return;
  for (const auto& [node, id] : it->second) node_queues_[node].to_ack.insert(id);
  sent_to_am_.erase(it);
}

void ContainerRegistry::OnApplicationFinished(const ApplicationId& app) {
  MutexLock lock(&mu_);
  // Only the nodes the app ran on: a walk of every node per finished app
  // was most of the wind tunnel's RM time at 5,000 nodes.
  if (auto nodes = nodes_of_app_.find(app); nodes != nodes_of_app_.end()) {
    for (const NodeId& node : nodes->second) node_queues_[node].apps_to_cleanup.insert(app);
    nodes_of_app_.erase(nodes);
  }
  // Forget its completed containers; live ones stay until their node reports.
  for (auto it = containers_.lower_bound(ContainerId{{app, 0}, INT64_MIN});
       it != containers_.end() && it->first.attempt.app == app;) {
    if (it->second.completed) {
      it = containers_.erase(it);
    } else {
      ++it;
    }
  }
  // Attempt ids sort by application first: only the app's own range.
  const ApplicationAttemptId first{app, INT32_MIN};
  for (auto it = undelivered_.lower_bound(first);
       it != undelivered_.end() && it->first.app == app;) {
    it = undelivered_.erase(it);
  }
  std::vector<ApplicationAttemptId> sent;
  for (auto it = sent_to_am_.lower_bound(first); it != sent_to_am_.end() && it->first.app == app;
       ++it) {
    sent.push_back(it->first);
  }
  for (const auto& attempt : sent) AckSentToAmLocked(attempt);
}

std::vector<CompletedContainer> ContainerRegistry::TakeCompleted(
    const ApplicationAttemptId& attempt) {
  MutexLock lock(&mu_);
  // A new allocate: the AM has what the previous one sent.
  AckSentToAmLocked(attempt);
  auto it = undelivered_.find(attempt);
  if (it == undelivered_.end()) return {};
  std::vector<CompletedContainer> out = std::move(it->second);
  undelivered_.erase(it);
  auto& sent = sent_to_am_[attempt];
  for (const CompletedContainer& done : out) {
    auto entry = containers_.find(done.id);
    if (!done.is_am && entry != containers_.end()) {
      sent.emplace_back(entry->second.container.node, done.id);
    }
  }
  if (sent.empty()) sent_to_am_.erase(attempt);
  return out;
}

}  // namespace spindle::rm
