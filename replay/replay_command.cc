#include "replay/replay_command.h"

#include <glog/logging.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "replay/cell/staging_cell.h"
#include "replay/report/replay_recorder.h"
#include "replay/report/replay_writers.h"
#include "replay/trace/synthetic/parsync_phases_reader.h"
#include "replay/trace/synthetic/poisson_reader.h"
#include "replay/windtunnel/tunnel_driver.h"
#include "rm/config/configuration.h"
#include "rm/config/configuration_directory.h"
#include "rm/config/hadoop_line.h"
#include "rm/queues/queue_tree.h"
#include "rm/scheduling/resource_normalizer.h"

namespace spindle::replay {

namespace {

struct Plan {
  TraceSpec trace;
  std::string format;
  std::string queues_source;  // a capacity-scheduler.xml path or "a,b,c"
  ReplayMode mode = ReplayMode::kWindTunnel;
  TunnelRunOptions tunnel;
  pool::PoolOptions pool;
  std::vector<PolicySpec> policies;
  std::optional<pool::Resource> max_allocation;
  pool::Resource min_allocation = pool::Resource::Of(1024, 1);
  // --min-allocation given: the staging cell's Spindle RM uses it too (its
  // default is 1 MB, so that a trace's asks are not rounded up).
  bool min_allocation_given = false;
  std::string out;
  bool progress = true;
  // Staging cell.
  std::string spindle;
  std::string work_dir;
  int nm_processes = 1;
  std::chrono::milliseconds heartbeat{200};
  CellStore store = CellStore::kMemory;
  std::chrono::seconds run_timeout{3600};
  std::vector<ExternalRm> external_rms;
  std::optional<am_protocol::RmRetryPolicy> rm_retry;
  std::string hadoop_line = "3.3";
};

Result<std::pair<int64_t, int64_t>> ParseShape(const std::string& flag, const std::string& text) {
  const size_t comma = text.find(',');
  char* end = nullptr;
  const long long mb = std::strtoll(text.c_str(), &end, 10);
  if (comma == std::string::npos || end != text.c_str() + comma || mb <= 0) {
    return Status::InvalidArgument("--" + flag + " wants MB,VCORES, got '" + text + "'");
  }
  const long long vc = std::strtoll(text.c_str() + comma + 1, &end, 10);
  if (end != text.c_str() + text.size() || vc <= 0) {
    return Status::InvalidArgument("--" + flag + " wants MB,VCORES, got '" + text + "'");
  }
  return std::make_pair(static_cast<int64_t>(mb), static_cast<int64_t>(vc));
}

// The generators' parameters: passed to the trace catalog as typed.
constexpr const char* kGeneratorFlags[] = {
    "rate",         "phases",          "phase-seconds", "tasks-per-job",
    "task-seconds", "preferred-nodes", "jobs",          "mean-interarrival-ms",
    "job-size",     "task-duration"};

Result<Plan> MakePlan(const CommandLine& flags) {
  Plan p;
  p.trace.paths = flags.GetList("trace");
  p.trace.format = flags.GetString("format");
  p.trace.nodes_path = flags.GetString("nodes-file");
  p.trace.nodes = flags.GetInt("nodes");
  p.trace.nodes_per_rack = static_cast<int>(flags.GetInt("nodes-per-rack"));
  ASSIGN_OR_RETURN(auto shape, ParseShape("node-shape", flags.GetString("node-shape")));
  p.trace.read.node_memory_mb = shape.first;
  p.trace.read.node_vcores = static_cast<int32_t>(shape.second);
  ASSIGN_OR_RETURN(auto min_alloc, ParseShape("min-allocation", flags.GetString("min-allocation")));
  p.min_allocation = pool::Resource::Of(min_alloc.first, min_alloc.second);
  p.min_allocation_given = flags.Has("min-allocation");
  if (flags.Has("max-allocation")) {
    ASSIGN_OR_RETURN(auto max_alloc,
                     ParseShape("max-allocation", flags.GetString("max-allocation")));
    p.max_allocation = pool::Resource::Of(max_alloc.first, max_alloc.second);
  }
  p.trace.read.skip_bad = flags.GetBool("skip-bad");
  p.trace.read.max_jobs = flags.GetInt("max-jobs");
  p.trace.read.max_tasks_per_job = flags.GetInt("max-tasks-per-job");
  p.trace.read.max_arrival_ms = static_cast<int64_t>(flags.GetDouble("max-seconds") * 1000);
  p.trace.seed = static_cast<uint64_t>(flags.GetInt("seed"));
  for (const char* g : kGeneratorFlags) {
    if (flags.Has(g)) p.trace.params[g] = flags.GetString(g);
  }
  ASSIGN_OR_RETURN(p.format, ResolveFormat(p.trace));
  p.trace.format = p.format;
  p.queues_source = flags.GetString("queues");

  const std::string mode = flags.GetString("mode");
  if (mode == "windtunnel") {
    p.mode = ReplayMode::kWindTunnel;
  } else if (mode == "cell") {
    p.mode = ReplayMode::kCell;
  } else {
    return Status::InvalidArgument("--mode must be windtunnel or cell, got '" + mode + "'");
  }
  const std::string clock = flags.GetString("clock");
  if (clock != "virtual" && clock != "real") {
    return Status::InvalidArgument("--clock must be virtual or real, got '" + clock + "'");
  }
  p.tunnel.clock = clock == "real" ? TunnelClock::kReal : TunnelClock::kVirtual;
  p.tunnel.speed = flags.GetDouble("speed");
  p.tunnel.decision_cost = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double, std::micro>(flags.GetDouble("decision-cost-us")));
  p.tunnel.quality_cost_factor = flags.GetDouble("quality-cost-factor");
  p.tunnel.horizon = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(flags.GetDouble("horizon-seconds")));
  p.tunnel.stall_limit = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(flags.GetDouble("stall-seconds")));

  p.pool.num_schedulers = static_cast<int>(flags.GetInt("schedulers"));
  p.pool.num_partitions = static_cast<int>(flags.GetInt("partitions"));
  p.pool.sync_gap = std::chrono::milliseconds(flags.GetInt("gap-ms"));
  p.pool.tau = std::chrono::milliseconds(flags.GetInt("tau-ms"));
  p.pool.seed = p.trace.seed;
  for (const std::string& item : flags.GetList("compare")) {
    ASSIGN_OR_RETURN(PolicySpec policy, ParsePolicy(item));
    p.policies.push_back(policy);
  }
  if (p.policies.empty()) return Status::InvalidArgument("--compare is empty");
  p.spindle = flags.GetString("spindle");
  p.work_dir = flags.GetString("work-dir");
  if (!p.work_dir.empty()) {
    // The daemons' configuration names paths under it (local dirs must be
    // absolute in Hadoop's rules).
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(p.work_dir, ec);
    if (ec) return Status::InvalidArgument("--work-dir '" + p.work_dir + "': " + ec.message());
    p.work_dir = absolute.string();
  }
  p.nm_processes = static_cast<int>(flags.GetInt("nm-processes"));
  p.heartbeat = std::chrono::milliseconds(flags.GetInt("heartbeat-ms"));
  p.run_timeout = std::chrono::seconds(flags.GetInt("run-timeout-seconds"));
  const std::string store = flags.GetString("store");
  if (store != "memory" && store != "rocksdb") {
    return Status::InvalidArgument("--store must be memory or rocksdb, got '" + store + "'");
  }
  p.store = store == "rocksdb" ? CellStore::kRocksDb : CellStore::kMemory;
  p.hadoop_line = flags.GetString("hadoop-line");
  if (!rm::ParseHadoopLine(p.hadoop_line).has_value()) {
    return Status::InvalidArgument(
        "--hadoop-line must be 2.6, 2.7 or 3.3 (or a release of one), "
        "got '" +
        p.hadoop_line + "'");
  }
  if (flags.Has("rm") && flags.Has("rm-conf")) {
    return Status::InvalidArgument("--rm and --rm-conf both name the RMs: give one");
  }
  if (flags.Has("rm") || flags.Has("rm-conf")) {
    const char* flag = flags.Has("rm") ? "--rm" : "--rm-conf";
    if (p.mode != ReplayMode::kCell) {
      return Status::InvalidArgument(std::string(flag) + " needs --mode cell");
    }
    if (flags.Has("compare")) {
      return Status::InvalidArgument(std::string(flag) +
                                     " drives RMs as they are configured: --compare (Spindle's "
                                     "policies) does not apply");
    }
    if (flags.Has("rm")) {
      ASSIGN_OR_RETURN(p.external_rms, ParseExternalRms(flags.GetString("rm")));
    } else {
      // A Hadoop client's configuration: a $HADOOP_CONF_DIR or its
      // yarn-site.xml.
      const std::string path = flags.GetString("rm-conf");
      rm::Configuration conf;
      if (std::filesystem::is_directory(path)) {
        ASSIGN_OR_RETURN(conf, rm::LoadConfigurationDirectory(path));
      } else {
        RETURN_NOT_OK(conf.AddResourceFile(path));
      }
      Result<ExternalRmSet> set = ExternalRmsFromConfiguration(conf);
      if (!set.ok()) return set.status().WithContext("--rm-conf " + path);
      p.external_rms = std::move(set->rms);
      p.rm_retry = set->policy;
    }
    p.policies = {
        PolicySpec{"external", pool::SyncMode::kParSync, pool::StrategyKind::kLatencyFirst}};
  }
  p.out = flags.GetString("out");
  p.progress = !flags.GetBool("no-progress") && isatty(STDERR_FILENO);
  return p;
}

bool IsXmlPath(const std::string& source) {
  return source.size() > 4 && source.substr(source.size() - 4) == ".xml";
}

// The RM's scheduler configuration a replay runs with: the queue tree and
// the resource calculator (yarn.scheduler.capacity.resource-calculator,
// Hadoop's DefaultResourceCalculator when not set), read as the RM reads
// them.
struct SchedulerConf {
  rm::QueueTree tree;
  rm::ResourceCalculator calculator = rm::ResourceCalculator::kDefault;
  // What the tree was read from: the wind tunnel's RM reads it again.
  rm::Configuration conf;
};

Result<SchedulerConf> FromConfiguration(const rm::Configuration& conf) {
  ASSIGN_OR_RETURN(rm::QueueTree tree, rm::QueueTree::Parse(conf));
  rm::ResourceCalculator calculator = rm::ResourceCalculator::kDefault;
  if (auto name = conf.GetTrimmed(rm::kResourceCalculatorKey)) {
    ASSIGN_OR_RETURN(calculator, rm::ParseResourceCalculator(*name));
  }
  return SchedulerConf{std::move(tree), calculator, conf};
}

// A capacity-scheduler.xml, or "a,b,c" (equal shares, the default
// calculator, and an AM limit of the whole queue: a trace's jobs run as
// unmanaged AMs, which Hadoop 2.7/3.3 count at the minimum allocation
// against the AM limit (FiCaSchedulerApp), and a trace records no AM limit
// of its own; the default 10% would hold jobs pending that the traced
// cluster ran. The staging cell's generated queues do the same,
// cell_config.h. A capacity-scheduler.xml is the user's: its limits hold.)
Result<SchedulerConf> LoadQueues(const std::string& source) {
  rm::Configuration conf;
  if (IsXmlPath(source)) {
    RETURN_NOT_OK(conf.AddResourceFile(source));
    return FromConfiguration(conf);
  }
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= source.size()) {
    const size_t comma = source.find(',', start);
    std::string name = source.substr(start, comma == std::string::npos ? comma : comma - start);
    if (!name.empty()) names.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (names.empty()) return Status::InvalidArgument("--queues names no queue");
  std::string xml = "<configuration>";
  const auto prop = [&](const std::string& k, const std::string& v) {
    xml += "<property><name>yarn.scheduler.capacity." + k + "</name><value>" + v +
           "</value></property>";
  };
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ",") + n;
  prop("root.queues", list);
  prop("maximum-am-resource-percent", "1.0");
  // Equal shares summing to exactly 100: the last takes the rounding.
  double left = 100;
  for (size_t i = 0; i < names.size(); ++i) {
    const double share =
        i + 1 == names.size() ? left : static_cast<double>(int(10000.0 / names.size())) / 100;
    left -= share;
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.2f", share);
    prop("root." + names[i] + ".capacity", buf);
  }
  xml += "</configuration>";
  RETURN_NOT_OK(conf.AddResourceString(xml, "--queues " + source));
  return FromConfiguration(conf);
}

RecorderOptions RecordingFor(const std::vector<TraceNode>& nodes, const rm::QueueTree& tree) {
  RecorderOptions o;
  for (const TraceNode& n : nodes) {
    o.capacity_memory_mb += n.memory_mb;
    o.capacity_vcores += n.vcores;
  }
  for (const rm::CsQueue* leaf : tree.Leaves()) {
    o.queues.push_back({rm::QueueTree::PoolQueueName(*leaf), leaf->absolute_capacity});
  }
  return o;
}

// A one-line progress bar on stderr (a terminal only).
class ProgressBar {
 public:
  ProgressBar(bool enabled, std::string label) : enabled_(enabled), label_(std::move(label)) {}
  void Update(double fraction, Duration trace_time, int64_t jobs) {
    if (!enabled_) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    char eta[32] = "?";
    if (fraction > 0.001) {
      const auto left = static_cast<int64_t>(elapsed * (1 - fraction) / fraction);
      std::snprintf(eta, sizeof(eta), "%lld:%02lld", static_cast<long long>(left / 60),
                    static_cast<long long>(left % 60));
    }
    const int width = 30;
    const int filled = fraction < 0 ? 0 : static_cast<int>(fraction * width);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(stderr, "\r%-28s [%s] %5.1f%%  trace %.0fs  jobs %lld  ETA %s   ", label_.c_str(),
                 bar.c_str(), fraction < 0 ? 0.0 : 100 * fraction,
                 std::chrono::duration<double>(trace_time).count(), static_cast<long long>(jobs),
                 eta);
  }
  void Done() {
    if (enabled_) std::fprintf(stderr, "\n");
  }

 private:
  bool enabled_;
  std::string label_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Replays the trace under `policy`; *stats gets what the reader read.
Result<ReplayModeResult> RunOne(const Plan& plan, const PolicySpec& policy,
                                const std::vector<TraceNode>& nodes, const SchedulerConf& sched,
                                ReadStats* stats_out) {
  const rm::QueueTree& tree = sched.tree;
  ASSIGN_OR_RETURN(std::unique_ptr<TraceReader> reader, OpenTrace(plan.trace));
  ReplayRecorder recorder(RecordingFor(nodes, tree));
  ProgressBar bar(plan.progress, policy.label);
  ReplayModeResult result;
  if (plan.mode == ReplayMode::kWindTunnel) {
    TunnelSetup setup;
    setup.rm.pool = plan.pool;
    setup.rm.pool.mode = policy.mode;
    setup.rm.pool.strategy = policy.strategy;
    setup.rm.conf = sched.conf;
    setup.rm.calculator = sched.calculator;
    setup.rm.min_allocation = plan.min_allocation;
    setup.rm.max_allocation = plan.max_allocation;
    setup.nodes = nodes;
    TunnelRunOptions run = plan.tunnel;
    const Duration horizon = plan.tunnel.horizon;
    TraceReader* r = reader.get();
    run.progress = [&bar, r, horizon](Duration t, int64_t jobs) {
      double f = r->Progress();
      if (horizon > Duration(0)) f = std::chrono::duration<double>(t) / horizon;
      bar.Update(f, t, jobs);
    };
    ASSIGN_OR_RETURN(result, RunWindTunnel(run, setup, reader.get(), &recorder));
  } else {
    CellOptions cell;
    cell.spindle_binary = plan.spindle;
    cell.work_dir = plan.work_dir + "/" + policy.label;
    for (char& c : cell.work_dir) {
      if (c == ':') c = '_';
    }
    cell.nodes = nodes;
    if (IsXmlPath(plan.queues_source)) {
      cell.capacity_scheduler_xml = plan.queues_source;
    } else {
      for (const rm::CsQueue* leaf : tree.Leaves()) {
        cell.queues.push_back(CellQueue{leaf->name, 100 * leaf->absolute_capacity, 100});
      }
    }
    cell.speed = plan.tunnel.speed;
    cell.nm_processes = plan.nm_processes;
    cell.heartbeat_interval = plan.heartbeat;
    cell.store = plan.store;
    cell.run_timeout = plan.run_timeout;
    cell.label = policy.label;
    cell.external_rms = plan.external_rms;
    cell.rm_retry = plan.rm_retry;
    cell.hadoop_line = plan.hadoop_line;
    // The policy compared, as the RM reads it from yarn-site.xml.
    cell.extra_rm_config = {{"spindle.scheduler.mode", pool::SyncModeName(policy.mode)},
                            {"spindle.scheduler.strategy", pool::StrategyKindName(policy.strategy)},
                            {"spindle.scheduler.count", std::to_string(plan.pool.num_schedulers)},
                            {"spindle.scheduler.partitions",
                             std::to_string(std::min<int64_t>(plan.pool.num_partitions,
                                                              static_cast<int64_t>(nodes.size())))},
                            {"spindle.scheduler.sync-gap-ms",
                             std::to_string(plan.pool.sync_gap / std::chrono::milliseconds(1))},
                            {"spindle.scheduler.adaptive.tau-ms",
                             std::to_string(plan.pool.tau / std::chrono::milliseconds(1))}};
    if (plan.min_allocation_given) {
      // AM limits count an unmanaged AM at the minimum allocation and user
      // limits round up to it: a scenario's figures depend on it.
      cell.extra_rm_config["yarn.scheduler.minimum-allocation-mb"] =
          std::to_string(plan.min_allocation.memory_mb());
      cell.extra_rm_config["yarn.scheduler.minimum-allocation-vcores"] =
          std::to_string(plan.min_allocation.vcores());
    }
    if (policy.mode == pool::SyncMode::kParSync || policy.mode == pool::SyncMode::kSameSync) {
      cell.extra_rm_config["spindle.scheduler.count"] = std::to_string(std::min<int64_t>(
          plan.pool.num_schedulers,
          std::min<int64_t>(plan.pool.num_partitions, static_cast<int64_t>(nodes.size()))));
    }
    ASSIGN_OR_RETURN(result, RunStagingCell(cell, reader.get(), &recorder));
  }
  bar.Done();
  result.label = policy.label;
  const ReadStats& stats = reader->stats();
  *stats_out = stats;
  if (stats.skipped > 0) {
    result.violations.push_back(std::to_string(stats.skipped) +
                                " malformed trace records skipped (--skip-bad); first: " +
                                (stats.examples.empty() ? "" : stats.examples.front()));
  }
  return result;
}

std::string Describe(const ReadStats& s) {
  std::string d = std::to_string(s.jobs) + " jobs, " + std::to_string(s.tasks) + " tasks";
  if (s.lines > 0) d += ", " + std::to_string(s.lines) + " records read";
  if (s.skipped > 0) d += ", " + std::to_string(s.skipped) + " skipped";
  for (const auto& [why, n] : s.dropped) d += ", " + std::to_string(n) + " dropped (" + why + ")";
  return d;
}

// What the flags name, opened before anything runs: an error here is the
// user's to fix (a missing file, phases without a cluster, a bad queue file).
struct Inputs {
  std::vector<TraceNode> nodes;
  SchedulerConf sched;
  std::string description;  // the trace, as its reader describes it
};

Result<Inputs> OpenInputs(const Plan& plan) {
  ASSIGN_OR_RETURN(std::vector<TraceNode> nodes, ClusterNodes(plan.trace));
  ASSIGN_OR_RETURN(SchedulerConf sched, LoadQueues(plan.queues_source));
  ASSIGN_OR_RETURN(std::unique_ptr<TraceReader> probe, OpenTrace(plan.trace));
  return Inputs{std::move(nodes), std::move(sched), probe->Describe()};
}

Result<ReplayReport> Run(Plan plan, const Inputs& inputs) {
  std::string made_dir;
  if (plan.mode == ReplayMode::kCell && plan.work_dir.empty()) {
    char tmpl[] = "/tmp/spindle-cell.XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return Status::IoError("cannot make a work dir under /tmp");
    plan.work_dir = made_dir = tmpl;
  }
  const std::vector<TraceNode>& nodes = inputs.nodes;
  ReplayReport report;
  report.title = "spindle replay: " + inputs.description;
  int64_t memory = 0;
  int64_t vcores = 0;
  for (const TraceNode& n : nodes) {
    memory += n.memory_mb;
    vcores += n.vcores;
  }
  const bool tunnel = plan.mode == ReplayMode::kWindTunnel;
  report.settings = {
      {"format", plan.format},
      {"mode", tunnel ? "windtunnel" : "cell"},
      {"clock",
       tunnel ? (plan.tunnel.clock == TunnelClock::kVirtual ? "virtual" : "real") : "real"},
      {"cluster", std::to_string(nodes.size()) + " nodes, " + std::to_string(memory) + " MB, " +
                      std::to_string(vcores) + " vcores"},
      {"queues", plan.queues_source},
      {"resource calculator", std::string(rm::ResourceCalculatorClass(inputs.sched.calculator))},
      {"seed", std::to_string(plan.trace.seed)}};
  if (!tunnel || plan.tunnel.clock == TunnelClock::kReal) {
    {
      char speed[32];
      std::snprintf(speed, sizeof(speed), "%g", plan.tunnel.speed);
      report.settings.push_back({"speed", speed});
    }
  }
  if (tunnel) {
    report.settings.push_back(
        {"pool", "N=" + std::to_string(plan.pool.num_schedulers) +
                     " P=" + std::to_string(plan.pool.num_partitions) +
                     " G=" + std::to_string(plan.pool.sync_gap / std::chrono::milliseconds(1)) +
                     "ms tau=" + std::to_string(plan.pool.tau / std::chrono::milliseconds(1)) +
                     "ms"});
    if (plan.tunnel.clock == TunnelClock::kVirtual) {
      report.settings.push_back(
          {"decision cost",
           std::to_string(plan.tunnel.decision_cost / std::chrono::microseconds(1)) + " us"});
    }
  }
  ReadStats stats;
  for (const PolicySpec& policy : plan.policies) {
    ASSIGN_OR_RETURN(ReplayModeResult r, RunOne(plan, policy, nodes, inputs.sched, &stats));
    report.modes.push_back(std::move(r));
  }
  // Every run reads the whole trace (unless a horizon stopped it early).
  report.settings.push_back({"trace", Describe(stats)});
  if (plan.mode == ReplayMode::kCell) {
    bool clean = true;
    for (const ReplayModeResult& m : report.modes) clean = clean && m.violations.empty();
    if (!made_dir.empty() && clean) {
      std::error_code ec;
      std::filesystem::remove_all(made_dir, ec);
    } else {
      // Kept: the daemons' logs and configs tell what went wrong.
      report.settings.push_back({"cell files", plan.work_dir});
    }
  }
  return report;
}

}  // namespace

Result<PolicySpec> ParsePolicy(const std::string& item) {
  PolicySpec p;
  p.label = item;
  const size_t colon = item.find(':');
  auto mode = pool::ParseSyncMode(item.substr(0, colon));
  if (!mode.ok()) return Status::InvalidArgument("--compare: " + mode.status().message());
  p.mode = *mode;
  if (colon != std::string::npos) {
    auto strategy = pool::ParseStrategy(item.substr(colon + 1));
    if (!strategy.ok()) return Status::InvalidArgument("--compare: " + strategy.status().message());
    p.strategy = *strategy;
  }
  return p;
}

const CommandSpec& ReplayCommand() {
  static const ParSyncPhasesOptions kPhases;
  static const PoissonOptions kPoisson;
  static const CommandSpec kSpec{
      "replay",
      "replay a trace against Spindle's scheduling (replay/README.md)",
      {
          // What to replay and on what.
          FlagSpec::List("trace", "FILE[,FILE]", "",
                         "the trace (google2011: task_events then job_events)"),
          FlagSpec::String("format", "FORMAT", "",
                           "sls, rumen, synth, google2011, alibaba2018, alibaba2017, phases or "
                           "poisson")
              .ComputedDefault("guessed from the file name"),
          FlagSpec::String("nodes-file", "FILE", "",
                           "the cluster: SLS nodes JSON or Alibaba machine_meta.csv"),
          FlagSpec::Int("nodes", 0, "a generated uniform cluster of N nodes (0: none)")
              .InRange(0, 1e8),
          FlagSpec::Int("nodes-per-rack", 40, "racks of the generated cluster").InRange(1, 1e8),
          FlagSpec::String("node-shape", "MB,VCORES", "65536,32",
                           "the node shape normalised traces are mapped onto, and the generated "
                           "nodes' shape"),
          FlagSpec::String("queues", "FILE.xml|A,B,...", "default",
                           "a capacity-scheduler.xml, or queue names with equal shares"),
          FlagSpec::Switch("skip-bad", "skip (and count) records that cannot be read"),
          FlagSpec::Int("max-jobs", 0, "read at most N jobs (0: all)").InRange(0, 1e12),
          FlagSpec::Int("max-tasks-per-job", 1'000'000,
                        "a trace record giving a job more tasks is an error (bounds memory)")
              .InRange(1, 1e9),
          FlagSpec::Double("max-seconds", 0, "jobs arriving later are not read (0: all)")
              .InRange(0, 1e9),
          FlagSpec::Int("seed", 1, "random seed"),
          FlagSpec::String("min-allocation", "MB,VCORES", "1024,1",
                           "asks are rounded up to this (cell: given, the Spindle RM's "
                           "yarn.scheduler.minimum-allocation-*; else 1 MB)"),
          FlagSpec::String("max-allocation", "MB,VCORES", "",
                           "tasks above it are rejected, as YARN rejects them")
              .ComputedDefault("the largest node"),
          // Generators.
          FlagSpec::String("rate", "X", "", "phases: jobs/s at 100%")
              .ComputedDefault(FormatFlagNumber(kPhases.base_rate)),
          FlagSpec::String("phases", "PERCENT,...", "", "phases: each phase's load, in % of --rate")
              .ComputedDefault([] {
                std::string out;
                for (double f : kPhases.fractions)
                  out += (out.empty() ? "" : ",") + FormatFlagNumber(f * 100);
                return out;
              }()),
          FlagSpec::String("phase-seconds", "S", "", "phases: length of a phase")
              .ComputedDefault(
                  FormatFlagNumber(static_cast<double>(kPhases.phase_length_ms) / 1000)),
          FlagSpec::String("tasks-per-job", "N", "", "phases: tasks per job")
              .ComputedDefault(std::to_string(kPhases.tasks_per_job)),
          FlagSpec::String("task-seconds", "S", "", "phases: task duration")
              .ComputedDefault(
                  FormatFlagNumber(static_cast<double>(kPhases.task_duration_ms) / 1000)),
          FlagSpec::String("preferred-nodes", "N", "", "preferred nodes per task")
              .ComputedDefault(std::to_string(kPhases.preferred_nodes) + " for phases, " +
                               std::to_string(kPoisson.preferred_nodes) + " for poisson"),
          FlagSpec::String("jobs", "N", "", "poisson: jobs generated")
              .ComputedDefault(std::to_string(kPoisson.jobs)),
          FlagSpec::String("mean-interarrival-ms", "MS", "", "poisson: mean gap between jobs")
              .ComputedDefault(FormatFlagNumber(1000 / kPoisson.jobs_per_second)),
          FlagSpec::String("job-size", "DIST", "",
                           "poisson: tasks per job, fixed:V, uniform:LOW:HIGH, exponential:MEAN "
                           "or lognormal:MEAN:SIGMA")
              .ComputedDefault(kPoisson.tasks_per_job.ToString()),
          FlagSpec::String("task-duration", "DIST", "",
                           "poisson: task duration in ms (as --job-size)")
              .ComputedDefault(kPoisson.task_duration_ms.ToString()),
          // How.
          FlagSpec::String("mode", "windtunnel|cell", "windtunnel",
                           "one process, or real spindle rm and spindle nm processes"),
          FlagSpec::String("clock", "virtual|real", "virtual",
                           "windtunnel: deterministic discrete events, or the pool's threads on "
                           "the system clock"),
          FlagSpec::Double("speed", 1, "times faster than the trace (real clock, cell)")
              .InRange(1e-3, 1e6),
          FlagSpec::List("compare", "MODE[:STRATEGY],...", "parsync:latency-first",
                         "policies replayed on the same jobs"),
          FlagSpec::Int("schedulers", 20, "schedulers (capped by the cluster's size)")
              .InRange(1, 1e6),
          FlagSpec::Int("partitions", 20, "partitions (capped by the cluster's size)")
              .InRange(1, 1e6),
          FlagSpec::Int("gap-ms", 500, "sync gap").InRange(0, 1e9),
          FlagSpec::Int("tau-ms", 2000, "adaptive's tau").InRange(0, 1e9),
          FlagSpec::Double("decision-cost-us", 250,
                           "virtual clock: simulated cost of one scheduling decision")
              .InRange(0, 1e7),
          FlagSpec::Double("quality-cost-factor", 1,
                           "quality-first decisions cost this many times more")
              .InRange(0.01, 1000),
          FlagSpec::Double("horizon-seconds", 0, "stop at this trace time (0: the end)")
              .InRange(0, 1e9),
          FlagSpec::Double("stall-seconds", 3600,
                           "stop when nothing moves while tasks wait this long (a violation)")
              .InRange(1, 1e9),
          // Staging cell.
          FlagSpec::Int("nm-processes", 1, "cell: spindle nm processes").InRange(1, 1e4),
          FlagSpec::Int("heartbeat-ms", 200, "cell: node heartbeat interval").InRange(1, 1e9),
          FlagSpec::String("spindle", "FILE", "/proc/self/exe", "cell: the spindle binary to run"),
          FlagSpec::String("work-dir", "DIR", "", "cell: the processes' configuration and logs")
              .ComputedDefault("a fresh directory under the system temp dir"),
          FlagSpec::String("store", "memory|rocksdb", "memory", "cell: the RM's state store"),
          FlagSpec::Int("run-timeout-seconds", 3600, "cell: bound on one run").InRange(1, 1e9),
          FlagSpec::String("rm", "HOST|CLIENT,SCHEDULER,TRACKER[;...]", "",
                           "cell: drive this RM (e.g. a Java RM) instead of starting spindle rm; "
                           "several (HOST1,HOST2 or ';' between address triples): an HA pair's "
                           "rm-ids in order, failed over as Hadoop's RMProxy does")
              .ComputedDefault("a spindle rm child"),
          FlagSpec::String("rm-conf", "DIR|yarn-site.xml", "",
                           "cell: drive the RMs a Hadoop client with this configuration reaches "
                           "(yarn.resourcemanager.ha.rm-ids and each rm-id's addresses, RMProxy's "
                           "retry keys) instead of starting spindle rm")
              .ComputedDefault("a spindle rm child"),
          FlagSpec::String("hadoop-line", "2.6|2.7|3.3", "3.3",
                           "cell: the RM's Hadoop line (what its nodes may call; the spindle "
                           "child's spindle.compat.hadoop-version)"),
          // Output.
          FlagSpec::String("out", "DIR", "",
                           "also write summary.txt, report.json, series.csv and report.html here"),
          FlagSpec::Switch("no-progress", "no progress bar"),
          FlagSpec::Switch("verbose", "keep the RM core's INFO log"),
      },
      "exit status: 0, 1 when a run reports a violation (a task placed twice, tasks that could "
      "never be placed, records skipped) or fails, 2 for a usage error"};
  return kSpec;
}

int ReplayMain(const CommandLine& flags) {
  constexpr char kName[] = "replay";
  // The RM core logs each application's life at INFO: a replay of a
  // million jobs would drown the table in it. --verbose keeps it.
  if (!flags.GetBool("verbose")) FLAGS_minloglevel = std::max(FLAGS_minloglevel, 1);
  auto plan = MakePlan(flags);
  if (!plan.ok()) return ReportUsageError(kName, plan.status());
  auto inputs = OpenInputs(*plan);
  if (!inputs.ok()) return ReportUsageError(kName, inputs.status());
  auto report = Run(*plan, *inputs);
  if (!report.ok()) return ReportFailure(kName, report.status());
  std::fputs(ToSummaryTable(*report).c_str(), stdout);
  if (!plan->out.empty()) {
    const Status s = WriteReportFiles(plan->out, *report);
    if (!s.ok()) return ReportFailure(kName, s);
    std::printf("report: %s/report.html (also summary.txt, report.json, series.csv)\n",
                plan->out.c_str());
  }
  for (const ReplayModeResult& m : report->modes) {
    if (!m.violations.empty()) return kExitFailure;
  }
  return kExitOk;
}

}  // namespace spindle::replay
