// CellAm: the simulated ApplicationMaster of one replayed job in a staging
// cell, over the real wire. It behaves as a MapReduce AM does toward the
// RM: registers with its AMRMToken (SASL DIGEST-MD5), asks for the tasks
// its DAG has made ready (AskTable: host, rack and ANY rows at the stage's
// priority), starts each allocated container on its node with the NMToken
// the RM gave (startContainers; the task's duration / speed in
// SPINDLE_SIM_DURATION_MS, which `spindle nm --simulate` honours), releases
// containers it cannot use, learns completions from allocate's completed
// statuses (which release the next stages through JobProgress) and
// unregisters SUCCEEDED when every task has ended. A container the RM
// preempted (exit status -102) is counted and its task asked for again, as
// an MR AM reschedules a preempted task attempt.
//
// It is unmanaged (the driver submits the job with unmanaged_am and hands
// it the token from the application report) and runs inside the driver's
// process: no AM container, no thread of its own. The driver calls
// Heartbeat() on every AM at its cadence, so thousands of AMs cost one
// thread and one RPC client.
//
// With several RMs (an HA pair) each AM has its own RmFailoverProxy over
// the rm-ids' scheduler addresses, as each MapReduce AM has its own RMProxy
// (am_protocol/rm_proxy/rm_failover_proxy.h: StandbyException or a lost
// connection moves it to the next rm-id). The new active answers allocate
// with ApplicationMasterNotRegisteredException (or AM_RESYNC): the AM
// registers again and re-sends every outstanding ask and every release not
// yet confirmed, then allocates from response id 0, as Hadoop 3.3's
// AMRMClientImpl.allocate does (rel/release-3.3.0 AMRMClientImpl.java lines
// 326-349); finishApplicationMaster answered so re-registers and finishes
// again (lines 529-534). With work-preserving recovery the containers it
// runs stay its own: their completions come from the new active.
//
// Node names need not resolve: a container's node is reached at
// CellAmContext::nm_connect_host and the NodeId's port (every simulated
// node of an agent shares its port, and the agent finds the node from the
// NMToken).
//
// Thread-safety: none (the driver's thread owns every AM).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "am_protocol/rm_proxy/rm_failover_proxy.h"
#include "base/clock.h"
#include "base/status.h"
#include "replay/cell/ask_table.h"
#include "replay/cell/cell_audit.h"
#include "replay/cell/tenant_census.h"
#include "replay/driver/job_progress.h"
#include "replay/report/replay_recorder.h"
#include "replay/trace/trace.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle::replay {

// What every AM of a cell shares (owned by the driver, outliving the AMs).
struct CellAmContext {
  ipc::RpcClient* client = nullptr;
  // The RMs' ApplicationMasterProtocol addresses (one, or an HA pair's in
  // rm-ids order) and how an AM's calls retry and fail over between them.
  std::vector<am_protocol::RmProxyTarget> schedulers;
  am_protocol::RmRetryPolicy policy;
  // Re-registrations after NotRegistered or AM_RESYNC, over every AM.
  int64_t* resyncs = nullptr;
  // Where the node agents are reached (with the NodeId's port).
  std::string nm_connect_host = "127.0.0.1";
  double speed = 1;
  const std::map<std::string, std::string>* rack_of = nullptr;
  // host -> the node's index in CellOptions::nodes (the recorder's node).
  const std::map<std::string, int64_t>* node_index = nullptr;
  ReplayRecorder* recorder = nullptr;
  CellAudit* audit = nullptr;
  // Trace time since the run's start.
  std::function<Duration()> trace_now;
  // Preemptions each tenant's AMs saw (PREEMPTED completions, whose tasks
  // are asked for again, and PreemptionMessages), for the tenant census.
  PreemptionCounts* preemptions = nullptr;
};

class CellAm {
 public:
  // `job` is the driver's dense index; `trace` must outlive the AM.
  CellAm(const CellAmContext* context, int64_t job, const TraceJob* trace, ipc::ClientToken amrm);

  // registerApplicationMaster.
  Status Register();
  // One allocate round (asks, releases, allocations, completions); when the
  // last task has ended, unregisters. The error of a call that failed.
  Status Heartbeat();
  // Unregistered: every task ended and the RM confirmed.
  bool finished() const { return finished_; }
  // Every task has ended and the AM is calling finishApplicationMaster
  // (until the RM answers that it is unregistered).
  bool unregistering() const { return !finished_ && progress_.done() && running_.empty(); }
  const JobProgress& progress() const { return progress_; }
  // Times this AM's proxy moved to the next rm-id.
  int64_t failovers() const { return rm_->failovers(); }

 private:
  struct Running {
    TaskRef task;
    int64_t memory_mb = 0;
    int32_t vcores = 0;
  };
  // A call to the RM through this AM's proxy.
  Status CallRm(const std::string& method, const google::protobuf::MessageLite& request,
                google::protobuf::MessageLite* response);
  // Registers again and queues every outstanding ask and unconfirmed
  // release to be sent with the next allocate.
  Status Resync(const std::string& why);
  void AskReady(Duration now);
  void OnCompleted(const hadoop::yarn::ContainerStatusProto& status, Duration now);
  // Matches and starts the containers allocated on one node.
  void StartOnNode(const std::vector<const hadoop::yarn::ContainerProto*>& containers,
                   Duration now);
  void Release(const hadoop::yarn::ContainerIdProto& id);
  Status Unregister();

  const CellAmContext* const context_;
  const int64_t job_;
  const TraceJob* const trace_;
  std::unique_ptr<am_protocol::RmFailoverProxy> rm_;
  JobProgress progress_;
  AskTable asks_;
  int32_t response_id_ = 0;
  std::map<std::pair<int32_t, int32_t>, Duration> asked_at_;  // task -> when asked
  std::map<std::string, Running> running_;                    // container id -> task
  // Released, not yet completed (AMRMClientImpl's pendingRelease).
  std::map<std::string, hadoop::yarn::ContainerIdProto> released_;
  // The next allocate sends every outstanding ask (after a resync).
  bool send_all_asks_ = false;
  // NotRegistered answers since the last good allocate.
  int resyncs_in_a_row_ = 0;
  std::vector<hadoop::yarn::ContainerIdProto> to_release_;
  std::map<std::string, hadoop::common::TokenProto> nm_tokens_;  // node id -> NMToken
  bool finished_ = false;
};

}  // namespace spindle::replay
