#include "rm/core/preemption_monitor.h"

#include <glog/logging.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "rm/core/queue_statistics.h"

namespace spindle::rm {

namespace {

using Micros = std::chrono::microseconds;

Micros Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<Micros>(std::chrono::steady_clock::now() - start);
}

}  // namespace

PreemptionMonitor::PreemptionMonitor(PreemptionMonitorDeps deps) : deps_(std::move(deps)) {
  LOG(INFO) << "preemption monitor: ProportionalCapacityPreemptionPolicy every "
            << deps_.options.monitoring_interval.count() << " ms, max_wait_before_kill "
            << deps_.options.max_wait_before_kill.count() << " ms, total_preemption_per_round "
            << deps_.options.total_preemption_per_round << ", max_ignored_over_capacity "
            << deps_.options.max_ignored_over_capacity << ", natural_termination_factor "
            << deps_.options.natural_termination_factor
            << (deps_.options.observe_only ? ", observe only" : "");
}

void PreemptionMonitor::RunIfDue(TimePoint now) {
  if (last_run_.has_value() && now - *last_run_ < deps_.options.monitoring_interval) return;
  last_run_ = now;
  RunOnce();
}

preemption::PolicyInput PreemptionMonitor::SnapshotInput() const {
  preemption::PolicyInput in;
  const auto tree = deps_.queues->Current();
  const pool::Resource cluster = deps_.pool->cell().Capacity();
  in.cluster = cluster;
  const std::vector<CsQueue>& queues = tree->queues();
  std::unordered_map<std::string, int> leaf_by_name;
  std::unordered_map<uint32_t, int> leaf_by_pool_queue;
  std::unordered_map<int, pool::QueueId> pool_queue_of_leaf;
  in.queues.reserve(queues.size());
  for (size_t i = 0; i < queues.size(); ++i) {
    const CsQueue& q = queues[i];
    preemption::QueueInput qi;
    qi.path = q.path;
    qi.parent = q.parent;
    // Effective min / max resources of a percentage-configured queue:
    // cluster x absolute (maximum) capacity, truncated.
    qi.guaranteed = ScaledResource(cluster, q.absolute_capacity);
    qi.maximum = ScaledResource(cluster, q.absolute_maximum_capacity);
    qi.preemption_disabled = q.preemption_disabled;
    qi.maximum_am_fraction = q.maximum_am_resource_fraction;
    if (q.is_leaf()) {
      leaf_by_name[QueueTree::PoolQueueName(q)] = static_cast<int>(i);
      if (auto id = deps_.pool->FindQueue(QueueTree::PoolQueueName(q)); id.ok()) {
        leaf_by_pool_queue[id->value()] = static_cast<int>(i);
        pool_queue_of_leaf[static_cast<int>(i)] = *id;
      }
    }
    in.queues.push_back(std::move(qi));
  }
  // A leaf uses what its live containers hold. Not the pool's ledger: that
  // also counts what schedulers reserved for a commit that may fail (a
  // starved queue's AM tried on a full node), which would make the policy
  // ask back more than the queue can take. Placements committed but not
  // handed out yet are not counted; their asks still count as demand.
  std::map<ApplicationAttemptId, std::vector<preemption::ContainerInput>> by_attempt;
  // What each user's live containers hold in each leaf (for the user limits
  // in the demand below).
  std::map<std::pair<int, uint32_t>, pool::Resource> user_used;
  // The policy computes the default partition only. 2.7 and 3.3 leave a
  // labelled node's containers out of its usage (ResourceUsage by partition)
  // and its candidates (2.7 isLabeledContainer; 3.3 selects per partition);
  // 2.6's policy knows no labels and counts every container.
  const bool default_partition_only =
      deps_.options.line != HadoopLine::k2_6 && deps_.node_labels != nullptr;
  for (const RmContainer& c : deps_.containers->AllLive()) {
    if (default_partition_only && !deps_.node_labels->PartitionOf(c.node).empty()) continue;
    by_attempt[c.id.attempt].push_back(
        preemption::ContainerInput{c.id, c.placement.resource, c.placement.priority,
                                   c.placement.allocation_request_id, c.is_am});
    if (auto leaf = leaf_by_pool_queue.find(c.placement.queue.value());
        leaf != leaf_by_pool_queue.end()) {
      in.queues[static_cast<size_t>(leaf->second)].used += c.placement.resource;
      user_used[{leaf->second, c.placement.user.value()}] += c.placement.resource;
    }
  }
  // A parent uses what its children use (children follow their parent).
  for (size_t i = queues.size(); i-- > 1;) {
    const int parent = queues[i].parent;
    if (parent >= 0) in.queues[static_cast<size_t>(parent)].used += in.queues[i].used;
  }
  // Applications in FIFO schedule order: priority first, then submission.
  std::vector<RmApp> apps = deps_.apps->ListApps();
  std::sort(apps.begin(), apps.end(), [](const RmApp& a, const RmApp& b) {
    if (a.submission.priority != b.submission.priority) {
      return a.submission.priority > b.submission.priority;
    }
    return a.submission.id < b.submission.id;
  });
  // 2.7 and 3.3 count a user's demand only up to its headroom under the
  // user limit (LeafQueue.getTotalPendingResourcesConsideringUserLimit: per
  // user, max(limit - used, 0), taken down app by app in schedule order);
  // 2.6 counts every active app's pending (getTotalResourcePending).
  const bool user_limited_demand = deps_.options.line != HadoopLine::k2_6;
  std::map<std::pair<int, uint32_t>, pool::Resource> user_headroom;
  const auto demand_within_user_limit = [&](int leaf, const std::string& user_name,
                                            const pool::Resource& pending) {
    auto queue = pool_queue_of_leaf.find(leaf);
    if (!user_limited_demand || queue == pool_queue_of_leaf.end()) return pending;
    const pool::UserId user = deps_.pool->InternUser(user_name);
    const std::pair<int, uint32_t> key{leaf, user.value()};
    auto headroom = user_headroom.find(key);
    if (headroom == user_headroom.end()) {
      // computeUserLimit for a minimum allocation (2.7 passes it as the
      // required resource; 3.3's active-users limit ignores it).
      const pool::Resource limit =
          deps_.pool->queues().User(queue->second, user, deps_.minimum_allocation).limit;
      headroom = user_headroom.emplace(key, (limit - user_used[key]).Max(pool::Resource())).first;
    }
    const pool::Resource counted = headroom->second.Min(pending);
    headroom->second -= counted;
    return counted;
  };
  for (const RmApp& app : apps) {
    const RmAttempt* attempt = app.current_attempt();
    if (attempt == nullptr || IsFinal(app.state)) continue;
    auto leaf = leaf_by_name.find(app.submission.queue);
    if (leaf == leaf_by_name.end()) continue;
    preemption::AppInput ai;
    ai.attempt = attempt->id;
    ai.queue = leaf->second;
    // Demand: the AM container while it waits for a place (an active
    // attempt's AM ask), then the AM's outstanding asks (an unmanaged AM has
    // only those).
    pool::Resource pending;
    if (attempt->state == AttemptState::kScheduled) {
      if (deps_.apps->AmActive(attempt->id)) pending = app.submission.am_resource;
    } else {
      pending = deps_.allocator->PendingAsks(attempt->id);
    }
    in.queues[static_cast<size_t>(leaf->second)].pending +=
        demand_within_user_limit(leaf->second, app.submission.user, pending);
    if (auto it = by_attempt.find(attempt->id); it != by_attempt.end()) {
      ai.containers = std::move(it->second);
    }
    in.apps.push_back(std::move(ai));
  }
  return in;
}

void PreemptionMonitor::RunOnce() {
  const auto started = std::chrono::steady_clock::now();
  const preemption::PolicyInput input = SnapshotInput();
  int64_t live = 0;
  for (const auto& app : input.apps) live += static_cast<int64_t>(app.containers.size());
  const auto policy_started = std::chrono::steady_clock::now();
  const preemption::PolicyOutcome outcome = ComputePreemption(input, deps_.options);
  const Micros policy_time = Since(policy_started);

  const bool line_3 = deps_.options.line == HadoopLine::k3_3;
  const TimePoint now = deps_.clock->Now();
  const auto wait = deps_.options.max_wait_before_kill;
  std::vector<preemption::SelectedContainer> to_kill;
  {
    MutexLock lock(&mu_);
    ++stats_.rounds;
    stats_.last_policy = policy_time;
    stats_.last_containers = live;
    if (!deps_.options.observe_only) {
      for (const preemption::SelectedContainer& s : outcome.selected) {
        auto it = marked_.find(s.container);
        if (it != marked_.end()) {
          const bool due = line_3 ? it->second.at + wait <= now : it->second.at + wait < now;
          if (due) {
            to_kill.push_back(s);
            marked_.erase(it);
            continue;
          }
          // 3.3 told the scheduler already; 2.6 / 2.7 tell it every round.
          if (!line_3) to_announce_[s.attempt].insert(s.container);
          continue;
        }
        marked_.emplace(s.container, Mark{s.attempt, now});
        to_announce_[s.attempt].insert(s.container);
        ++stats_.marked;
      }
      // cleanupStaledPreemptionCandidates.
      for (auto it = marked_.begin(); it != marked_.end();) {
        it = it->second.at + 2 * wait < now ? marked_.erase(it) : std::next(it);
      }
    }
  }
  int64_t killed = 0;
  std::vector<std::pair<std::string, ResourceSeconds>> figures;
  for (const preemption::SelectedContainer& s : to_kill) {
    ResourceSeconds taken;
    auto done = deps_.containers->Preempt(s.container, &taken);
    if (!done.has_value()) continue;  // it ended on its own meanwhile
    ++killed;
    figures.emplace_back(input.queues[static_cast<size_t>(s.queue)].path, taken);
    LOG(INFO) << "preempted " << s.container.ToString() << (done->is_am ? " (AM container)" : "");
    if (done->is_am)
      deps_.apps->OnContainerFinished(done->id, done->exit_status, done->diagnostics);
  }
  MutexLock lock(&mu_);
  stats_.killed += killed;
  for (const auto& [queue, taken] : figures) {
    AddPreemptionFigures(&preempted_by_queue_[queue], taken);
  }
  stats_.last_round = Since(started);
  if (!outcome.selected.empty()) {
    VLOG(1) << "preemption round: " << outcome.selected.size() << " selected, " << killed
            << " killed, " << marked_.size() << " marked, policy " << policy_time.count()
            << " us over " << live << " containers";
  }
}

std::map<std::string, ResourceSeconds> PreemptionMonitor::PreemptedByQueue() const {
  MutexLock lock(&mu_);
  return preempted_by_queue_;
}

std::optional<PreemptionMessage> PreemptionMonitor::TakeMessage(
    const ApplicationAttemptId& attempt) {
  std::set<ContainerId> announced;
  {
    MutexLock lock(&mu_);
    auto it = to_announce_.find(attempt);
    if (it == to_announce_.end()) return std::nullopt;
    announced = std::move(it->second);
    to_announce_.erase(it);
  }
  PreemptionMessage message;
  pool::Resource total;
  for (const ContainerId& id : announced) {
    auto c = deps_.containers->Get(id);
    if (!c.has_value() || !deps_.containers->IsLive(id)) continue;  // ended on its own
    message.contract_containers.push_back(id);
    total += c->placement.resource;
  }
  if (message.contract_containers.empty()) return std::nullopt;
  // One ANY request of the minimum allocation, ceil(total / minimum) of
  // them, in the calculator's terms (FiCaSchedulerApp.getAllocation).
  const preemption::ResourceMath math(deps_.options.calculator, deps_.pool->cell().Capacity());
  ResourceRequest request;
  request.priority = -1;  // Priority.UNDEFINED
  request.resource_name = kAnyResourceName;
  request.capability = deps_.minimum_allocation;
  request.count = static_cast<int32_t>(std::ceil(math.Divide(total, deps_.minimum_allocation)));
  message.contract_requests.push_back(request);
  return message;
}

PreemptionMonitorStats PreemptionMonitor::Stats() const {
  MutexLock lock(&mu_);
  return stats_;
}

}  // namespace spindle::rm
