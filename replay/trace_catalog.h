// The trace formats `spindle replay` reads, by name, and the cluster each
// replay runs on. One place maps a format name to its reader, so the
// command line, the staging cell and the tests open traces alike.
//
//   sls          Hadoop SLS JSON jobs (inputsls.json)
//   rumen        Rumen job histories (2jobs2min-rumen-jh.json)
//   synth        SLS synthetic description (syn.json)
//   google2011   Google cluster-usage 2011: task_events (+ job_events)
//   alibaba2018  Alibaba cluster-trace-v2018 batch_task.csv
//   alibaba2017  Alibaba cluster-trace-v2017 batch_task.csv (+ batch_instance.csv)
//   phases       ParSync's phased workload (generated)
//   poisson      Poisson arrivals (generated)
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

struct TraceSpec {
  // A format name above; empty: guessed from the first path's name.
  std::string format;
  // The trace's files (google2011: task_events, then job_events if given;
  // alibaba2017: batch_task.csv, and batch_instance.csv for the run times,
  // told apart by name).
  std::vector<std::string> paths;
  // alibaba2017: plan_cpu per core (Alibaba2017Options::cpu_per_core).
  // Default: 100 (the published file's hundredths of a core).
  double cpu_per_core = 100;
  // A node file: SLS nodes JSON, Alibaba v2018 machine_meta.csv or v2017
  // server_event.csv (by the format). Empty: the
  // cluster comes from `nodes` (generated), or from the trace (SLS and
  // Rumen hosts; syn.json's num_nodes).
  std::string nodes_path;
  // A generated uniform cluster of this many nodes of node shape
  // (read.node_memory_mb, read.node_vcores), `nodes_per_rack` to a rack.
  // Default: 0 (not generated).
  int64_t nodes = 0;
  int nodes_per_rack = 40;
  // Whether the node shape in `read` was given (--node-shape): it then also
  // sizes SLS nodes whose file gives no resources (else SLS's 10240 MB, 10).
  bool node_shape_given = false;
  ReadOptions read;
  // Generator parameters (phases, poisson), by flag name without "--":
  // "rate", "phases", "phase-seconds", "tasks-per-job", "task-seconds",
  // "preferred-nodes", "jobs", "mean-interarrival-ms", ...
  std::map<std::string, std::string> params;
  uint64_t seed = 1;
};

// The formats above, for help texts and errors.
const std::vector<std::string>& TraceFormats();

// The format named by spec.format, or guessed from the first path
// (".json" holding SLS or Rumen records, "task_events", "batch_task",
// "syn"); InvalidArgument if neither says.
Result<std::string> ResolveFormat(const TraceSpec& spec);

// A fresh reader over the trace: each call starts from the beginning, so
// every policy compared replays the same jobs.
Result<std::unique_ptr<TraceReader>> OpenTrace(const TraceSpec& spec);

// The cluster to replay on (see TraceSpec::nodes_path and nodes). Reads the
// trace itself where the hosts come from it. `stats` (may be null) gets
// what reading a node file skipped and adjusted.
Result<std::vector<TraceNode>> ClusterNodes(const TraceSpec& spec, ReadStats* stats = nullptr);

// The cluster and its changes over the trace (Alibaba v2017's
// server_event.csv: machines unavailable and back; no events otherwise).
struct ClusterPlan {
  std::vector<TraceNode> nodes;
  std::vector<TraceNodeEvent> events;
};
Result<ClusterPlan> ClusterOf(const TraceSpec& spec, ReadStats* stats = nullptr);

}  // namespace spindle::replay
