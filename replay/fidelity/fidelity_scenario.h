// FidelityScenario: one case of the fidelity figure, a small cluster, a
// capacity-scheduler.xml and a handful of jobs, written from one of Hadoop's
// own CapacityScheduler test cases, with the steady state Hadoop's rules
// give it (per queue / per user / per job memory held, active and pending
// applications of a leaf, jobs refused) worked out from the Java source of
// the lines it applies to. The catalogue is fidelity_scenarios.h; the wind
// tunnel runs a scenario (fidelity_tunnel.h), the staging cell reads it from
// files (fidelity_cell_files.h), and the two compare what they saw with the
// expectation (fidelity_check.h).
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "replay/trace/trace.h"
#include "rm/config/hadoop_line.h"

namespace spindle::replay {

// What a check looks at.
enum class FidelityMetric : uint8_t {
  kQueueMemoryMb,  // memory held by the live containers of a leaf's apps
  kUserMemoryMb,   // the same, of one user's apps in a leaf
  kJobMemoryMb,    // the same, of one job (application)
  kActiveApps,     // apps of a leaf the scheduler activated (LeafQueue's activeApplications)
  kPendingApps,    // apps of a leaf the AM limits hold back (pendingApplications)
  kRejectedJobs,   // jobs the RM refused since the start, in every queue
};

// "queue memory MB", "pending apps", ... (tables and JSON).
const char* FidelityMetricName(FidelityMetric metric);
// Memory metrics match within one container; counts must be exact.
bool IsMemoryMetric(FidelityMetric metric);

// One number Hadoop's semantics fix, at one moment of the run.
struct FidelityCheck {
  int64_t at_s = 0;  // trace second the state is read at (a whole second)
  FidelityMetric metric = FidelityMetric::kQueueMemoryMb;
  std::string queue;  // the leaf (kQueue*, kUser*, k*Apps)
  std::string user;   // kUserMemoryMb
  std::string job;    // kJobMemoryMb: the job's id
  int64_t expected = 0;
  // "tenant" the check is about, for tables: "default", "default/alice", "j1".
  std::string Subject() const;
};

// Jobs are one stage of identical tasks (a MapReduce job's maps, priority
// 20), so that the staging cell's SLS trace says exactly the same.
struct FidelityJob {
  std::string id;
  std::string queue = "default";
  std::string user = "default";
  int64_t arrival_ms = 0;
  int32_t tasks = 1;
  int64_t task_memory_mb = 1024;
  int32_t task_vcores = 1;
  int64_t task_seconds = 3600;
};

struct FidelityScenario {
  std::string name;
  // One line: what the scenario shows.
  std::string summary;
  // The Hadoop test cases it is written from ("TestLeafQueue#testUserLimits").
  std::string hadoop_tests;
  // How the expectation follows from the Java source (for --explain / JSON).
  std::string derivation;
  // The lines whose semantics the expectation is: a scenario is not run
  // for another line (e.g. fair ordering exists from 2.8 on).
  std::vector<rm::HadoopLine> lines;
  // capacity-scheduler.xml, key -> value (keys in full).
  std::map<std::string, std::string> capacity_scheduler;
  // yarn.scheduler.minimum-allocation-{mb,vcores}.
  int64_t min_allocation_mb = 1024;
  int32_t min_allocation_vcores = 1;
  // The cluster: `nodes` nodes of node_memory_mb / node_vcores, named by
  // address (127.1.0.1, ...: a Java RM resolves them) on /default-rack.
  int32_t nodes = 1;
  int64_t node_memory_mb = 4096;
  int32_t node_vcores = 4;
  std::vector<FidelityJob> jobs;
  std::vector<FidelityCheck> checks;
  // One container: the tolerance of memory checks.
  int64_t container_mb = 1024;

  bool AppliesTo(rm::HadoopLine line) const;
  // The last check's second: a run need go no further.
  int64_t LastCheckSecond() const;
  std::vector<TraceNode> Nodes() const;
  // The jobs as the replay's vocabulary (one stage "map", priority 20).
  std::vector<TraceJob> TraceJobs() const;
};

}  // namespace spindle::replay
