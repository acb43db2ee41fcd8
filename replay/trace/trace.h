// The replay's workload vocabulary: what every trace reader and generator
// produces and every replay driver consumes. A job (YARN: an application)
// arrives at a time, in a queue, for a user, with a priority; its tasks
// (YARN: containers) are grouped in stages that form a DAG: a stage's tasks
// are asked for once every task of its parent stages has finished (a
// MapReduce job is map -> reduce; an Alibaba job is its task_name DAG; a
// Google job is one stage of independent tasks). Plain values.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "base/clock.h"

namespace spindle::replay {

// One container's worth of work.
struct TraceTask {
  int64_t memory_mb = 1024;
  int32_t vcores = 1;
  // How long it holds its container once it runs. > 0.
  int64_t duration_ms = 1;
  // The earliest time it may be asked for, relative to its job's arrival
  // (a Google task submitted after its job). Its stage's parents still
  // gate it. Default: 0.
  int64_t submit_offset_ms = 0;
  // Locality preferences, as YARN's ResourceRequest host and rack rows
  // (host names as the node list names them; racks as "/rack"). Empty: none.
  std::vector<std::string> preferred_nodes;
  std::vector<std::string> preferred_racks;
};

struct TraceStage {
  // "map", "reduce", "M1", "R4_2", "tasks", ...
  std::string name;
  // YARN request priority of its containers (lower is served first;
  // MapReduce: maps 20, reduces 10). Default: 20.
  int32_t priority = 20;
  // Indices (into TraceJob::stages) of the stages it waits for; each is
  // lower than this stage's own index (readers order stages so), so the
  // DAG has no cycle.
  std::vector<int32_t> parents;
  std::vector<TraceTask> tasks;
  // Preferences of every task of the stage that names none of its own (a
  // job whose tasks all share one list, as the ParSync workload's do, keeps
  // it once). Empty: none.
  std::vector<std::string> preferred_nodes;
  std::vector<std::string> preferred_racks;
};

struct TraceJob {
  // The trace's own id ("job_1", Google's job id, "j_123").
  std::string id;
  // Since the start of the trace; readers yield jobs in non-decreasing
  // arrival order.
  int64_t arrival_ms = 0;
  // The part of the arrival below a millisecond, in ns ([0, 1e6)): for
  // generators that space jobs finer than a trace's milliseconds (the
  // ParSync workload at 40,000 tasks/s). Default: 0.
  int64_t arrival_sub_ms_ns = 0;
  std::string queue = "default";
  std::string user = "default";
  // YARN application priority (higher is served first). Default: 0.
  int32_t priority = 0;
  std::vector<TraceStage> stages;

  Duration arrival() const {
    return std::chrono::duration_cast<Duration>(std::chrono::milliseconds(arrival_ms) +
                                                std::chrono::nanoseconds(arrival_sub_ms_ns));
  }

  int64_t task_count() const {
    int64_t n = 0;
    for (const TraceStage& s : stages) n += static_cast<int64_t>(s.tasks.size());
    return n;
  }
};

// A node of the replayed cluster.
struct TraceNode {
  std::string host;
  std::string rack = "/default-rack";
  int64_t memory_mb = 8192;
  int32_t vcores = 8;
};

// A node of the cluster becoming unavailable (no new task is placed on it;
// those running finish, as YARN treats an UNHEALTHY node) or available
// again, at a trace time: Alibaba v2017's machine errors, additions and
// removals.
struct TraceNodeEvent {
  int64_t at_ms = 0;
  size_t node = 0;  // index into the cluster's node list
  bool available = false;
  std::string why;  // "softerror: machine_fail", "added", "removed"
};

}  // namespace spindle::replay
