// TunnelRm: the wind tunnel's one seam toward the RM core. Every call the
// tunnel makes into rm/ and the scheduler pool goes through here, so that
// moving the tunnel onto the RM's facade (rm::ResourceManager and its
// rm::AttemptAllocator) changes this file and no other:
//  - admission: the queue checks of the RM's queue tree (unknown, non-leaf
//    or STOPPED queue), the resource checks and the normalisation the RM
//    applies to every ask (rm::ResourceNormalizer with the run's resource
//    calculator), then the application submitted to the RM's
//    ApplicationManager with an unmanaged AM, which registers at once;
//  - an attempt's allocate, in pieces: asks (absolute totals), placements
//    taken, containers released;
//  - the AM's unregistration.
// The cluster (nodes, racks, queues) is added to the pool here as well.
//
// Thread-safety: as the RM core's (the pool's own threads may run while
// the tunnel's driver thread calls); one driver thread calls.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "replay/trace/trace.h"
#include "rm/apps/app_manager.h"
#include "rm/containers/container_registry.h"
#include "rm/queues/queue_tree.h"
#include "rm/scheduling/resource_normalizer.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::replay {

struct TunnelRmOptions {
  pool::PoolOptions pool;
  // The RM's queue tree; must outlive the seam.
  const rm::QueueTree* queues = nullptr;
  // yarn.scheduler.capacity.resource-calculator. Default: Hadoop's
  // DefaultResourceCalculator (memory only).
  rm::ResourceCalculator calculator = rm::ResourceCalculator::kDefault;
  // yarn.scheduler.minimum-allocation-*. Default: 1024 MB, 1 vcore.
  pool::Resource min_allocation = pool::Resource::Of(1024, 1);
  // yarn.scheduler.maximum-allocation-*: larger tasks reject their job.
  // Default: none given = the largest node.
  std::optional<pool::Resource> max_allocation;
};

// A job the RM accepted: its attempt, the pool app the RM made for it and
// the scheduler that app is pinned to.
struct AdmittedJob {
  rm::ApplicationAttemptId attempt;
  pool::AppId app;
  int scheduler = 0;
};

// What the RM answered a submission: accepted, or refused with the reason
// a client would read (its exception class first).
struct Admission {
  std::optional<AdmittedJob> job;
  std::string rejection;
};

class TunnelRm {
 public:
  // Adds `nodes` (with `scores`, one per node, or none: all 1) to a new
  // pool on `clock` and sets the queue tree's queues. InvalidArgument for
  // no nodes, a node without resources, a host listed twice, no queue
  // tree, or pool options that do not validate. `clock` must outlive it.
  static Result<std::unique_ptr<TunnelRm>> Create(const TunnelRmOptions& options,
                                                  const std::vector<TraceNode>& nodes,
                                                  const std::vector<double>& scores,
                                                  const Clock* clock);

  pool::SchedulerPool& pool() { return *pool_; }
  const rm::ApplicationManager& apps() const { return *apps_; }
  const rm::ResourceNormalizer& normalizer() const { return normalizer_; }
  // The pool's ids of the nodes, in the order given, and of the racks.
  const std::vector<pool::NodeId>& node_ids() const { return node_ids_; }
  Result<pool::RackId> FindRack(const std::string& rack) const { return pool_->FindRack(rack); }

  // Submits `job` as the RM takes a submission: queue checks, then every
  // task's resources validated against the maximum allocation (as
  // SchedulerUtils.validateResourceRequest does before normalising) and
  // normalised in place, then the app submitted and its unmanaged AM
  // registered. An error only when the RM core fails where it must not.
  Result<Admission> Admit(TraceJob* job);
  // The attempt's allocate: new absolute totals, placements committed
  // since the last call, containers released.
  Status SetAsks(const AdmittedJob& job, std::vector<pool::Ask> asks);
  Status TakePlacements(const AdmittedJob& job, std::vector<pool::Placement>* out);
  Status Release(const std::vector<pool::Placement>& placements);
  // The AM unregisters (succeeded); the RM takes the app out of the pool.
  void Finish(const AdmittedJob& job, const std::string& name);

 private:
  TunnelRm() = default;

  std::unique_ptr<pool::SchedulerPool> pool_;
  // The RM core around the pool (declared after it: destroyed first).
  std::unique_ptr<rm::ContainerRegistry> containers_;
  std::unique_ptr<rm::AmLauncher> launcher_;
  std::unique_ptr<rm::NodeDirectory> directory_;
  std::unique_ptr<rm::ApplicationManager> apps_;
  const rm::QueueTree* queues_ = nullptr;
  rm::ResourceNormalizer normalizer_;
  std::vector<pool::NodeId> node_ids_;
};

}  // namespace spindle::replay
