#include "replay/fidelity/fidelity_tunnel.h"

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "replay/trace/job_list_reader.h"
#include "replay/windtunnel/replay_tunnel.h"
#include "replay/windtunnel/virtual_driver.h"
#include "rm/config/configuration.h"
#include "rm/core/queue_statistics.h"
#include "rm/scheduling/resource_normalizer.h"

namespace spindle::replay {

namespace {

// The tenants' memory as the engine hands containers out and takes them
// back: the jobs the RM accepted, by the engine's index.
class TenantLedger final : public ReplayEvents {
 public:
  explicit TenantLedger(const FidelityScenario& scenario) {
    for (const FidelityJob& j : scenario.jobs) user_of_[j.id] = j.user;
  }

  void OnJobSubmitted(int64_t job, const std::string& trace_id, const std::string& queue,
                      int64_t /*tasks*/, Duration /*at*/) override {
    Job& j = jobs_[job];
    j.id = trace_id;
    j.queue = queue;
    j.user = user_of_[trace_id];
  }
  void OnJobRejected(int64_t job, const std::string& reason, Duration /*at*/) override {
    rejections_.push_back(jobs_[job].id + ": " + reason);
  }
  void OnTasksAsked(int64_t, int64_t, Duration) override {}
  void OnTaskPlaced(int64_t job, Duration, Duration, int64_t, int64_t memory_mb, int64_t, bool,
                    bool) override {
    jobs_[job].memory_mb += memory_mb;
  }
  void OnTaskEnded(int64_t job, Duration, int64_t memory_mb, int64_t) override {
    jobs_[job].memory_mb -= memory_mb;
  }
  void OnJobFinished(int64_t, Duration) override {}
  void OnConflicts(Duration, int64_t) override {}

  int64_t MemoryOf(const FidelityCheck& check) const {
    int64_t sum = 0;
    for (const auto& [index, j] : jobs_) {
      switch (check.metric) {
        case FidelityMetric::kQueueMemoryMb:
          if (j.queue == check.queue) sum += j.memory_mb;
          break;
        case FidelityMetric::kUserMemoryMb:
          if (j.queue == check.queue && j.user == check.user) sum += j.memory_mb;
          break;
        case FidelityMetric::kJobMemoryMb:
          if (j.id == check.job) sum += j.memory_mb;
          break;
        default:
          break;
      }
    }
    return sum;
  }
  const std::vector<std::string>& rejections() const { return rejections_; }

 private:
  struct Job {
    std::string id;
    std::string queue;
    std::string user;
    int64_t memory_mb = 0;
  };
  std::map<std::string, std::string> user_of_;
  std::map<int64_t, Job> jobs_;
  std::vector<std::string> rejections_;
};

// The leaf's activation report (LeafQueue's active / pending applications).
std::optional<int64_t> AppCount(const rm::QueueStatsSnapshot& stats, const FidelityCheck& check) {
  if (stats.tree == nullptr) return std::nullopt;
  const auto& queues = stats.tree->queues();
  for (size_t i = 0; i < queues.size() && i < stats.stats.size(); ++i) {
    if (queues[i].name != check.queue || !stats.stats[i].am.has_value()) continue;
    const rm::QueueAmReport& am = *stats.stats[i].am;
    return check.metric == FidelityMetric::kActiveApps ? am.active_apps : am.pending_apps;
  }
  return std::nullopt;
}

Result<rm::Configuration> ScenarioConfiguration(const FidelityScenario& scenario,
                                                rm::HadoopLine line) {
  rm::Configuration conf;
  for (const auto& [key, value] : scenario.capacity_scheduler) conf.Set(key, value);
  conf.Set(rm::kHadoopLineKey, std::string(rm::TraitsOf(line).name));
  return conf;
}

}  // namespace

Result<FidelityRun> RunFidelityInTunnel(const FidelityScenario& scenario, rm::HadoopLine line,
                                        const pool::PoolOptions& pool) {
  const std::string line_name(rm::TraitsOf(line).name);
  if (!scenario.AppliesTo(line)) {
    return Status::InvalidArgument("fidelity scenario " + scenario.name +
                                   " has no expectation for Hadoop " + line_name);
  }
  ASSIGN_OR_RETURN(rm::Configuration conf, ScenarioConfiguration(scenario, line));
  TunnelSetup setup;
  setup.rm.pool = pool;
  setup.rm.conf = conf;
  if (auto name = conf.GetTrimmed(rm::kResourceCalculatorKey)) {
    ASSIGN_OR_RETURN(setup.rm.calculator, rm::ParseResourceCalculator(*name));
  }
  setup.rm.min_allocation =
      pool::Resource::Of(scenario.min_allocation_mb, scenario.min_allocation_vcores);
  setup.nodes = scenario.Nodes();

  FidelityRun run;
  run.scenario = scenario.name;
  run.line = line_name;
  run.source = "wind tunnel (virtual clock)";
  TenantLedger ledger(scenario);
  std::map<size_t, FidelityObservation> seen;  // by index in scenario.checks
  TunnelRunOptions options;
  const Duration last = std::chrono::seconds(scenario.LastCheckSecond());
  options.horizon = last + std::chrono::seconds(1);
  options.not_before = last;
  options.sample = [&](Duration at, ReplayTunnel& tunnel) {
    const int64_t second = std::chrono::duration_cast<std::chrono::seconds>(at).count();
    std::optional<rm::QueueStatsSnapshot> stats;
    for (size_t i = 0; i < scenario.checks.size(); ++i) {
      const FidelityCheck& check = scenario.checks[i];
      if (check.at_s != second) continue;
      FidelityObservation o{check, std::nullopt};
      switch (check.metric) {
        case FidelityMetric::kActiveApps:
        case FidelityMetric::kPendingApps:
          if (!stats.has_value()) stats = tunnel.rm().core().QueueStatistics();
          o.observed = AppCount(*stats, check);
          break;
        case FidelityMetric::kRejectedJobs:
          o.observed = static_cast<int64_t>(ledger.rejections().size());
          break;
        default:
          o.observed = ledger.MemoryOf(check);
          break;
      }
      seen[i] = o;
    }
  };
  JobListReader jobs(scenario.TraceJobs(), scenario.name);
  ASSIGN_OR_RETURN(TunnelSummary summary, RunOnVirtualClock(options, setup, &jobs, &ledger));
  for (size_t i = 0; i < scenario.checks.size(); ++i) {
    auto it = seen.find(i);
    run.observations.push_back(it != seen.end() ? it->second
                                                : FidelityObservation{scenario.checks[i], {}});
  }
  run.rejections = ledger.rejections();
  if (summary.stalled) run.problems.push_back("the run stalled");
  if (!summary.invariants_ok) run.problems.push_back("the cell state's invariants broke");
  if (summary.surplus_placements > 0) {
    run.problems.push_back(std::to_string(summary.surplus_placements) +
                           " placements beyond what jobs asked for");
  }
  return run;
}

}  // namespace spindle::replay
