// CellOptions: how a staging cell (replay --mode cell) is built and run:
// which binary, where its files go, the cell's nodes and queues, the time
// scale and the cadences. Defaults beside the fields; Validate() checks
// them once, before anything is written or started.
//
// Thread-safety: a value.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "am_protocol/rm_proxy/rm_retry_policy.h"
#include "base/result.h"
#include "replay/trace/trace.h"
#include "rm/config/configuration.h"
#include "rm/config/socket_address.h"

namespace spindle::replay {

// A leaf queue under root, for the generated capacity-scheduler.xml.
struct CellQueue {
  std::string name;
  // Percent of root. 0: an equal share of what the queues given no
  // capacity leave (all 0: 100 / count each). Default: 0.
  double capacity = 0;
  // yarn.scheduler.capacity.root.<q>.maximum-capacity, percent. Default: 100.
  double maximum_capacity = 100;
};

enum class CellStore {
  kMemory,   // yarn.resourcemanager.store.class = memory (nothing on disk)
  kRocksDb,  // the RocksDB store under <work_dir>/rm-store, recovery enabled
};

// An RM the cell drives instead of starting its own (`--rm`, `--rm-conf`):
// an operator's Java RM, say, so that the same trace runs against it and
// against Spindle; or one rm-id of an HA pair.
struct ExternalRm {
  rm::SocketAddress client;     // yarn.resourcemanager.address
  rm::SocketAddress scheduler;  // yarn.resourcemanager.scheduler.address
  rm::SocketAddress tracker;    // yarn.resourcemanager.resource-tracker.address
  std::string rm_id;            // the pair's rm-id; empty for a lone RM
  // "[rm1 ]client,scheduler,tracker".
  std::string ToString() const;
};

// "client,scheduler,tracker" as host:port each, or one host for Hadoop's
// default ports 8032, 8030, 8031. InvalidArgument naming what is wrong.
Result<ExternalRm> ParseExternalRm(const std::string& text);

// `--rm`: one RM as ParseExternalRm reads it, or an HA pair (or more),
// rm-ids rm1, rm2, ... in the order given: hosts separated by commas
// ("rmhost1,rmhost2", Hadoop's default ports each) or address triples
// separated by ';' ("c1,s1,t1;c2,s2,t2"). InvalidArgument naming what is
// wrong.
Result<std::vector<ExternalRm>> ParseExternalRms(const std::string& text);

// The RMs a Hadoop client configured with `conf` reaches, and how it
// retries: with yarn.resourcemanager.ha.enabled, every rm-id of
// yarn.resourcemanager.ha.rm-ids with its client, scheduler and resource
// tracker addresses (`<key>.<rm-id>` or `yarn.resourcemanager.hostname.<rm-id>`
// with the default port, as ConfiguredRMFailoverProxyProvider reads them);
// without, the three keys (or yarn.resourcemanager.hostname). The policy is
// RMProxy's from the same keys (am_protocol::RmRetryPolicy). InvalidArgument
// in Hadoop's words for a missing address or a bad retry key.
struct ExternalRmSet {
  std::vector<ExternalRm> rms;
  am_protocol::RmRetryPolicy policy;
};
Result<ExternalRmSet> ExternalRmsFromConfiguration(const rm::Configuration& conf);

struct CellOptions {
  // The `spindle` binary run as `rm` and `nm`. Required.
  std::string spindle_binary;
  // Where configs, logs and stores go (created; files of an earlier run are
  // overwritten). Required.
  std::string work_dir;
  // The cell's nodes: names, racks and sizes as the trace's cluster has
  // them. Required, host names unique.
  std::vector<TraceNode> nodes;
  // A capacity-scheduler.xml to use as it is. Empty: one is generated from
  // `queues`. Default: empty.
  std::string capacity_scheduler_xml;
  // The leaf queues of the generated capacity-scheduler.xml. Empty: one
  // queue, "default". Default: empty.
  std::vector<CellQueue> queues;
  // Trace milliseconds per wall millisecond: a job arriving at trace time t
  // is submitted at wall t / speed and a task of d ms holds its container
  // d / speed wall ms (at least 1). The recorder gets trace time. Default: 1.
  double speed = 1;
  // `spindle nm --nodes-file` processes the nodes are split across (each
  // gets a contiguous share). Default: 1.
  int nm_processes = 1;
  // Wall time between a NodeManager's heartbeats
  // (yarn.resourcemanager.nodemanagers.heartbeat-interval-ms) and between
  // an AM's allocate calls. Default: 200 ms.
  std::chrono::milliseconds heartbeat_interval{200};
  // Wall time between two samples of the queues' usage (getQueueInfo),
  // checked against their maximum capacity. Default: 500 ms.
  std::chrono::milliseconds queue_sample_interval{500};
  // The RM's state store. Default: memory.
  CellStore store = CellStore::kMemory;
  // More yarn-site.xml properties for the RM (the scheduler pool's
  // spindle.scheduler.*, say); they override the generated ones. Default:
  // none.
  std::map<std::string, std::string> extra_rm_config;
  // For the RM to listen and every node to register. Default: 60 s.
  std::chrono::seconds start_timeout{60};
  // For the whole replay (wall): jobs still running then are reported
  // unfinished and the run ends with what it has. Default: 3600 s.
  std::chrono::seconds run_timeout{3600};
  // The RMs to drive instead of a `spindle rm` child. Their configuration is
  // the operator's: the cell writes none for them, cannot check their racks
  // against the trace's (a mismatch is logged, not a violation), and needs
  // them to hold no other live node of the trace's host names. Several: the
  // rm-ids of an HA pair, in yarn.resourcemanager.ha.rm-ids order; the
  // cell's client calls and AMs fail over between them per `rm_retry`, its
  // node agents are configured with every rm-id (ServerRMProxy's failover,
  // nm_shim/agent/ipc_tracker_transport.h). Default: none.
  std::vector<ExternalRm> external_rms;
  // How the cell's client calls and AMs retry and fail over (RMProxy's
  // policy). nullopt: with one RM a call is tried once (its failure is the
  // run's finding, as before HA); with several, Hadoop's defaults with HA
  // (RmRetryPolicy::FromConfiguration of an empty configuration). Default:
  // nullopt.
  std::optional<am_protocol::RmRetryPolicy> rm_retry;
  // The Hadoop line of the RM (rm/config/hadoop_line.h): the simulated
  // nodes call only what its ResourceTracker has (no unRegisterNodeManager
  // before 2.8), and a `spindle rm` child is configured as that line.
  // Default: 3.3.
  std::string hadoop_line = "3.3";
  // ReplayModeResult::label. Default: "cell".
  std::string label = "cell";

  // InvalidArgument naming the field for an unknown Hadoop line, a missing
  // binary or work dir, several external RMs without distinct rm-ids, no
  // nodes, a host named twice, a non-positive size, speed, process count or
  // interval, a queue name that is empty or has a '.', a capacity out of
  // [0, 100] or capacities summing over 100.
  Status Validate() const;
};

}  // namespace spindle::replay
