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
#include "replay/windtunnel/tunnel_driver.h"
#include "rm/config/configuration.h"
#include "rm/queues/queue_tree.h"

namespace spindle::replay {

namespace {

const std::set<std::string>& KnownFlags() {
  static const std::set<std::string> kFlags = {
      // What to replay and on what.
      "trace", "format", "nodes-file", "nodes", "nodes-per-rack", "node-shape", "queues",
      "skip-bad", "max-jobs", "max-seconds", "seed", "min-allocation", "max-allocation",
      // Generators.
      "rate", "phases", "phase-seconds", "tasks-per-job", "task-seconds", "preferred-nodes", "jobs",
      "mean-interarrival-ms", "job-size", "task-duration", "queue-names",
      // How.
      "mode", "clock", "speed", "compare", "schedulers", "partitions", "gap-ms", "tau-ms",
      "decision-cost-us", "quality-cost-factor", "horizon-seconds", "stall-seconds",
      // Staging cell.
      "nm-processes", "heartbeat-ms", "spindle", "work-dir", "store", "run-timeout-seconds",
      // Output.
      "out", "no-progress", "verbose"};
  return kFlags;
}

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
  std::string out;
  bool progress = true;
  // Staging cell.
  std::string spindle;
  std::string work_dir;
  int nm_processes = 1;
  std::chrono::milliseconds heartbeat{200};
  CellStore store = CellStore::kMemory;
  std::chrono::seconds run_timeout{3600};
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

Result<Plan> MakePlan(const CommandLine& flags) {
  RETURN_NOT_OK(flags.CheckKnown(KnownFlags()));
  Plan p;
  p.trace.paths = flags.GetList("trace");
  p.trace.format = flags.GetString("format", "");
  p.trace.nodes_path = flags.GetString("nodes-file", "");
  ASSIGN_OR_RETURN(p.trace.nodes, flags.GetInt("nodes", 0));
  ASSIGN_OR_RETURN(int64_t per_rack, flags.GetInt("nodes-per-rack", 40));
  if (p.trace.nodes < 0 || per_rack <= 0) {
    return Status::InvalidArgument("--nodes must be >= 0 and --nodes-per-rack > 0");
  }
  p.trace.nodes_per_rack = static_cast<int>(per_rack);
  ASSIGN_OR_RETURN(auto shape, ParseShape("node-shape", flags.GetString("node-shape", "65536,32")));
  p.trace.read.node_memory_mb = shape.first;
  p.trace.read.node_vcores = static_cast<int32_t>(shape.second);
  ASSIGN_OR_RETURN(auto min_alloc,
                   ParseShape("min-allocation", flags.GetString("min-allocation", "1024,1")));
  p.min_allocation = pool::Resource::Of(min_alloc.first, min_alloc.second);
  if (flags.Has("max-allocation")) {
    ASSIGN_OR_RETURN(auto max_alloc,
                     ParseShape("max-allocation", flags.GetString("max-allocation", "")));
    p.max_allocation = pool::Resource::Of(max_alloc.first, max_alloc.second);
  }
  p.trace.read.skip_bad = flags.Has("skip-bad");
  ASSIGN_OR_RETURN(p.trace.read.max_jobs, flags.GetInt("max-jobs", 0));
  ASSIGN_OR_RETURN(double max_seconds, flags.GetDouble("max-seconds", 0, 0, 1e9));
  p.trace.read.max_arrival_ms = static_cast<int64_t>(max_seconds * 1000);
  ASSIGN_OR_RETURN(int64_t seed, flags.GetInt("seed", 1));
  p.trace.seed = static_cast<uint64_t>(seed);
  for (const char* g :
       {"rate", "phases", "phase-seconds", "tasks-per-job", "task-seconds", "preferred-nodes",
        "jobs", "mean-interarrival-ms", "job-size", "task-duration", "queue-names"}) {
    if (flags.Has(g)) p.trace.params[g] = flags.GetString(g, "");
  }
  ASSIGN_OR_RETURN(p.format, ResolveFormat(p.trace));
  p.trace.format = p.format;
  p.queues_source = flags.GetString("queues", "default");

  const std::string mode = flags.GetString("mode", "windtunnel");
  if (mode == "windtunnel") {
    p.mode = ReplayMode::kWindTunnel;
  } else if (mode == "cell") {
    p.mode = ReplayMode::kCell;
  } else {
    return Status::InvalidArgument("--mode must be windtunnel or cell, got '" + mode + "'");
  }
  const std::string clock = flags.GetString("clock", "virtual");
  if (clock != "virtual" && clock != "real") {
    return Status::InvalidArgument("--clock must be virtual or real, got '" + clock + "'");
  }
  p.tunnel.clock = clock == "real" ? TunnelClock::kReal : TunnelClock::kVirtual;
  ASSIGN_OR_RETURN(p.tunnel.speed, flags.GetDouble("speed", 1, 1e-3, 1e6));
  ASSIGN_OR_RETURN(double cost_us, flags.GetDouble("decision-cost-us", 250, 0, 1e7));
  p.tunnel.decision_cost =
      std::chrono::duration_cast<Duration>(std::chrono::duration<double, std::micro>(cost_us));
  ASSIGN_OR_RETURN(p.tunnel.quality_cost_factor,
                   flags.GetDouble("quality-cost-factor", 1, 0.01, 1000));
  ASSIGN_OR_RETURN(double horizon, flags.GetDouble("horizon-seconds", 0, 0, 1e9));
  p.tunnel.horizon = std::chrono::duration_cast<Duration>(std::chrono::duration<double>(horizon));
  ASSIGN_OR_RETURN(double stall, flags.GetDouble("stall-seconds", 3600, 1, 1e9));
  p.tunnel.stall_limit = std::chrono::duration_cast<Duration>(std::chrono::duration<double>(stall));

  ASSIGN_OR_RETURN(int64_t schedulers, flags.GetInt("schedulers", 20));
  ASSIGN_OR_RETURN(int64_t partitions, flags.GetInt("partitions", 20));
  ASSIGN_OR_RETURN(int64_t gap_ms, flags.GetInt("gap-ms", 500));
  ASSIGN_OR_RETURN(int64_t tau_ms, flags.GetInt("tau-ms", 2000));
  p.pool.num_schedulers = static_cast<int>(schedulers);
  p.pool.num_partitions = static_cast<int>(partitions);
  p.pool.sync_gap = std::chrono::milliseconds(gap_ms);
  p.pool.tau = std::chrono::milliseconds(tau_ms);
  p.pool.seed = p.trace.seed;
  for (const std::string& item : flags.GetList("compare", {"parsync:latency-first"})) {
    ASSIGN_OR_RETURN(PolicySpec policy, ParsePolicy(item));
    p.policies.push_back(policy);
  }
  if (p.policies.empty()) return Status::InvalidArgument("--compare is empty");
  p.spindle = flags.GetString("spindle", "/proc/self/exe");
  p.work_dir = flags.GetString("work-dir", "");
  ASSIGN_OR_RETURN(int64_t nm_processes, flags.GetInt("nm-processes", 1));
  ASSIGN_OR_RETURN(int64_t heartbeat_ms, flags.GetInt("heartbeat-ms", 200));
  ASSIGN_OR_RETURN(int64_t run_timeout_s, flags.GetInt("run-timeout-seconds", 3600));
  if (nm_processes < 1 || heartbeat_ms < 1 || run_timeout_s < 1) {
    return Status::InvalidArgument(
        "--nm-processes, --heartbeat-ms and --run-timeout-seconds must be >= 1");
  }
  p.nm_processes = static_cast<int>(nm_processes);
  p.heartbeat = std::chrono::milliseconds(heartbeat_ms);
  p.run_timeout = std::chrono::seconds(run_timeout_s);
  const std::string store = flags.GetString("store", "memory");
  if (store != "memory" && store != "rocksdb") {
    return Status::InvalidArgument("--store must be memory or rocksdb, got '" + store + "'");
  }
  p.store = store == "rocksdb" ? CellStore::kRocksDb : CellStore::kMemory;
  p.out = flags.GetString("out", "");
  p.progress = !flags.Has("no-progress") && isatty(STDERR_FILENO);
  return p;
}

bool IsXmlPath(const std::string& source) {
  return source.size() > 4 && source.substr(source.size() - 4) == ".xml";
}

// The queue tree: a capacity-scheduler.xml, or "a,b,c" (equal shares).
Result<rm::QueueTree> LoadQueues(const std::string& source) {
  rm::Configuration conf;
  if (IsXmlPath(source)) {
    RETURN_NOT_OK(conf.AddResourceFile(source));
    return rm::QueueTree::Parse(conf);
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
  return rm::QueueTree::Parse(conf);
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
                                const std::vector<TraceNode>& nodes, const rm::QueueTree& tree,
                                ReadStats* stats_out) {
  ASSIGN_OR_RETURN(std::unique_ptr<TraceReader> reader, OpenTrace(plan.trace));
  ReplayRecorder recorder(RecordingFor(nodes, tree));
  ProgressBar bar(plan.progress, policy.label);
  ReplayModeResult result;
  if (plan.mode == ReplayMode::kWindTunnel) {
    TunnelSetup setup;
    setup.pool = plan.pool;
    setup.pool.mode = policy.mode;
    setup.pool.strategy = policy.strategy;
    setup.nodes = nodes;
    setup.queues = &tree;
    setup.min_allocation = plan.min_allocation;
    setup.max_allocation = plan.max_allocation;
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

Result<ReplayReport> Run(Plan plan) {
  std::string made_dir;
  if (plan.mode == ReplayMode::kCell && plan.work_dir.empty()) {
    char tmpl[] = "/tmp/spindle-cell.XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return Status::IoError("cannot make a work dir under /tmp");
    plan.work_dir = made_dir = tmpl;
  }
  ASSIGN_OR_RETURN(std::vector<TraceNode> nodes, ClusterNodes(plan.trace));
  ASSIGN_OR_RETURN(rm::QueueTree tree, LoadQueues(plan.queues_source));
  ReplayReport report;
  ASSIGN_OR_RETURN(std::unique_ptr<TraceReader> probe, OpenTrace(plan.trace));
  report.title = "spindle replay: " + probe->Describe();
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
    ASSIGN_OR_RETURN(ReplayModeResult r, RunOne(plan, policy, nodes, tree, &stats));
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

int ReplayMain(const CommandLine& flags) {
  // The RM core logs each application's life at INFO: a replay of a
  // million jobs would drown the table in it. --verbose keeps it.
  if (!flags.Has("verbose")) FLAGS_minloglevel = std::max(FLAGS_minloglevel, 1);
  auto plan = MakePlan(flags);
  if (!plan.ok()) {
    std::fprintf(stderr, "spindle replay: %s\n", plan.status().ToString().c_str());
    return 2;
  }
  auto report = Run(*plan);
  if (!report.ok()) {
    std::fprintf(stderr, "spindle replay: %s\n", report.status().ToString().c_str());
    return 2;
  }
  std::fputs(ToSummaryTable(*report).c_str(), stdout);
  if (!plan->out.empty()) {
    const Status s = WriteReportFiles(plan->out, *report);
    if (!s.ok()) {
      std::fprintf(stderr, "spindle replay: %s\n", s.ToString().c_str());
      return 2;
    }
    std::printf("report: %s/report.html (also summary.txt, report.json, series.csv)\n",
                plan->out.c_str());
  }
  for (const ReplayModeResult& m : report->modes) {
    if (!m.violations.empty()) return 1;
  }
  return 0;
}

}  // namespace spindle::replay
