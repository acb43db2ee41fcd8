#include "bench/sparrow_bench.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/sparrow/experiment.h"
#include "bench/sparrow/text_report.h"

namespace spindle::bench {

namespace {

Duration Millis(double ms) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::milli>(ms));
}

}  // namespace

const CommandSpec& SparrowBenchCommand() {
  static const sparrow::ModelOptions kModel;
  static const CommandSpec kSpec{
      "bench sparrow",
      "Sparrow: batch sampling + late binding vs random, per-task, omniscient",
      {FlagSpec::Int("nodes", kModel.nodes, "worker nodes").InRange(1, 1e6),
       FlagSpec::Int("slots", kModel.slots_per_node, "slots (cores) per node").InRange(1, 1024),
       FlagSpec::Int("tasks", kModel.tasks_per_job, "tasks per job, m").InRange(1, 1e5),
       FlagSpec::List("load", "PERCENT,...", "80",
                      "offered load, in percent of the slots (one table per value)"),
       FlagSpec::String("durations", "KIND", "constant",
                        "task durations: constant, "
                        "exponential or pareto (shape 1.5)"),
       FlagSpec::Double("task-ms", 100, "mean task duration, ms").InRange(0.001, 1e7),
       FlagSpec::Double("d", kModel.probe_ratio, "probe ratio: d*m probes per m-task job")
           .InRange(1, 1000),
       FlagSpec::Double("rtt-ms", 1, "network round trip (probe, launch, getTask), ms")
           .InRange(0, 1e6),
       FlagSpec::Int("jobs", kModel.jobs, "jobs submitted").InRange(1, 1e8),
       FlagSpec::Double("constrained", 0,
                        "share of jobs whose tasks each prefer --preferred random nodes")
           .InRange(0, 1),
       FlagSpec::Int("preferred", kModel.preferred_nodes, "preferred nodes per constrained task")
           .InRange(1, 1e6),
       FlagSpec::List("policies", "NAME,...", "random,per-task,batch,batch+late,omniscient",
                      "policies to run, in order"),
       FlagSpec::Int("seed", 1, "seed of the workload and the probes").InRange(0, 9.2e18)},
      "exit status: 0 ran, 2 bad flags"};
  return kSpec;
}

Result<SparrowBenchOptions> ParseSparrowFlags(const CommandLine& flags) {
  SparrowBenchOptions out;
  sparrow::ModelOptions& m = out.model;
  m.nodes = static_cast<int>(flags.GetInt("nodes"));
  m.slots_per_node = static_cast<int>(flags.GetInt("slots"));
  m.tasks_per_job = static_cast<int>(flags.GetInt("tasks"));
  ASSIGN_OR_RETURN(m.durations, sparrow::ParseDurationKind(flags.GetString("durations")));
  m.mean_task = Millis(flags.GetDouble("task-ms"));
  m.probe_ratio = flags.GetDouble("d");
  m.rtt = Millis(flags.GetDouble("rtt-ms"));
  m.jobs = static_cast<int>(flags.GetInt("jobs"));
  m.constrained_share = flags.GetDouble("constrained");
  m.preferred_nodes = static_cast<int>(flags.GetInt("preferred"));
  m.seed = static_cast<uint64_t>(flags.GetInt("seed"));
  for (const std::string& item : flags.GetList("load")) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(item.c_str(), &end);
    if (end != item.c_str() + item.size() || errno != 0 || !std::isfinite(v) || v <= 0 ||
        v >= 100) {
      return Status::InvalidArgument("--load: '" + item + "' is not a percent in (0, 100)");
    }
    out.loads.push_back(v / 100);
  }
  if (out.loads.empty()) return Status::InvalidArgument("--load is empty");
  out.policies.clear();
  for (const std::string& item : flags.GetList("policies")) {
    ASSIGN_OR_RETURN(sparrow::PolicyKind p, sparrow::ParsePolicy(item));
    out.policies.push_back(p);
  }
  if (out.policies.empty()) return Status::InvalidArgument("--policies is empty");
  m.load = out.loads.front();
  RETURN_NOT_OK(m.Validate());
  return out;
}

int SparrowBenchMain(const CommandLine& flags) {
  Result<SparrowBenchOptions> parsed = ParseSparrowFlags(flags);
  if (!parsed.ok()) {
    std::fprintf(stderr, "spindle bench sparrow: %s\n", parsed.status().ToString().c_str());
    return kExitUsage;
  }
  const SparrowBenchOptions& options = *parsed;
  for (size_t i = 0; i < options.loads.size(); ++i) {
    sparrow::ModelOptions model = options.model;
    model.load = options.loads[i];
    Result<std::vector<sparrow::PolicyResult>> results =
        sparrow::RunPolicies(model, options.policies);
    if (!results.ok()) {
      std::fprintf(stderr, "spindle bench sparrow: %s\n", results.status().ToString().c_str());
      return kExitUsage;
    }
    if (i > 0) std::printf("\n");
    std::printf("%s%s", sparrow::FormatSetting(model).c_str(),
                sparrow::FormatTable(*results).c_str());
    std::fflush(stdout);
  }
  return kExitOk;
}

}  // namespace spindle::bench
