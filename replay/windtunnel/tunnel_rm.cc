#include "replay/windtunnel/tunnel_rm.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "glog/logging.h"
#include "rm/yarn_exceptions.h"

namespace spindle::replay {

namespace {

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

// Hadoop's SchedulerUtils.validateResourceRequest (2.6 to 3.3): negative or
// above-maximum memory or vcores reject the request, whatever the resource
// calculator; the message is Hadoop's.
std::optional<std::string> InvalidResource(const TraceTask& t, const pool::Resource& max) {
  if (t.memory_mb < 0 || t.memory_mb > max.memory_mb()) {
    return std::string(rm::yarn::kInvalidResourceRequest) +
           ": Invalid resource request, requested memory < 0, or requested memory > max "
           "configured, requestedMemory=" +
           std::to_string(t.memory_mb) + ", maxMemory=" + std::to_string(max.memory_mb());
  }
  if (t.vcores < 0 || t.vcores > max.vcores()) {
    return std::string(rm::yarn::kInvalidResourceRequest) +
           ": Invalid resource request, requested virtual cores < 0, or requested virtual cores "
           "> max configured, requestedVirtualCores=" +
           std::to_string(t.vcores) + ", maxVirtualCores=" + std::to_string(max.vcores());
  }
  return std::nullopt;
}

}  // namespace

Result<std::unique_ptr<TunnelRm>> TunnelRm::Create(const TunnelRmOptions& options,
                                                   const std::vector<TraceNode>& nodes,
                                                   const std::vector<double>& scores,
                                                   const Clock* clock) {
  if (nodes.empty()) return Status::InvalidArgument("replay: the cluster has no nodes");
  if (options.queues == nullptr) return Status::InvalidArgument("replay: no queue tree");
  if (!scores.empty() && scores.size() != nodes.size()) {
    return Status::InvalidArgument("replay: node scores are not one per node");
  }
  pool::PoolOptions pool = options.pool;
  // A small cluster cannot have more partitions than nodes, and parsync
  // wants at least one partition per scheduler.
  const int partitions = static_cast<int>(std::min<size_t>(nodes.size(), 1024));
  pool.num_partitions = std::min(pool.num_partitions, partitions);
  if (pool.mode == pool::SyncMode::kParSync || pool.mode == pool::SyncMode::kSameSync) {
    pool.num_schedulers = std::min(pool.num_schedulers, pool.num_partitions);
  }
  std::unique_ptr<TunnelRm> rm(new TunnelRm());
  ASSIGN_OR_RETURN(rm->pool_, pool::SchedulerPool::Create(pool, clock));
  rm->queues_ = options.queues;
  pool::Resource largest;
  pool::Resource total;
  std::unordered_set<std::string> hosts;
  rm->node_ids_.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const TraceNode& n = nodes[i];
    if (n.memory_mb <= 0 || n.vcores <= 0) {
      return Status::InvalidArgument("replay: node " + n.host + " has no resources");
    }
    if (!hosts.insert(n.host).second) {
      return Status::InvalidArgument("replay: node " + n.host + " is listed twice");
    }
    const pool::Resource r = pool::Resource::Of(n.memory_mb, n.vcores);
    const double score = scores.empty() ? 1.0 : scores[i];
    ASSIGN_OR_RETURN(pool::NodeId id, rm->pool_->AddNode(pool::NodeSpec{r, n.rack, score}));
    rm->node_ids_.push_back(id);
    largest = pool::Resource::Of(std::max(largest.memory_mb(), r.memory_mb()),
                                 std::max(largest.vcores(), r.vcores()));
    total = total + r;
  }
  const pool::Resource max = options.max_allocation.value_or(largest);
  rm->normalizer_ = rm::ResourceNormalizer(options.calculator, options.min_allocation, max);
  RETURN_NOT_OK(rm->pool_->SetQueues(options.queues->ToQueueSpecs(total)).status());
  rm->containers_ = std::make_unique<rm::ContainerRegistry>(rm->pool_.get(), clock);
  rm->launcher_ = std::make_unique<NoAmContainers>();
  rm->directory_ = std::make_unique<NoNodeManagers>();
  rm::ApplicationManagerOptions am;
  am.min_allocation = options.min_allocation;
  am.max_allocation = max;
  am.max_attempts = 1;
  // Simulated AMs never go silent; a replay may run for simulated days.
  am.am_expiry = std::chrono::hours(24 * 365);
  // Finished jobs are only the recorder's business: keep few.
  am.max_completed_apps = 100;
  rm->apps_ = std::make_unique<rm::ApplicationManager>(am, rm->pool_.get(), rm->containers_.get(),
                                                       rm->launcher_.get(), rm->directory_.get(),
                                                       clock, /*store=*/nullptr);
  return rm;
}

Result<Admission> TunnelRm::Admit(TraceJob* job) {
  Admission out;
  const rm::CsQueue* leaf = queues_->FindLeaf(job->queue);
  if (leaf == nullptr) {
    out.rejection = std::string(rm::yarn::kYarnException) +
                    ": Application submitted to unknown or non-leaf queue " + job->queue;
    return out;
  }
  if (leaf->state != rm::QueueState::kRunning) {
    out.rejection = std::string(rm::yarn::kYarnException) + ": queue " + job->queue + " is STOPPED";
    return out;
  }
  for (TraceStage& stage : job->stages) {
    for (TraceTask& task : stage.tasks) {
      if (auto invalid = InvalidResource(task, normalizer_.maximum())) {
        out.rejection = *std::move(invalid);
        return out;
      }
      const pool::Resource shape =
          normalizer_.Normalize(pool::Resource::Of(task.memory_mb, task.vcores));
      task.memory_mb = shape.memory_mb();
      task.vcores = static_cast<int32_t>(shape.vcores());
    }
  }
  // Submitted to the RM as YarnClient submits an unmanaged AM's app; the
  // AM registers at once (its "process" is this one).
  const std::string& queue_name = rm::QueueTree::PoolQueueName(*leaf);
  auto refused = [&](const Status& s) {
    out.rejection = s.UserMessage();
    return out;
  };
  auto id = apps_->NewApplicationId();
  if (!id.ok()) return refused(id.status());
  rm::Submission submission;
  submission.id = *id;
  submission.user = job->user;
  submission.name = job->id;
  submission.queue = queue_name;
  submission.queue_limits.path = leaf->path;
  submission.priority = job->priority;
  submission.max_attempts = 1;
  submission.unmanaged_am = true;
  submission.am_resource = pool::Resource::Of(0, 0);
  if (Status s = apps_->Submit(std::move(submission)); !s.ok()) return refused(s);
  ASSIGN_OR_RETURN(rm::RmApp app, apps_->GetApp(*id));
  if (app.current_attempt() == nullptr) {
    return refused(Status::InvalidArgument(app.diagnostics.empty() ? "application not accepted"
                                                                   : app.diagnostics));
  }
  AdmittedJob admitted;
  admitted.attempt = app.current_attempt()->id;
  if (Status s = apps_->RegisterAm(admitted.attempt, "spindle-replay", 0, ""); !s.ok()) {
    return refused(s);
  }
  ASSIGN_OR_RETURN(admitted.app, apps_->PoolAppOf(admitted.attempt));
  admitted.scheduler = pool_->SchedulerFor(admitted.app, queue_name);
  out.job = admitted;
  return out;
}

Status TunnelRm::SetAsks(const AdmittedJob& job, std::vector<pool::Ask> asks) {
  return pool_->SetAsks(job.app, std::move(asks));
}

Status TunnelRm::TakePlacements(const AdmittedJob& job, std::vector<pool::Placement>* out) {
  return pool_->TakePlacements(job.app, out);
}

Status TunnelRm::Release(const std::vector<pool::Placement>& placements) {
  if (placements.size() == 1) return pool_->Release(placements.front());
  return pool_->ReleaseBatch(placements);
}

void TunnelRm::Finish(const AdmittedJob& job, const std::string& name) {
  auto finished = apps_->FinishAm(job.attempt, rm::FinalStatus::kSucceeded, "", "");
  if (!finished.ok() || !*finished) {
    LOG(WARNING) << "replay: job " << name << " could not unregister: "
                 << (finished.ok() ? std::string("not yet") : finished.status().ToString());
  }
}

}  // namespace spindle::replay
