#include "replay/replay_command.h"

#include <glog/logging.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
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
  // stderr is a terminal: the bar; else a line every progress_every.
  bool tty = false;
  std::chrono::duration<double> progress_every{5};
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
  p.trace.cpu_per_core = flags.GetDouble("plan-cpu-per-core");
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
  p.progress = !flags.GetBool("no-progress");
  p.tty = isatty(STDERR_FILENO) != 0;
  p.progress_every = std::chrono::duration<double>(flags.GetDouble("progress-seconds"));
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

// SIGINT / SIGTERM while a wind-tunnel replay runs: the run in progress
// stops where it is (cut), the policies after it are not run, and what was
// replayed is reported and written. A second signal ends the process
// (SA_RESETHAND).
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};

void OnStopSignal(int signo) {
  g_signal.store(signo, std::memory_order_relaxed);
  g_stop.store(true, std::memory_order_relaxed);
}

void CatchStopSignals() {
  struct sigaction action = {};
  action.sa_handler = &OnStopSignal;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

std::string Hms(double seconds) {
  const auto s = static_cast<int64_t>(seconds);
  char out[32];
  std::snprintf(out, sizeof(out), "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  return out;
}

// Progress on stderr: on a terminal a bar redrawn in place, otherwise (a log
// under nohup, a pipe) a line every `every` of wall time. Both go by trace
// time, never by bytes read (a reader reads ahead: a small file is read
// whole at the first job): the fraction is the trace time reached over the
// trace's length as far as it is known — the horizon if given, else the
// latest arrival read so far over the share of the input read (exact once
// the input is read; a run past its last arrival shows at most 99%), else
// the generator's share of jobs made.
class ProgressReporter {
 public:
  ProgressReporter(const Plan& plan, std::string label, const TraceReader* reader)
      : enabled_(plan.progress),
        tty_(plan.tty),
        every_(plan.progress_every),
        label_(std::move(label)),
        reader_(reader),
        horizon_s_(std::chrono::duration<double>(plan.tunnel.horizon).count()) {}

  void Update(Duration trace_time, int64_t jobs) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!tty_ && now - last_line_ < every_) return;
    last_line_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double t = std::chrono::duration<double>(trace_time).count();
    double span = -1;
    const double fraction = Fraction(t, &span);
    std::string eta = "?";
    if (fraction > 0.001) eta = Hms(elapsed * (1 - fraction) / fraction);
    const double rate = elapsed > 0 ? t / elapsed : 0;
    const long long tasks = static_cast<long long>(reader_->stats().tasks);
    if (tty_) {
      const int width = 30;
      const int filled = fraction < 0 ? 0 : static_cast<int>(fraction * width);
      std::string bar(static_cast<size_t>(filled), '#');
      bar.resize(width, '.');
      std::fprintf(stderr, "\r%-28s [%s] %5.1f%%  trace %.0fs  jobs %lld  ETA %s   ",
                   label_.c_str(), bar.c_str(), fraction < 0 ? 0.0 : 100 * fraction, t,
                   static_cast<long long>(jobs), eta.c_str());
      return;
    }
    std::string of = span > 0 ? " of ~" + std::to_string(std::llround(span)) + "s" : "";
    if (fraction >= 0) {
      char pct[32];
      std::snprintf(pct, sizeof(pct), " (%.1f%%)", 100 * fraction);
      of += pct;
    }
    std::fprintf(stderr,
                 "replay %s: trace %.0fs%s, %lld jobs submitted, %lld tasks read, %.1f trace "
                 "s/s, wall %s, ETA %s\n",
                 label_.c_str(), t, of.c_str(), static_cast<long long>(jobs), tasks, rate,
                 Hms(elapsed).c_str(), eta.c_str());
    std::fflush(stderr);
  }

  void Done() {
    if (enabled_ && tty_) std::fprintf(stderr, "\n");
  }

 private:
  double Fraction(double t, double* span) const {
    if (horizon_s_ > 0) {
      *span = horizon_s_;
      return std::min(1.0, t / horizon_s_);
    }
    const double read = reader_->Progress();
    const int64_t ahead_ms = reader_->ReadAheadArrivalMs();
    if (ahead_ms > 0 && read > 0) {
      *span = static_cast<double>(ahead_ms) / 1000 / std::min(1.0, read);
      return std::min(0.99, t / *span);
    }
    // A generator's share of jobs made (its last tasks still run at 1).
    return read < 0 ? read : std::min(0.99, read);
  }

  const bool enabled_;
  const bool tty_;
  const std::chrono::duration<double> every_;
  const std::string label_;
  const TraceReader* reader_;
  const double horizon_s_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_line_ = start_;
};

// Replays the trace under `policy`; *stats gets what the reader read.
Result<ReplayModeResult> RunOne(const Plan& plan, const PolicySpec& policy,
                                const std::vector<TraceNode>& nodes,
                                const std::vector<TraceNodeEvent>& node_events,
                                const SchedulerConf& sched, ReadStats* stats_out) {
  const rm::QueueTree& tree = sched.tree;
  ASSIGN_OR_RETURN(std::unique_ptr<TraceReader> reader, OpenTrace(plan.trace));
  ReplayRecorder recorder(RecordingFor(nodes, tree));
  ProgressReporter bar(plan, policy.label, reader.get());
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
    setup.node_events = node_events;
    TunnelRunOptions run = plan.tunnel;
    run.stop = &g_stop;
    run.progress = [&bar](Duration t, int64_t jobs) { bar.Update(t, jobs); };
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
  *stats_out = reader->stats();
  return result;
}

// What reading took liberties with, for the report's warnings.
void AddWarnings(const std::string& what, const ReadStats& s, std::vector<std::string>* out) {
  if (s.skipped > 0) {
    std::string w =
        what + ": " + std::to_string(s.skipped) + " malformed records skipped (--skip-bad)";
    for (size_t i = 0; i < s.examples.size(); ++i)
      w += (i == 0 ? "; first: " : " | ") + s.examples[i];
    out->push_back(w);
  }
  for (const auto& [why, n] : s.dropped) {
    out->push_back(what + ": " + std::to_string(n) + " x " + why);
  }
  for (const auto& [why, n] : s.adjusted) {
    out->push_back(what + ": " + std::to_string(n) + " x " + why);
  }
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
  std::vector<TraceNodeEvent> node_events;
  ReadStats node_stats;  // what reading the node file skipped or adjusted
  SchedulerConf sched;
  std::string description;  // the trace, as its reader describes it
};

Result<Inputs> OpenInputs(const Plan& plan) {
  ReadStats node_stats;
  ASSIGN_OR_RETURN(ClusterPlan cluster, ClusterOf(plan.trace, &node_stats));
  ASSIGN_OR_RETURN(SchedulerConf sched, LoadQueues(plan.queues_source));
  ASSIGN_OR_RETURN(std::unique_ptr<TraceReader> probe, OpenTrace(plan.trace));
  return Inputs{std::move(cluster.nodes), std::move(cluster.events), std::move(node_stats),
                std::move(sched), probe->Describe()};
}

// Writes the report files of what has run so far (--out): after each
// policy, so that a long comparison keeps what it finished.
Status WriteSoFar(const Plan& plan, const ReplayReport& report) {
  if (plan.out.empty()) return Status::OK();
  return WriteReportFiles(plan.out, report);
}

Result<ReplayReport> Run(Plan plan, const Inputs& inputs, ReadStats* trace_stats) {
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
  AddWarnings("cluster (" + std::filesystem::path(plan.trace.nodes_path).filename().string() + ")",
              inputs.node_stats, &report.warnings);
  if (!inputs.node_events.empty()) {
    if (tunnel) {
      report.settings.push_back(
          {"node events", std::to_string(inputs.node_events.size()) +
                              " (nodes unavailable or back over the trace, as unhealthy nodes)"});
    } else {
      report.warnings.push_back("the staging cell does not play the node file's " +
                                std::to_string(inputs.node_events.size()) +
                                " node events: every node stays available");
    }
  }
  const std::vector<TraceNodeEvent> none;
  ReadStats& stats = *trace_stats;
  // Every run reads the whole trace (unless a horizon stopped it early).
  report.settings.push_back({"trace", inputs.description});
  const size_t trace_setting = report.settings.size() - 1;
  const size_t fixed_warnings = report.warnings.size();
  for (size_t i = 0; i < plan.policies.size(); ++i) {
    const PolicySpec& policy = plan.policies[i];
    if (g_stop.load()) {
      report.not_run.push_back(policy.label + " (stopped before it)");
      continue;
    }
    ASSIGN_OR_RETURN(
        ReplayModeResult r,
        RunOne(plan, policy, nodes, tunnel ? inputs.node_events : none, inputs.sched, &stats));
    report.modes.push_back(std::move(r));
    report.settings[trace_setting].value = Describe(stats);
    report.warnings.resize(fixed_warnings);
    AddWarnings("trace", stats, &report.warnings);
    if (i + 1 < plan.policies.size() && !g_stop.load()) {
      // Written as each policy finishes: a stopped comparison keeps them.
      ReplayReport so_far = report;
      for (size_t j = i + 1; j < plan.policies.size(); ++j) {
        so_far.not_run.push_back(plan.policies[j].label + " (not yet run)");
      }
      RETURN_NOT_OK(WriteSoFar(plan, so_far));
    }
  }
  if (plan.mode == ReplayMode::kCell) {
    // A node heartbeat is when a node's containers start and end, so a
    // cell's delays are at least about one heartbeat of trace time.
    const double beat_ms =
        static_cast<double>(plan.heartbeat.count()) * std::max(plan.tunnel.speed, 0.0);
    for (const ReplayModeResult& m : report.modes) {
      if (m.delay_ms.count > 0 && m.delay_ms.p50 <= 2 * beat_ms) {
        char w[320];
        std::snprintf(w, sizeof(w),
                      "%s: the median scheduling delay (%.0f ms of trace time) is within two node "
                      "heartbeats (--heartbeat-ms %lld x --speed %g = %.0f ms of trace time): "
                      "the heartbeat, not the scheduler, dominates the delays; lower --speed or "
                      "--heartbeat-ms",
                      m.label.c_str(), m.delay_ms.p50,
                      static_cast<long long>(plan.heartbeat.count()), plan.tunnel.speed, beat_ms);
        report.warnings.push_back(w);
      }
    }
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
                         "the trace (google2011: task_events then job_events; alibaba2017: "
                         "batch_task.csv and optionally batch_instance.csv)"),
          FlagSpec::String("format", "FORMAT", "",
                           "sls, rumen, synth, google2011, alibaba2018, alibaba2017, phases or "
                           "poisson")
              .ComputedDefault("guessed from the file name"),
          FlagSpec::String("nodes-file", "FILE", "",
                           "the cluster: SLS nodes JSON, Alibaba v2018 machine_meta.csv or v2017 "
                           "server_event.csv"),
          FlagSpec::Int("nodes", 0, "a generated uniform cluster of N nodes (0: none)")
              .InRange(0, 1e8),
          FlagSpec::Int("nodes-per-rack", 40, "racks of the generated cluster").InRange(1, 1e8),
          FlagSpec::String("node-shape", "MB,VCORES", "65536,32",
                           "the node shape normalised traces are mapped onto, and the generated "
                           "nodes' shape"),
          FlagSpec::String("queues", "FILE.xml|A,B,...", "default",
                           "a capacity-scheduler.xml, or queue names with equal shares"),
          FlagSpec::Switch("skip-bad",
                           "skip (and count) records that cannot be read; reported as warnings"),
          FlagSpec::Double("plan-cpu-per-core", 100,
                           "alibaba2017: plan_cpu per core (100: the published file's hundredths "
                           "of a core; 1: whole cores)")
              .InRange(1e-6, 1e9),
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
          FlagSpec::Switch("no-progress", "no progress on stderr"),
          FlagSpec::Double("progress-seconds", 5,
                           "when stderr is not a terminal: a progress line this often (wall)")
              .InRange(0, 1e6),
          FlagSpec::Switch("verbose", "keep the RM core's INFO log"),
      },
      "exit status: 0, 1 when a run reports a violation (a task placed twice, tasks that could "
      "never be placed) or fails, when the trace gives no job, or when every job is rejected, "
      "2 for a usage error, 128+N when stopped by signal N (SIGINT, SIGTERM: the finished "
      "policies' results are printed and written, the one running is cut)"};
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
  g_stop.store(false);
  g_signal.store(0);
  // The cell's children are ended by its own teardown, not by these.
  if (plan->mode == ReplayMode::kWindTunnel) CatchStopSignals();
  ReadStats stats;
  auto report = Run(*plan, *inputs, &stats);
  if (!report.ok()) return ReportFailure(kName, report.status());
  std::fputs(ToSummaryTable(*report).c_str(), stdout);
  if (!plan->out.empty()) {
    const Status s = WriteReportFiles(plan->out, *report);
    if (!s.ok()) return ReportFailure(kName, s);
    std::printf("report: %s/report.html (also summary.txt, report.json, series.csv)\n",
                plan->out.c_str());
  }
  std::fflush(stdout);
  if (const int signo = g_signal.load(); signo != 0) {
    std::string cut;
    for (const ReplayModeResult& m : report->modes) {
      if (m.cut) cut += (cut.empty() ? "" : ", ") + m.label;
    }
    for (const std::string& p : report->not_run) cut += (cut.empty() ? "" : ", ") + p;
    std::fprintf(stderr,
                 "spindle %s: stopped by signal %d; cut: %s; the finished policies' "
                 "results are kept\n",
                 kName, signo, cut.empty() ? "none" : cut.c_str());
    return 128 + signo;
  }
  if (stats.jobs == 0) {
    std::fprintf(stderr, "spindle %s: nothing replayed: the trace gave no job (%s)\n", kName,
                 Describe(stats).c_str());
    return kExitFailure;
  }
  for (const ReplayModeResult& m : report->modes) {
    if (m.jobs_submitted > 0 && m.jobs_rejected == m.jobs_submitted) {
      std::fprintf(stderr,
                   "spindle %s: every job (%lld) was rejected under %s; first: %s (check "
                   "--max-allocation, --node-shape, --queues%s)\n",
                   kName, static_cast<long long>(m.jobs_rejected), m.label.c_str(),
                   m.rejections.empty() ? "?" : m.rejections.front().c_str(),
                   plan->format == "alibaba2017" ? ", --plan-cpu-per-core" : "");
      return kExitFailure;
    }
  }
  for (const ReplayModeResult& m : report->modes) {
    if (!m.violations.empty()) return kExitFailure;
  }
  return kExitOk;
}

}  // namespace spindle::replay
