#include "replay/trace_catalog.h"

#include <cstdlib>
#include <filesystem>

#include "replay/trace/cluster/alibaba2017_reader.h"
#include "replay/trace/cluster/alibaba2017_server_events.h"
#include "replay/trace/cluster/alibaba2018_machines.h"
#include "replay/trace/cluster/alibaba2018_reader.h"
#include "replay/trace/cluster/google2011_reader.h"
#include "replay/trace/hadoop/rumen_reader.h"
#include "replay/trace/hadoop/sls_nodes.h"
#include "replay/trace/hadoop/sls_reader.h"
#include "replay/trace/hadoop/synth_reader.h"
#include "replay/trace/synthetic/parsync_phases_reader.h"
#include "replay/trace/synthetic/poisson_reader.h"
#include "replay/trace/synthetic/uniform_cluster.h"

namespace spindle::replay {

namespace {

bool Contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

std::string Param(const TraceSpec& spec, const std::string& name, const std::string& fallback) {
  auto it = spec.params.find(name);
  return it == spec.params.end() ? fallback : it->second;
}

Result<double> Number(const TraceSpec& spec, const std::string& name, double fallback) {
  auto it = spec.params.find(name);
  if (it == spec.params.end()) return fallback;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || end != it->second.c_str() + it->second.size() || !(v >= 0)) {
    return Status::InvalidArgument("--" + name + " wants a number >= 0, got '" + it->second + "'");
  }
  return v;
}

std::vector<std::string> SplitOn(const std::string& text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t at = text.find(sep, start);
    out.push_back(text.substr(start, at == std::string::npos ? at : at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return out;
}

// "fixed:10", "uniform:5:20", "exponential:5000", "lognormal:5000:1".
Result<Distribution> ParseDistribution(const std::string& flag, const std::string& text) {
  const std::vector<std::string> parts = SplitOn(text, ':');
  std::vector<double> v;
  for (size_t i = 1; i < parts.size(); ++i) {
    char* end = nullptr;
    v.push_back(std::strtod(parts[i].c_str(), &end));
    if (parts[i].empty() || end != parts[i].c_str() + parts[i].size()) {
      return Status::InvalidArgument("--" + flag + ": '" + parts[i] + "' is not a number");
    }
  }
  Distribution d;
  if (parts[0] == "fixed" && v.size() == 1) {
    d = Distribution::Fixed(v[0]);
  } else if (parts[0] == "uniform" && v.size() == 2) {
    d = Distribution::Uniform(v[0], v[1]);
  } else if (parts[0] == "exponential" && v.size() == 1) {
    d = Distribution::Exponential(v[0]);
  } else if (parts[0] == "lognormal" && v.size() == 2) {
    d = Distribution::Lognormal(v[0], v[1]);
  } else {
    return Status::InvalidArgument("--" + flag + " wants fixed:V, uniform:LOW:HIGH, " +
                                   "exponential:MEAN or lognormal:MEAN:SIGMA, got '" + text + "'");
  }
  RETURN_NOT_OK(d.Validate("--" + flag));
  return d;
}

Result<std::unique_ptr<TraceReader>> OpenPhases(const TraceSpec& spec) {
  ParSyncPhasesOptions o;
  ASSIGN_OR_RETURN(o.base_rate, Number(spec, "rate", o.base_rate));
  if (spec.params.contains("phases")) {
    o.fractions.clear();
    for (const std::string& item : SplitOn(Param(spec, "phases", ""), ',')) {
      char* end = nullptr;
      const double percent = std::strtod(item.c_str(), &end);
      if (item.empty() || end != item.c_str() + item.size() || percent < 0) {
        return Status::InvalidArgument("--phases wants percentages of --rate, got '" + item + "'");
      }
      o.fractions.push_back(percent / 100);
    }
  }
  ASSIGN_OR_RETURN(double phase_s, Number(spec, "phase-seconds", 60));
  o.phase_length_ms = static_cast<int64_t>(phase_s * 1000);
  ASSIGN_OR_RETURN(double tasks, Number(spec, "tasks-per-job", o.tasks_per_job));
  o.tasks_per_job = static_cast<int>(tasks);
  ASSIGN_OR_RETURN(double task_s, Number(spec, "task-seconds", 5));
  o.task_duration_ms = static_cast<int64_t>(task_s * 1000);
  ASSIGN_OR_RETURN(double preferred, Number(spec, "preferred-nodes", o.preferred_nodes));
  o.preferred_nodes = static_cast<int>(preferred);
  o.seed = spec.seed;
  ASSIGN_OR_RETURN(std::vector<TraceNode> nodes, ClusterNodes(spec));
  ASSIGN_OR_RETURN(auto reader, ParSyncPhasesReader::Open(o, std::move(nodes), spec.read));
  return std::unique_ptr<TraceReader>(std::move(reader));
}

Result<std::unique_ptr<TraceReader>> OpenPoisson(const TraceSpec& spec) {
  PoissonOptions o;
  ASSIGN_OR_RETURN(double jobs, Number(spec, "jobs", static_cast<double>(o.jobs)));
  o.jobs = static_cast<int64_t>(jobs);
  ASSIGN_OR_RETURN(double gap_ms, Number(spec, "mean-interarrival-ms", 1000));
  if (!(gap_ms > 0)) return Status::InvalidArgument("--mean-interarrival-ms must be > 0");
  o.jobs_per_second = 1000 / gap_ms;
  if (spec.params.contains("job-size")) {
    ASSIGN_OR_RETURN(o.tasks_per_job, ParseDistribution("job-size", Param(spec, "job-size", "")));
  }
  if (spec.params.contains("task-duration")) {
    ASSIGN_OR_RETURN(o.task_duration_ms,
                     ParseDistribution("task-duration", Param(spec, "task-duration", "")));
  }
  ASSIGN_OR_RETURN(double preferred, Number(spec, "preferred-nodes", o.preferred_nodes));
  o.preferred_nodes = static_cast<int>(preferred);
  o.seed = spec.seed;
  std::vector<TraceNode> nodes;
  if (o.preferred_nodes > 0) {
    ASSIGN_OR_RETURN(nodes, ClusterNodes(spec));
  }
  ASSIGN_OR_RETURN(auto reader, PoissonReader::Open(o, std::move(nodes), spec.read));
  return std::unique_ptr<TraceReader>(std::move(reader));
}

hadoop::SlsNodeDefaults SlsDefaults(const TraceSpec& spec) {
  hadoop::SlsNodeDefaults d;
  if (spec.node_shape_given) {
    d.memory_mb = spec.read.node_memory_mb;
    d.vcores = spec.read.node_vcores;
  }
  return d;
}

Status NeedPaths(const TraceSpec& spec, const std::string& format) {
  if (spec.paths.empty()) return Status::InvalidArgument(format + " needs --trace FILE");
  return Status::OK();
}

}  // namespace

const std::vector<std::string>& TraceFormats() {
  static const std::vector<std::string> kFormats = {
      "sls", "rumen", "synth", "google2011", "alibaba2018", "alibaba2017", "phases", "poisson"};
  return kFormats;
}

Result<std::string> ResolveFormat(const TraceSpec& spec) {
  if (!spec.format.empty()) {
    for (const std::string& f : TraceFormats()) {
      if (f == spec.format) return f;
    }
    std::string known;
    for (const std::string& f : TraceFormats()) known += (known.empty() ? "" : ", ") + f;
    return Status::InvalidArgument("unknown trace format '" + spec.format + "' (known: " + known +
                                   ")");
  }
  if (spec.paths.empty()) {
    return Status::InvalidArgument("give --trace FILE, or --format phases|poisson");
  }
  const std::string name = std::filesystem::path(spec.paths.front()).filename().string();
  if (Contains(name, "task_events") || Contains(name, "job_events"))
    return std::string("google2011");
  if (Contains(name, "batch_task")) {
    return Status::InvalidArgument(name +
                                   ": Alibaba's v2017 and v2018 batch_task.csv share a name; "
                                   "give --format alibaba2018 or alibaba2017");
  }
  if (Contains(name, "rumen")) return std::string("rumen");
  if (Contains(name, "syn")) return std::string("synth");
  if (name.size() > 5 && name.substr(name.size() - 5) == ".json") return std::string("sls");
  return Status::InvalidArgument("cannot tell the format of " + name + ": give --format");
}

Result<std::unique_ptr<TraceReader>> OpenTrace(const TraceSpec& spec) {
  ASSIGN_OR_RETURN(const std::string format, ResolveFormat(spec));
  RETURN_NOT_OK(CheckReadOptions(spec.read));
  if (format == "phases") return OpenPhases(spec);
  if (format == "poisson") return OpenPoisson(spec);
  RETURN_NOT_OK(NeedPaths(spec, format));
  const std::string& path = spec.paths.front();
  if (format == "sls") {
    hadoop::SlsReaderOptions o;
    o.read = spec.read;
    ASSIGN_OR_RETURN(auto reader, hadoop::SlsReader::Open(path, o));
    return std::unique_ptr<TraceReader>(std::move(reader));
  }
  if (format == "rumen") {
    hadoop::RumenReaderOptions o;
    o.read = spec.read;
    ASSIGN_OR_RETURN(auto reader, hadoop::RumenReader::Open(path, o));
    return std::unique_ptr<TraceReader>(std::move(reader));
  }
  if (format == "synth") {
    hadoop::SynthReaderOptions o;
    o.read = spec.read;
    ASSIGN_OR_RETURN(auto reader, hadoop::SynthReader::Open(path, o));
    return std::unique_ptr<TraceReader>(std::move(reader));
  }
  if (format == "google2011") {
    Google2011Options o;
    for (const std::string& p : spec.paths) {
      (Contains(std::filesystem::path(p).filename().string(), "job_events") ? o.job_events
                                                                            : o.task_events)
          .push_back(p);
    }
    ASSIGN_OR_RETURN(auto reader, Google2011Reader::Open(o, spec.read));
    return std::unique_ptr<TraceReader>(std::move(reader));
  }
  if (format == "alibaba2018") {
    Alibaba2018Options o;
    o.batch_task = path;
    ASSIGN_OR_RETURN(auto reader, Alibaba2018Reader::Open(o, spec.read));
    return std::unique_ptr<TraceReader>(std::move(reader));
  }
  Alibaba2017Options o;
  o.cpu_per_core = spec.cpu_per_core;
  for (const std::string& p : spec.paths) {
    (Contains(std::filesystem::path(p).filename().string(), "batch_instance") ? o.batch_instance
                                                                              : o.batch_task) = p;
  }
  ASSIGN_OR_RETURN(auto reader, Alibaba2017Reader::Open(o, spec.read));
  return std::unique_ptr<TraceReader>(std::move(reader));
}

Result<ClusterPlan> ClusterOf(const TraceSpec& spec, ReadStats* stats) {
  ASSIGN_OR_RETURN(const std::string format, ResolveFormat(spec));
  if (spec.nodes <= 0 && !spec.nodes_path.empty() && format == "alibaba2017") {
    ASSIGN_OR_RETURN(ClusterTimeline t,
                     ReadAlibaba2017ServerEvents(spec.nodes_path, spec.read, stats));
    return ClusterPlan{std::move(t.nodes), std::move(t.events)};
  }
  ASSIGN_OR_RETURN(std::vector<TraceNode> nodes, ClusterNodes(spec, stats));
  return ClusterPlan{std::move(nodes), {}};
}

Result<std::vector<TraceNode>> ClusterNodes(const TraceSpec& spec, ReadStats* stats) {
  ASSIGN_OR_RETURN(const std::string format, ResolveFormat(spec));
  if (spec.nodes > 0) {
    UniformClusterOptions o;
    o.nodes = spec.nodes;
    o.memory_mb = spec.read.node_memory_mb;
    o.vcores = spec.read.node_vcores;
    o.nodes_per_rack = spec.nodes_per_rack;
    return MakeUniformNodes(o);
  }
  if (!spec.nodes_path.empty()) {
    if (format == "alibaba2017") {
      ASSIGN_OR_RETURN(ClusterTimeline t,
                       ReadAlibaba2017ServerEvents(spec.nodes_path, spec.read, stats));
      return std::move(t.nodes);
    }
    if (format == "alibaba2018") return ReadAlibaba2018Machines(spec.nodes_path, spec.read, stats);
    return hadoop::ReadSlsNodes(spec.nodes_path, SlsDefaults(spec));
  }
  if (format == "sls" && !spec.paths.empty()) {
    return hadoop::NodesFromSlsTrace(spec.paths.front(), SlsDefaults(spec));
  }
  if (format == "rumen" && !spec.paths.empty()) {
    return hadoop::NodesFromRumenTrace(spec.paths.front(), SlsDefaults(spec));
  }
  if (format == "synth" && !spec.paths.empty()) {
    hadoop::SynthReaderOptions o;
    o.read = spec.read;
    ASSIGN_OR_RETURN(auto reader, hadoop::SynthReader::Open(spec.paths.front(), o));
    std::vector<TraceNode> nodes = reader->Nodes(SlsDefaults(spec));
    if (!nodes.empty()) return nodes;
  }
  return Status::InvalidArgument("the " + format +
                                 " trace names no cluster: give --nodes N (of --node-shape) or "
                                 "--nodes-file F");
}

}  // namespace spindle::replay
