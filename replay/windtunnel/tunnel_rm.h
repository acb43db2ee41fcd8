// TunnelRm: the wind tunnel's one seam toward the RM core. It creates and
// drives a real rm::ResourceManager (no state store; the run's clock) and
// plays, in-process, the parts the wire plays for a real cluster:
//  - the NodeManagers: every node registers through the RM's NodeProtocol
//    (RegisterNode, its rack in the registration), and a task's end is the
//    node's heartbeat reporting its container complete;
//  - the client and the AM of every job: the job is submitted to the RM
//    (SubmitToQueue: the queue checks the client wire makes, then the
//    ApplicationManager's) with an unmanaged AM, which registers and then
//    allocates through rm::AttemptAllocator with Hadoop's ask-table
//    semantics: absolute rows per (priority, resource name, capability),
//    one normalisation (the RM's, with the configured resource calculator),
//    containers handed out with their ids, released by id.
// So the tunnel's jobs are admitted, asked, placed and released exactly as
// the wire's are: same queue checks, same normalisation, same ask table,
// same pool. The pool's own placement is driven by the tunnel's drivers
// (RunOnce on the virtual clock; Start() on the real one): the RM starts no
// scheduler threads of its own here.
//
// Thread-safety: one driver thread calls, except Send (see there) and the
// calls of a job not yet handed to it: Admit, then SetAsks and TakePlacements
// of the job it admitted may run on another thread (a submitting thread,
// ReplayTunnel::PrepareSubmission) concurrently with the driver's calls of
// other jobs; the job's calls are then the driver's once that thread hands it
// over (with a happens-before, e.g. a mutex). The pool's threads and the
// RM's housekeeping may run meanwhile: the RM's calls are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "replay/trace/trace.h"
#include "replay/windtunnel/pool_node_index.h"
#include "rm/config/configuration.h"
#include "rm/core/resource_manager.h"
#include "rm/scheduling/resource_normalizer.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::replay {

struct TunnelRmOptions {
  // The pool's options (ResourceManagerOptions::pool: the tunnel's are no
  // configuration values, e.g. in-id-order pinning).
  pool::PoolOptions pool;
  // The RM's configuration: capacity-scheduler.xml's queues (and any other
  // key the caller sets). The keys of the fields below are set over it.
  rm::Configuration conf;
  // yarn.scheduler.capacity.resource-calculator. Default: Hadoop's
  // DefaultResourceCalculator (memory only).
  rm::ResourceCalculator calculator = rm::ResourceCalculator::kDefault;
  // yarn.scheduler.minimum-allocation-*. Default: 1024 MB, 1 vcore.
  pool::Resource min_allocation = pool::Resource::Of(1024, 1);
  // yarn.scheduler.maximum-allocation-*: larger tasks reject their job.
  // Default: none given = the largest node.
  std::optional<pool::Resource> max_allocation;
};

// A job the RM accepted: its attempt, the scheduler its app is pinned to,
// and the seam's handle of its AM.
struct AdmittedJob {
  rm::ApplicationAttemptId attempt;
  int scheduler = 0;
  int64_t am = 0;
};

// What the RM answered a submission: accepted, or refused with the reason
// a client would read (its exception class first).
struct Admission {
  std::optional<AdmittedJob> job;
  std::string rejection;
};

class TunnelRm {
 public:
  // Starts an RM on `clock` and registers `nodes` (with `scores`, one per
  // node, or none: all 1). InvalidArgument for no nodes, a node without
  // resources, a host listed twice, scores not one per node, or a
  // configuration the RM refuses. `clock` must outlive it.
  static Result<std::unique_ptr<TunnelRm>> Create(const TunnelRmOptions& options,
                                                  const std::vector<TraceNode>& nodes,
                                                  const std::vector<double>& scores,
                                                  const Clock* clock);
  ~TunnelRm();

  pool::SchedulerPool& pool() { return rm_->pool(); }
  rm::ResourceManager& core() { return *rm_; }
  // The normalisation every ask gets (the AM path's).
  const rm::ResourceNormalizer& normalizer() const { return rm_->attempt_allocator().normalizer(); }
  // The pool's ids of the nodes, in the order given, and of the racks.
  const std::vector<pool::NodeId>& node_ids() const { return node_ids_; }
  Result<pool::RackId> FindRack(const std::string& rack) const {
    return rm_->pool().FindRack(rack);
  }
  // A pool node's position in the nodes given; nullopt if none.
  std::optional<size_t> NodeIndexOf(pool::NodeId node) const { return node_index_.Find(node); }

  // Submits `job` as a client and its AM would: every task shape checked as
  // allocate checks asks (refused before submission), the app submitted to
  // the job's queue (SubmitToQueue), its unmanaged AM registered. A refusal
  // is an Admission with the RM's message; an error only when the RM core
  // fails where it must not.
  Result<Admission> Admit(const TraceJob& job);
  // The attempt's allocate with new absolute totals: for each ask, its ANY
  // row, a row per preferred host and per preferred rack (all with the
  // ask's count; Hadoop's AMRMClient would add each host's rack, which the
  // tunnel's asks do not name). Containers the answer hands out are kept
  // for TakePlacements.
  Status SetAsks(const AdmittedJob& job, const std::vector<pool::Ask>& asks);
  // Containers handed out since the last call (an allocate), as the pool's
  // placements.
  Status TakePlacements(const AdmittedJob& job, std::vector<pool::Placement>* out);
  // The heartbeats of nodes whose tasks ended: one per node, in node order;
  // then the AMs that unregister (jobs whose tasks' ends were all reported
  // by earlier heartbeats).
  struct Heartbeats {
    std::vector<rm::NodeHeartbeatRequest> requests;
    std::vector<size_t> nodes;  // each request's node (index into nodes_)
    std::vector<rm::ApplicationAttemptId> unregistering;
  };
  // Tasks ended: each node reports its containers complete in a heartbeat
  // (HeartbeatsFor, then Send).
  Status Complete(const std::vector<pool::Placement>& placements);
  // Complete's halves, for a driver that sends the heartbeats from another
  // thread: HeartbeatsFor forgets the placements' containers and builds
  // their nodes' heartbeats; Send sends them in calls of at most
  // `per_call` heartbeats (NodeHeartbeats: each node answered as its own
  // heartbeat would be; a batch has one heartbeat per node, so the split
  // changes no answer, only how long each call holds the RM's registries),
  // keeps each node's response id, and then unregisters the AMs listed
  // (Unregister). `per_call` must be > 0. Send may
  // run on another thread than the other calls, concurrently with any of
  // them but Complete and Send (only those touch the nodes' response ids).
  Result<Heartbeats> HeartbeatsFor(const std::vector<pool::Placement>& placements);
  Status Send(Heartbeats* heartbeats, size_t per_call = SIZE_MAX);
  // Node `node` (index into the nodes given) reports itself healthy or not
  // in a heartbeat of its own (`why` its health report): an unhealthy node
  // keeps its containers and is given no new ones (the RM's UNHEALTHY), and
  // its later heartbeats (HeartbeatsFor) say the same until the next call.
  // Not concurrently with Send.
  Status SetNodeHealth(size_t node, bool healthy, const std::string& why);
  // A container the job does not need: released by its AM (allocate's
  // release list).
  Status Release(const AdmittedJob& job, const pool::Placement& placement);
  // The AM unregisters (succeeded); the RM takes the app out of the pool.
  // Forget, then Unregister.
  void Finish(const AdmittedJob& job);
  // Finish's halves, for a driver that unregisters AMs from another thread:
  // Forget drops the seam's handle of the job's AM (the caller's thread);
  // Unregister is the AM's finishApplicationMaster, an RM call only (any
  // thread, as Send).
  void Forget(const AdmittedJob& job);
  void Unregister(const rm::ApplicationAttemptId& attempt);

 private:
  struct Am {
    rm::ApplicationAttemptId attempt;
    int32_t response_id = 0;
    // Containers an allocate made for asks or releases handed out.
    std::vector<pool::Placement> handed_out;
  };
  struct Container {
    rm::ContainerId id;
    size_t node = 0;  // index into nodes_
  };
  struct Node {
    rm::NodeId id;
    int32_t response_id = 0;
    bool healthy = true;
    std::string health_report;
  };

  explicit TunnelRm(std::unique_ptr<rm::ResourceManager> rm) : rm_(std::move(rm)) {}
  Status RegisterNodes(const std::vector<TraceNode>& nodes, const std::vector<double>& scores);
  // One allocate of `am`; what it hands out goes to am->handed_out.
  Status Allocate(Am* am, rm::AllocateRequest request);
  // The job's AM (stays where it is until Forget); null if none.
  Am* FindAm(const AdmittedJob& job);
  // Send's heartbeats [begin, end), in one NodeHeartbeats call.
  Status SendHeartbeats(Heartbeats* heartbeats, size_t begin, size_t end);

  std::unique_ptr<rm::ResourceManager> rm_;
  std::vector<pool::NodeId> node_ids_;
  std::vector<Node> nodes_;
  PoolNodeIndex node_index_;
  std::unordered_map<pool::RackId, std::string> rack_names_;
  // The handles of the AMs and containers, which a submitting thread adds
  // to while the driver takes; an Am itself is its job's thread's.
  Mutex mu_;
  int64_t next_am_ GUARDED_BY(mu_) = 0;
  std::unordered_map<int64_t, Am> ams_ GUARDED_BY(mu_);
  // Live containers by pool placement id.
  std::unordered_map<uint64_t, Container> containers_ GUARDED_BY(mu_);
};

}  // namespace spindle::replay
