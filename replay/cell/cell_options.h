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

#include "base/result.h"
#include "replay/trace/trace.h"
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

// An RM the cell drives instead of starting its own (`--rm`): an operator's
// Java RM, say, so that the same trace runs against it and against Spindle.
struct ExternalRm {
  rm::SocketAddress client;     // yarn.resourcemanager.address
  rm::SocketAddress scheduler;  // yarn.resourcemanager.scheduler.address
  rm::SocketAddress tracker;    // yarn.resourcemanager.resource-tracker.address
};

// "client,scheduler,tracker" as host:port each, or one host for Hadoop's
// default ports 8032, 8030, 8031. InvalidArgument naming what is wrong.
Result<ExternalRm> ParseExternalRm(const std::string& text);

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
  // The RM to drive instead of a `spindle rm` child. Its configuration is
  // the operator's: the cell writes none for it, cannot check its racks
  // against the trace's (a mismatch is logged, not a violation), and needs
  // it to hold no other live node of the trace's host names. Default: none.
  std::optional<ExternalRm> external_rm;
  // The Hadoop line of the RM (rm/config/hadoop_line.h): the simulated
  // nodes call only what its ResourceTracker has (no unRegisterNodeManager
  // before 2.8), and a `spindle rm` child is configured as that line.
  // Default: 3.3.
  std::string hadoop_line = "3.3";
  // ReplayModeResult::label. Default: "cell".
  std::string label = "cell";

  // InvalidArgument naming the field for an unknown Hadoop line, a missing
  // binary or work dir, no
  // nodes, a host named twice, a non-positive size, speed, process count or
  // interval, a queue name that is empty or has a '.', a capacity out of
  // [0, 100] or capacities summing over 100.
  Status Validate() const;
};

}  // namespace spindle::replay
