#include "bench/carbyne_bench.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "bench/carbyne/experiment.h"
#include "bench/carbyne/text_report.h"
#include "bench/carbyne/trace_jobs.h"
#include "replay/trace_catalog.h"

namespace spindle::bench {

const CommandSpec& CarbyneBenchCommand() {
  static const carbyne::ModelOptions kModel;
  static const CommandSpec kSpec{
      "bench carbyne",
      "Carbyne: altruistic DAG scheduling vs DRF, Tetris, SRTF (virtual clock)",
      {FlagSpec::Int("machines", kModel.machines, "machines").InRange(1, 1e6),
       FlagSpec::Int("vcores", kModel.machine.vcores, "vcores per machine").InRange(4, 1e6),
       FlagSpec::Int("memory-gb", kModel.machine.memory_mb / 1024, "memory per machine, GB")
           .InRange(1, 1e6),
       FlagSpec::Int("jobs", kModel.jobs, "jobs submitted").InRange(1, 1e7),
       FlagSpec::List("interarrival", "SECONDS,...", "0,5",
                      "mean gap between Poisson job arrivals, s; 0 submits all at once "
                      "(one table per value)"),
       FlagSpec::Int("max-stages", kModel.max_stages, "stages per job: uniform in 2..this")
           .InRange(2, 1000),
       FlagSpec::Int("max-tasks", kModel.max_tasks, "tasks per stage: log-uniform in 1..this")
           .InRange(1, 1e6),
       FlagSpec::Double("min-task-s", kModel.min_task_s, "shortest stage mean task duration, s")
           .InRange(0.001, 1e6),
       FlagSpec::Double("max-task-s", kModel.max_task_s, "longest stage mean task duration, s")
           .InRange(0.001, 1e6),
       FlagSpec::Int("max-task-gb", kModel.max_task_memory_gb, "largest task memory, GB")
           .InRange(1, 1e6),
       FlagSpec::Double("p-altruism", kModel.p_altruism,
                        "probability a job yields at a scheduling event (0: DRF)")
           .InRange(0, 1),
       FlagSpec::Double("window-s", 60, "Jain's index window, s").InRange(0.001, 1e6),
       FlagSpec::List("policies", "NAME,...", "drf,carbyne,tetris,srtf",
                      "policies to run, in order"),
       FlagSpec::Int("seed", 1, "seed of the workload and the altruism coin").InRange(0, 9.2e18),
       FlagSpec::String("trace", "PATH", "",
                        "a DAG trace (e.g. Alibaba v2018 batch_task.csv) to run instead of the "
                        "synthetic jobs: its first --jobs jobs, its own arrivals"),
       FlagSpec::String("trace-format", "NAME", "",
                        "the trace's format, as spindle replay names it (empty: from the name)")},
      "exit status: 0 ran, 1 the trace failed or has no job to run, 2 bad flags"};
  return kSpec;
}

Result<CarbyneBenchOptions> ParseCarbyneFlags(const CommandLine& flags) {
  CarbyneBenchOptions out;
  carbyne::ModelOptions& m = out.model;
  m.machines = static_cast<int>(flags.GetInt("machines"));
  m.machine.vcores = flags.GetInt("vcores");
  m.machine.memory_mb = flags.GetInt("memory-gb") * 1024;
  m.jobs = static_cast<int>(flags.GetInt("jobs"));
  m.max_stages = static_cast<int>(flags.GetInt("max-stages"));
  m.max_tasks = static_cast<int>(flags.GetInt("max-tasks"));
  m.min_task_s = flags.GetDouble("min-task-s");
  m.max_task_s = flags.GetDouble("max-task-s");
  m.max_task_memory_gb = static_cast<int>(flags.GetInt("max-task-gb"));
  m.p_altruism = flags.GetDouble("p-altruism");
  m.fairness_window_ms = static_cast<carbyne::Time>(flags.GetDouble("window-s") * 1000);
  m.seed = static_cast<uint64_t>(flags.GetInt("seed"));
  for (const std::string& item : flags.GetList("interarrival")) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(item.c_str(), &end);
    if (end != item.c_str() + item.size() || errno != 0 || !std::isfinite(v) || v < 0) {
      return Status::InvalidArgument("--interarrival: '" + item + "' is not seconds >= 0");
    }
    out.interarrivals.push_back(v);
  }
  if (out.interarrivals.empty()) return Status::InvalidArgument("--interarrival is empty");
  out.policies.clear();
  for (const std::string& item : flags.GetList("policies")) {
    ASSIGN_OR_RETURN(carbyne::PolicyKind p, carbyne::ParsePolicy(item));
    out.policies.push_back(p);
  }
  if (out.policies.empty()) return Status::InvalidArgument("--policies is empty");
  out.trace = flags.GetString("trace");
  out.trace_format = flags.GetString("trace-format");
  m.interarrival_s = out.interarrivals.front();
  RETURN_NOT_OK(m.Validate());
  return out;
}

namespace {

// The jobs of options.trace, converted; the trace line of the table.
Result<std::vector<carbyne::JobSpec>> TraceJobs(const CarbyneBenchOptions& options,
                                                std::string* line) {
  replay::TraceSpec spec;
  spec.format = options.trace_format;
  spec.paths = {options.trace};
  spec.read.node_memory_mb = options.model.machine.memory_mb;
  spec.read.node_vcores = static_cast<int32_t>(options.model.machine.vcores);
  ASSIGN_OR_RETURN(std::unique_ptr<replay::TraceReader> reader, replay::OpenTrace(spec));
  carbyne::TraceImport import;
  ASSIGN_OR_RETURN(std::vector<carbyne::JobSpec> jobs,
                   carbyne::JobsFromTrace(*reader, options.model, options.model.jobs, &import));
  char buf[512];
  std::snprintf(buf, sizeof(buf),
                "trace %s: %lld jobs, %lld tasks (skipped: %lld with a task larger than a "
                "machine, %lld with an empty stage); arrivals as traced\n",
                reader->Describe().c_str(), static_cast<long long>(import.jobs),
                static_cast<long long>(import.tasks),
                static_cast<long long>(import.skipped_too_large),
                static_cast<long long>(import.skipped_empty));
  *line = buf;
  return jobs;
}

int RunTrace(const CarbyneBenchOptions& options) {
  std::string line;
  Result<std::vector<carbyne::JobSpec>> jobs = TraceJobs(options, &line);
  Result<std::vector<carbyne::PolicyResult>> results =
      jobs.ok() ? carbyne::RunPoliciesOn(options.model, *jobs, options.policies)
                : Result<std::vector<carbyne::PolicyResult>>(jobs.status());
  if (!results.ok()) {
    std::fprintf(stderr, "spindle bench carbyne: %s\n", results.status().ToString().c_str());
    return kExitFailure;
  }
  std::printf("%s%s%s", carbyne::FormatCluster(options.model).c_str(), line.c_str(),
              carbyne::FormatTable(*results).c_str());
  return kExitOk;
}

}  // namespace

int CarbyneBenchMain(const CommandLine& flags) {
  Result<CarbyneBenchOptions> parsed = ParseCarbyneFlags(flags);
  if (!parsed.ok()) {
    std::fprintf(stderr, "spindle bench carbyne: %s\n", parsed.status().ToString().c_str());
    return kExitUsage;
  }
  const CarbyneBenchOptions& options = *parsed;
  if (!options.trace.empty()) return RunTrace(options);
  for (size_t i = 0; i < options.interarrivals.size(); ++i) {
    carbyne::ModelOptions model = options.model;
    model.interarrival_s = options.interarrivals[i];
    Result<std::vector<carbyne::PolicyResult>> results =
        carbyne::RunPolicies(model, options.policies);
    if (!results.ok()) {
      std::fprintf(stderr, "spindle bench carbyne: %s\n", results.status().ToString().c_str());
      return kExitUsage;
    }
    if (i > 0) std::printf("\n");
    std::printf("%s%s", carbyne::FormatSetting(model).c_str(),
                carbyne::FormatTable(*results).c_str());
    std::fflush(stdout);
  }
  return kExitOk;
}

}  // namespace spindle::bench
