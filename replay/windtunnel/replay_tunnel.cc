#include "replay/windtunnel/replay_tunnel.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

#include "glog/logging.h"

namespace spindle::replay {

namespace {

int64_t RoundUp(int64_t v, int64_t unit) {
  if (unit <= 0) return v;
  return (v + unit - 1) / unit * unit;
}

std::string TaskShape(const TraceTask& t) {
  return std::to_string(t.memory_mb) + "MB/" + std::to_string(t.vcores) + "vc";
}

// The RM core's seams toward the wire, for a cell with no NodeManagers:
// every AM is unmanaged, so no AM container is ever placed or launched.
class NoAmContainers final : public rm::AmLauncher {
 public:
  void Launch(const rm::AmLaunch& launch, std::function<void(Status)> done) override {
    done(Status::NotSupported("the wind tunnel runs unmanaged AMs only, not " +
                              launch.attempt.ToString()));
  }
  void Cleanup(const rm::AmLaunch& /*launch*/) override {}
};

class NoNodeManagers final : public rm::NodeDirectory {
 public:
  std::optional<rm::NodeInfo> Find(pool::NodeId /*node*/) const override { return std::nullopt; }
};

}  // namespace

ReplayTunnel::ReplayTunnel(ReplayRecorder* recorder) : recorder_(recorder) {}

Result<std::unique_ptr<ReplayTunnel>> ReplayTunnel::Create(const TunnelSetup& setup,
                                                           const Clock* clock,
                                                           ReplayRecorder* recorder) {
  if (setup.nodes.empty()) return Status::InvalidArgument("replay: the cluster has no nodes");
  if (setup.queues == nullptr) return Status::InvalidArgument("replay: no queue tree");
  pool::PoolOptions options = setup.pool;
  // A small cluster cannot have more partitions than nodes, and parsync
  // wants at least one partition per scheduler.
  const int nodes = static_cast<int>(std::min<size_t>(setup.nodes.size(), 1024));
  options.num_partitions = std::min(options.num_partitions, nodes);
  if (options.mode == pool::SyncMode::kParSync || options.mode == pool::SyncMode::kSameSync) {
    options.num_schedulers = std::min(options.num_schedulers, options.num_partitions);
  }
  std::unique_ptr<ReplayTunnel> t(new ReplayTunnel(recorder));
  ASSIGN_OR_RETURN(t->pool_, pool::SchedulerPool::Create(options, clock));
  t->queues_ = setup.queues;
  t->min_allocation_ = setup.min_allocation;
  pool::Resource largest;
  pool::Resource total;
  for (size_t i = 0; i < setup.nodes.size(); ++i) {
    const TraceNode& n = setup.nodes[i];
    if (n.memory_mb <= 0 || n.vcores <= 0) {
      return Status::InvalidArgument("replay: node " + n.host + " has no resources");
    }
    const pool::Resource r = pool::Resource::Of(n.memory_mb, n.vcores);
    ASSIGN_OR_RETURN(pool::NodeId id, t->pool_->AddNode(pool::NodeSpec{r, n.rack, 1.0}));
    if (!t->node_by_host_.emplace(n.host, id).second) {
      return Status::InvalidArgument("replay: node " + n.host + " is listed twice");
    }
    t->node_index_.emplace(id, static_cast<int64_t>(i));
    if (!t->rack_by_name_.contains(n.rack)) {
      ASSIGN_OR_RETURN(pool::RackId rack, t->pool_->FindRack(n.rack));
      t->rack_by_name_.emplace(n.rack, rack);
    }
    largest = pool::Resource::Of(std::max(largest.memory_mb(), r.memory_mb()),
                                 std::max(largest.vcores(), r.vcores()));
    total = total + r;
  }
  t->max_allocation_ = setup.max_allocation.value_or(largest);
  RETURN_NOT_OK(t->pool_->SetQueues(setup.queues->ToQueueSpecs(total)).status());
  t->containers_ = std::make_unique<rm::ContainerRegistry>(t->pool_.get(), clock);
  t->launcher_ = std::make_unique<NoAmContainers>();
  t->directory_ = std::make_unique<NoNodeManagers>();
  rm::ApplicationManagerOptions am;
  am.min_allocation = setup.min_allocation;
  am.max_allocation = t->max_allocation_;
  am.max_attempts = 1;
  // Simulated AMs never go silent; a replay may run for simulated days.
  am.am_expiry = std::chrono::hours(24 * 365);
  // Finished jobs are only the recorder's business: keep few.
  am.max_completed_apps = 100;
  t->apps_ = std::make_unique<rm::ApplicationManager>(am, t->pool_.get(), t->containers_.get(),
                                                      t->launcher_.get(), t->directory_.get(),
                                                      clock, /*store=*/nullptr);
  t->pending_.resize(static_cast<size_t>(t->pool_->num_schedulers()));
  t->touched_.assign(static_cast<size_t>(t->pool_->num_schedulers()), 0);
  t->origin_ = t->pool_->epoch();
  return t;
}

Status ReplayTunnel::Submit(TraceJob job, Duration now) {
  const auto index = static_cast<int64_t>(jobs_.size());
  jobs_.emplace_back(nullptr);
  recorder_->OnJobSubmitted(index, job.id, job.queue, job.task_count(), now);
  const rm::CsQueue* leaf = queues_->FindLeaf(job.queue);
  if (leaf == nullptr) {
    recorder_->OnJobRejected(
        index, "YarnException: Application submitted to unknown or non-leaf queue " + job.queue,
        now);
    return Status::OK();
  }
  if (leaf->state != rm::QueueState::kRunning) {
    recorder_->OnJobRejected(index, "YarnException: queue " + job.queue + " is STOPPED", now);
    return Status::OK();
  }
  for (TraceStage& stage : job.stages) {
    for (TraceTask& task : stage.tasks) {
      task.memory_mb = RoundUp(std::max<int64_t>(task.memory_mb, min_allocation_.memory_mb()),
                               min_allocation_.memory_mb());
      task.vcores = static_cast<int32_t>(RoundUp(
          std::max<int64_t>(task.vcores, min_allocation_.vcores()), min_allocation_.vcores()));
      if (task.memory_mb > max_allocation_.memory_mb() || task.vcores > max_allocation_.vcores()) {
        recorder_->OnJobRejected(index,
                                 "InvalidResourceRequestException: task of " + TaskShape(task) +
                                     " exceeds the maximum allocation " +
                                     max_allocation_.ToString(),
                                 now);
        return Status::OK();
      }
    }
  }
  // Submitted to the RM as YarnClient submits an unmanaged AM's app; the
  // AM registers at once (its "process" is this one).
  auto run = std::make_unique<JobRun>(std::move(job));
  run->index = index;
  run->arrival = now;
  const std::string& queue_name = rm::QueueTree::PoolQueueName(*leaf);
  auto refused = [&](const Status& s) {
    recorder_->OnJobRejected(index, s.UserMessage(), now);
    return Status::OK();
  };
  auto id = apps_->NewApplicationId();
  if (!id.ok()) return refused(id.status());
  rm::Submission submission;
  submission.id = *id;
  submission.user = run->job.user;
  submission.name = run->job.id;
  submission.queue = queue_name;
  submission.queue_limits.path = leaf->path;
  submission.priority = run->job.priority;
  submission.max_attempts = 1;
  submission.unmanaged_am = true;
  submission.am_resource = pool::Resource::Of(0, 0);
  if (Status s = apps_->Submit(std::move(submission)); !s.ok()) return refused(s);
  ASSIGN_OR_RETURN(rm::RmApp app, apps_->GetApp(*id));
  if (app.current_attempt() == nullptr) {
    return refused(Status::InvalidArgument(app.diagnostics.empty() ? "application not accepted"
                                                                   : app.diagnostics));
  }
  run->attempt = app.current_attempt()->id;
  if (Status s = apps_->RegisterAm(run->attempt, "spindle-replay", 0, ""); !s.ok()) {
    return refused(s);
  }
  ASSIGN_OR_RETURN(run->app, apps_->PoolAppOf(run->attempt));
  run->scheduler = pool_->SchedulerFor(run->app, queue_name);
  BuildGroups(run.get());
  JobRun* r = run.get();
  jobs_.back() = std::move(run);
  ++in_flight_;
  if (r->progress.done()) {  // a job of no tasks ends at once
    FinishJob(r, now);
    return Status::OK();
  }
  return AskReady(r, now);
}

void ReplayTunnel::BuildGroups(JobRun* run) {
  using Key =
      std::tuple<int32_t, int64_t, int32_t, std::vector<std::string>, std::vector<std::string>>;
  run->group_of.resize(run->job.stages.size());
  for (size_t s = 0; s < run->job.stages.size(); ++s) {
    TraceStage& stage = run->job.stages[s];
    std::map<Key, int32_t> keys;
    run->group_of[s].resize(stage.tasks.size());
    for (size_t i = 0; i < stage.tasks.size(); ++i) {
      TraceTask& task = stage.tasks[i];
      Key key{stage.priority, task.memory_mb, task.vcores, std::move(task.preferred_nodes),
              std::move(task.preferred_racks)};
      task.preferred_nodes.clear();
      task.preferred_racks.clear();
      auto [it, fresh] = keys.emplace(std::move(key), static_cast<int32_t>(run->groups.size()));
      if (fresh) {
        AskGroup g;
        g.ask.priority = stage.priority;
        g.ask.allocation_request_id = static_cast<int64_t>(run->groups.size());
        g.ask.capability = pool::Resource::Of(task.memory_mb, task.vcores);
        for (const std::string& host : std::get<3>(it->first)) {
          auto n = node_by_host_.find(host);
          if (n == node_by_host_.end()) {
            ++unknown_preferences_;
          } else {
            g.ask.nodes.push_back(n->second);
          }
        }
        for (const std::string& rack : std::get<4>(it->first)) {
          auto r = rack_by_name_.find(rack);
          if (r == rack_by_name_.end()) {
            ++unknown_preferences_;
          } else {
            g.ask.racks.push_back(r->second);
          }
        }
        g.with_preference = !g.ask.nodes.empty() || !g.ask.racks.empty();
        run->groups.push_back(std::move(g));
      }
      run->group_of[s][i] = it->second;
    }
  }
}

Status ReplayTunnel::AskReady(JobRun* run, Duration now) {
  std::vector<TaskRef> ready;
  const int64_t since_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now - run->arrival).count();
  run->progress.TakeReady(since_ms, &ready);
  if (!ready.empty()) {
    for (const TaskRef& t : ready) {
      AskGroup& g = run->groups[static_cast<size_t>(
          run->group_of[static_cast<size_t>(t.stage)][static_cast<size_t>(t.task)])];
      g.waiting.emplace_back(t, now);
      g.dirty = true;
    }
    const auto n = static_cast<int64_t>(ready.size());
    run->waiting += n;
    waiting_ += n;
    recorder_->OnTasksAsked(run->index, n, now);
    std::vector<pool::Ask> asks;
    for (AskGroup& g : run->groups) {
      if (!g.dirty) continue;
      g.dirty = false;
      g.ask.count = static_cast<int64_t>(g.waiting.size());
      asks.push_back(g.ask);
    }
    RETURN_NOT_OK(pool_->SetAsks(run->app, std::move(asks)));
    pending_[static_cast<size_t>(run->scheduler)].emplace(run->index, run);
    touched_[static_cast<size_t>(run->scheduler)] = 1;
  }
  ScheduleOffset(*run);
  return Status::OK();
}

void ReplayTunnel::ScheduleOffset(const JobRun& run) {
  const int64_t next = run.progress.NextOffsetMs();
  if (next >= 0) offsets_.emplace(run.arrival + std::chrono::milliseconds(next), run.index);
}

Status ReplayTunnel::WakeOffsets(Duration now) {
  while (!offsets_.empty() && offsets_.top().first <= now) {
    const int64_t index = offsets_.top().second;
    offsets_.pop();
    JobRun* run = jobs_[static_cast<size_t>(index)].get();
    if (run == nullptr) continue;
    RETURN_NOT_OK(AskReady(run, now));
  }
  return Status::OK();
}

Duration ReplayTunnel::NextOffset() const {
  return offsets_.empty() ? Duration::max() : offsets_.top().first;
}

Result<int64_t> ReplayTunnel::Collect(int scheduler, int64_t expected,
                                      std::optional<Duration> commit_at) {
  auto& pending = pending_[static_cast<size_t>(scheduler)];
  int64_t got = 0;
  for (auto it = pending.begin(); it != pending.end() && got < expected;) {
    JobRun* run = it->second;
    taken_.clear();
    RETURN_NOT_OK(pool_->TakePlacements(run->app, &taken_));
    for (const pool::Placement& p : taken_) {
      ++got;
      const Duration placed = commit_at.value_or(Since(p.committed_at));
      const auto gi = static_cast<size_t>(p.allocation_request_id);
      if (p.allocation_request_id < 0 || gi >= run->groups.size() ||
          run->groups[gi].waiting.empty()) {
        // More than was asked: give it back (an AM releases what it does
        // not need), and count it: this must not happen.
        ++surplus_;
        RETURN_NOT_OK(pool_->Release(p));
        continue;
      }
      AskGroup& g = run->groups[gi];
      const auto [task, asked] = g.waiting.front();
      g.waiting.pop_front();
      --run->waiting;
      --waiting_;
      ++running_;
      const TraceTask& t =
          run->job.stages[static_cast<size_t>(task.stage)].tasks[static_cast<size_t>(task.task)];
      const auto node = node_index_.find(p.node);
      recorder_->OnTaskPlaced(run->index, asked, placed,
                              node == node_index_.end() ? -1 : node->second, p.resource.memory_mb(),
                              p.resource.vcores(), g.with_preference, p.preferred);
      running_tasks_.emplace(placed + std::chrono::milliseconds(t.duration_ms),
                             Running{p, run->index, task});
    }
    if (run->waiting == 0) {
      it = pending.erase(it);
    } else {
      ++it;
    }
  }
  return got;
}

Status ReplayTunnel::ReleaseDue(Duration now) {
  std::vector<Running> due;
  while (!running_tasks_.empty() && running_tasks_.begin()->first <= now) {
    due.push_back(running_tasks_.begin()->second);
    running_tasks_.erase(running_tasks_.begin());
  }
  if (due.empty()) return Status::OK();
  std::vector<pool::Placement> placements;
  placements.reserve(due.size());
  for (const Running& r : due) placements.push_back(r.placement);
  RETURN_NOT_OK(pool_->ReleaseBatch(placements));
  std::set<int64_t> advanced;
  for (const Running& r : due) {
    --running_;
    JobRun* run = jobs_[static_cast<size_t>(r.job)].get();
    CHECK(run != nullptr) << "task of finished job " << r.job;
    recorder_->OnTaskEnded(r.job, now, r.placement.resource.memory_mb(),
                           r.placement.resource.vcores());
    CHECK(run->progress.OnFinished(r.task));
    advanced.insert(r.job);
  }
  for (int64_t index : advanced) {
    JobRun* run = jobs_[static_cast<size_t>(index)].get();
    if (run->progress.done()) {
      FinishJob(run, now);
    } else {
      RETURN_NOT_OK(AskReady(run, now));
    }
  }
  return Status::OK();
}

void ReplayTunnel::FinishJob(JobRun* run, Duration now) {
  // The AM unregisters; the RM finishes the app and takes it out of the pool.
  auto finished = apps_->FinishAm(run->attempt, rm::FinalStatus::kSucceeded, "", "");
  if (!finished.ok() || !*finished) {
    LOG(WARNING) << "replay: job " << run->job.id << " could not unregister: "
                 << (finished.ok() ? std::string("not yet") : finished.status().ToString());
  }
  recorder_->OnJobFinished(run->index, now);
  pending_[static_cast<size_t>(run->scheduler)].erase(run->index);
  --in_flight_;
  jobs_[static_cast<size_t>(run->index)].reset();
}

Duration ReplayTunnel::NextRelease() const {
  return running_tasks_.empty() ? Duration::max() : running_tasks_.begin()->first;
}

void ReplayTunnel::TakeTouched(std::vector<int>* out) {
  for (size_t i = 0; i < touched_.size(); ++i) {
    if (touched_[i]) {
      out->push_back(static_cast<int>(i));
      touched_[i] = 0;
    }
  }
}

}  // namespace spindle::replay
