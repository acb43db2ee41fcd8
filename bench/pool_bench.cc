#include "bench/pool_bench.h"

#include <glog/logging.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <fstream>
#include <thread>

#include "base/clock.h"
#include "base/random.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::bench {

namespace {

using pool::AppId;
using pool::Placement;
using pool::Resource;
using pool::SchedulerPool;

constexpr Resource kSlot = Resource::Of(1024, 1);

int64_t ThreadCpuNanos() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

struct Driver {
  int scheduler = 0;
  std::vector<AppId> apps;
  int64_t hold = 0;  // placements this thread keeps allocated
  int64_t step_cpu_nanos = 0;
  int64_t measured_cpu_nanos = 0;
};

}  // namespace

Result<PoolBenchRow> RunPoolBenchRow(const PoolBenchOptions& options, pool::SyncMode mode,
                                     pool::StrategyKind strategy) {
  pool::PoolOptions po;
  po.mode = mode;
  po.strategy = strategy;
  po.num_schedulers = options.schedulers;
  po.num_partitions = options.partitions;
  po.sync_gap = std::chrono::milliseconds(options.gap_ms);
  po.transaction = options.transaction;
  po.conflict = options.conflict;
  po.max_tasks_per_step = options.batch;
  po.min_unit = kSlot;
  po.seed = options.seed;
  // A view at most one sync gap behind copies only what changed.
  po.change_log_entries = 1 << 16;
  const Clock* clock = SystemClock::Get();
  ASSIGN_OR_RETURN(auto p, SchedulerPool::Create(po, clock));
  pool::QueueSpec queue_spec;
  queue_spec.name = "bench";
  if (options.users > 0) {
    const Resource cell = kSlot * (static_cast<int64_t>(options.nodes) * options.slots_per_node);
    pool::UserLimitSpec& limits = queue_spec.user_limits;
    limits.enabled = true;
    limits.minimum_user_limit_percent = std::max(1, 100 / options.users);
    limits.user_limit_factor = 1;
    limits.capacity = cell;
    limits.cluster = cell;
    limits.minimum_allocation = kSlot;
    // Every CapacityScheduler rule on: the queue's order across schedulers too.
    queue_spec.pool_wide_order = true;
  }
  queue_spec.ordering = options.ordering;
  ASSIGN_OR_RETURN(auto queues, p->SetQueues({queue_spec}));
  const pool::QueueId queue = queues[0];
  Random rng(options.seed);
  for (int i = 0; i < options.nodes; ++i) {
    pool::NodeSpec spec;
    spec.total = kSlot * options.slots_per_node;
    spec.rack = "/rack" + std::to_string(i / 40);
    // ParSync's slot scores: Normal(10, variance 2).
    spec.score = std::max(0.1, rng.Normal(10, std::sqrt(2.0)));
    RETURN_NOT_OK(p->AddNode(spec).status());
  }
  // `apps_per_scheduler` apps per scheduler, each with an unbounded backlog.
  const int n = p->num_schedulers();
  const int per = std::max(1, options.apps_per_scheduler);
  const int64_t total_hold =
      static_cast<int64_t>(options.nodes) * options.slots_per_node * options.hold_percent / 100;
  std::vector<Driver> drivers(static_cast<size_t>(n));
  int found = 0;
  for (uint64_t id = 1; found < n * per; ++id) {
    const int s = p->SchedulerFor(AppId(id), "bench");
    Driver& d = drivers[static_cast<size_t>(s)];
    if (static_cast<int>(d.apps.size()) >= per) continue;
    d.scheduler = s;
    d.apps.push_back(AppId(id));
    d.hold = total_hold / n;
    pool::UserId user;
    if (options.users > 0) user = p->InternUser("user" + std::to_string(found % options.users));
    RETURN_NOT_OK(p->AddApp(pool::AppSpec{AppId(id), queue, 0, user}));
    pool::Ask ask;
    ask.capability = kSlot;
    ask.count = int64_t{1} << 50;
    RETURN_NOT_OK(p->SetAsks(AppId(id), {ask}));
    ++found;
  }

  std::atomic<bool> measuring{false};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (Driver& d : drivers) {
    threads.emplace_back([&, dp = &d] {
      std::deque<Placement> held;
      std::vector<Placement> got;
      std::vector<Placement> release;
      while (!stop.load(std::memory_order_relaxed)) {
        const int64_t c0 = ThreadCpuNanos();
        const pool::StepResult r = p->RunOnce(dp->scheduler, clock->Now());
        const int64_t cpu = ThreadCpuNanos() - c0;
        if (measuring.load(std::memory_order_relaxed)) dp->measured_cpu_nanos += cpu;
        got.clear();
        for (const AppId app : dp->apps) p->TakePlacements(app, &got).PermitUnchecked();
        held.insert(held.end(), got.begin(), got.end());
        if (static_cast<int64_t>(held.size()) > dp->hold) {
          const auto excess = static_cast<size_t>(static_cast<int64_t>(held.size()) - dp->hold);
          release.assign(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(excess));
          held.erase(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(excess));
          p->ReleaseBatch(release).PermitUnchecked();
        }
        if (r.placed == 0 && r.conflicts == 0) {
          // Nothing placeable in this view: wait for the next sync slot.
          const auto wait = r.next_sync - clock->Now();
          if (wait > Duration(0)) {
            std::this_thread::sleep_for(std::min<Duration>(wait, std::chrono::milliseconds(5)));
          } else {
            std::this_thread::yield();
          }
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));  // warm-up: first syncs, fill to hold
  const pool::PoolMetrics before = p->Metrics();
  const auto t0 = std::chrono::steady_clock::now();
  measuring = true;
  std::this_thread::sleep_for(std::chrono::seconds(options.seconds));
  measuring = false;
  const auto t1 = std::chrono::steady_clock::now();
  const pool::PoolMetrics after = p->Metrics();
  stop = true;
  for (auto& t : threads) t.join();

  PoolBenchRow row;
  row.mode = mode;
  row.strategy = strategy;
  row.schedulers = n;
  row.seconds = std::chrono::duration<double>(t1 - t0).count();
  row.placements = after.overall.placements - before.overall.placements;
  row.conflicts = after.overall.conflicts - before.overall.conflicts;
  row.transactions = after.overall.transactions - before.overall.transactions;
  row.placements_per_second = static_cast<double>(row.placements) / row.seconds;
  int64_t cpu = 0;
  for (const Driver& d : drivers) cpu += d.measured_cpu_nanos;
  row.cpu_ns_per_placement =
      row.placements == 0 ? 0 : static_cast<double>(cpu) / static_cast<double>(row.placements);
  row.conflicts_per_1000 = row.placements == 0 ? 0 : 1000.0 * row.conflicts / row.placements;
  const double score = after.overall.score_sum - before.overall.score_sum;
  row.mean_score = row.placements == 0 ? 0 : score / static_cast<double>(row.placements);
  const double st = after.overall.staleness_sum_ms - before.overall.staleness_sum_ms;
  const int64_t sn = after.overall.staleness_samples - before.overall.staleness_samples;
  row.mean_staleness_ms = sn == 0 ? 0 : st / static_cast<double>(sn);
  row.utilisation = after.utilisation;
  const Status invariants = p->cell().CheckInvariants();
  if (!invariants.ok()) return invariants.WithContext("cell state after the run");
  return row;
}

namespace {

template <typename T, typename Parse>
Status ParseList(const std::string& text, Parse parse, std::vector<T>* out) {
  out->clear();
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    auto v = parse(item);
    if (!v.ok()) return v.status();
    out->push_back(*v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return Status::OK();
}

}  // namespace

namespace {

template <typename T, typename Name>
std::string JoinNames(const std::vector<T>& items, Name name) {
  std::string out;
  for (const T& item : items) out += (out.empty() ? "" : ",") + std::string(name(item));
  return out;
}

}  // namespace

const CommandSpec& PoolBenchCommand() {
  static const PoolBenchOptions kDefaults;
  static const CommandSpec kSpec{
      "bench pool",
      "scheduler pool placements/s and conflicts per sync mode x strategy",
      {FlagSpec::Int("nodes", kDefaults.nodes, "nodes in the cell").InRange(1, 1e8),
       FlagSpec::Int("slots", kDefaults.slots_per_node, "1-slot containers per node")
           .InRange(1, 1e8),
       FlagSpec::Int("schedulers", kDefaults.schedulers, "schedulers N").InRange(1, 1e8),
       FlagSpec::Int("partitions", kDefaults.partitions, "partitions P").InRange(1, 1e8),
       FlagSpec::Int("gap-ms", kDefaults.gap_ms, "sync gap G").InRange(1, 1e8),
       FlagSpec::Int("hold", kDefaults.hold_percent, "percent of the slots kept allocated")
           .InRange(0, 99),
       FlagSpec::Int("seconds", kDefaults.seconds, "measured seconds per row (after 1 s warm-up)")
           .InRange(1, 1e8),
       FlagSpec::Int("batch", kDefaults.batch, "tasks a scheduler chooses per step")
           .InRange(1, 1e8),
       FlagSpec::List("modes", "MODE,...", JoinNames(kDefaults.modes, pool::SyncModeName),
                      "sync modes, one row each"),
       FlagSpec::List("strategies", "STRATEGY,...",
                      JoinNames(kDefaults.strategies, pool::StrategyKindName),
                      "placement strategies, one row each"),
       FlagSpec::String("transaction", "incremental|all-or-nothing",
                        pool::TransactionModeName(kDefaults.transaction), "transaction mode"),
       FlagSpec::String("conflict", "fine-grained|coarse-grained",
                        pool::ConflictModeName(kDefaults.conflict), "conflict detection"),
       FlagSpec::Int("seed", static_cast<int64_t>(kDefaults.seed), "random seed"),
       FlagSpec::Int(
           "users", kDefaults.users,
           "users the apps belong to; > 0 turns the queue's user limits and its pool-wide order on")
           .InRange(0, 1e6),
       FlagSpec::Int("apps", kDefaults.apps_per_scheduler, "applications per scheduler")
           .InRange(1, 1e6),
       FlagSpec::String("ordering", "fifo|fair", "fifo",
                        "the queue's application ordering (3.3 FIFO or fair)"),
       FlagSpec::String("json", "FILE", "", "also write the rows as JSON here")}};
  return kSpec;
}

int PoolBenchMain(const CommandLine& flags) {
  constexpr char kName[] = "bench pool";
  PoolBenchOptions o;
  o.nodes = static_cast<int>(flags.GetInt("nodes"));
  o.slots_per_node = static_cast<int>(flags.GetInt("slots"));
  o.schedulers = static_cast<int>(flags.GetInt("schedulers"));
  o.partitions = static_cast<int>(flags.GetInt("partitions"));
  o.gap_ms = static_cast<int>(flags.GetInt("gap-ms"));
  o.hold_percent = static_cast<int>(flags.GetInt("hold"));
  o.seconds = static_cast<int>(flags.GetInt("seconds"));
  o.batch = static_cast<int>(flags.GetInt("batch"));
  o.seed = static_cast<uint64_t>(flags.GetInt("seed"));
  o.users = static_cast<int>(flags.GetInt("users"));
  o.apps_per_scheduler = static_cast<int>(flags.GetInt("apps"));
  const std::string ordering = flags.GetString("ordering");
  if (ordering == "fair") {
    o.ordering = pool::QueueOrdering::kFair;
  } else if (ordering != "fifo") {
    return ReportUsageError(kName, Status::InvalidArgument("--ordering: fifo or fair"));
  }
  Status s = ParseList(flags.GetString("modes"), pool::ParseSyncMode, &o.modes);
  if (!s.ok()) return ReportUsageError(kName, s.WithContext("--modes"));
  s = ParseList(flags.GetString("strategies"), pool::ParseStrategy, &o.strategies);
  if (!s.ok()) return ReportUsageError(kName, s.WithContext("--strategies"));
  const std::string txn = flags.GetString("transaction");
  if (txn == "all-or-nothing") {
    o.transaction = pool::TransactionMode::kAllOrNothing;
  } else if (txn != "incremental") {
    return ReportUsageError(
        kName, Status::InvalidArgument("--transaction: incremental or all-or-nothing"));
  }
  const std::string conflict = flags.GetString("conflict");
  if (conflict == "coarse-grained") {
    o.conflict = pool::ConflictMode::kCoarseGrained;
  } else if (conflict != "fine-grained") {
    return ReportUsageError(kName,
                            Status::InvalidArgument("--conflict: fine-grained or coarse-grained"));
  }
  o.json_path = flags.GetString("json");

  std::printf(
      "spindle bench pool: %d nodes x %d slots, N=%d, P=%d, G=%d ms, %d%% of slots held, "
      "%s/%s, batch %d, %d s per row, %d user(s)%s, %u hardware threads\n",
      o.nodes, o.slots_per_node, o.schedulers, o.partitions, o.gap_ms, o.hold_percent,
      pool::TransactionModeName(o.transaction), pool::ConflictModeName(o.conflict), o.batch,
      o.seconds, o.users, o.users > 0 ? " (user limits on)" : "",
      std::thread::hardware_concurrency());
  std::printf("%-11s %-14s %3s %14s %14s %15s %11s %12s %6s\n", "mode", "strategy", "N",
              "placements/s", "cpu ns/place", "conflicts/1000", "mean score", "staleness ms",
              "util");
  std::vector<PoolBenchRow> rows;
  for (pool::SyncMode mode : o.modes) {
    for (pool::StrategyKind strategy : o.strategies) {
      auto row = RunPoolBenchRow(o, mode, strategy);
      if (!row.ok()) {
        return ReportFailure(kName, row.status());
      }
      rows.push_back(*row);
      std::printf("%-11s %-14s %3d %14.0f %14.0f %15.1f %11.2f %12.1f %6.2f\n",
                  pool::SyncModeName(mode), pool::StrategyKindName(strategy), row->schedulers,
                  row->placements_per_second, row->cpu_ns_per_placement, row->conflicts_per_1000,
                  row->mean_score, row->mean_staleness_ms, row->utilisation);
      std::fflush(stdout);
    }
  }
  double best = 0;
  for (const auto& r : rows) best = std::max(best, r.placements_per_second);
  std::printf("target to report against: >= 1000000 placements/s (best row %.0f, ratio %.2f)\n",
              best, best / 1e6);
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << "{\"bench\":\"pool\",\"nodes\":" << o.nodes << ",\"slots_per_node\":" << o.slots_per_node
        << ",\"schedulers\":" << o.schedulers << ",\"partitions\":" << o.partitions
        << ",\"gap_ms\":" << o.gap_ms << ",\"hold_percent\":" << o.hold_percent
        << ",\"seconds\":" << o.seconds << ",\"batch\":" << o.batch << ",\"users\":" << o.users
        << ",\"transaction\":\"" << pool::TransactionModeName(o.transaction) << "\",\"conflict\":\""
        << pool::ConflictModeName(o.conflict) << "\",\"rows\":[";
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      out << (i ? "," : "") << "{\"mode\":\"" << pool::SyncModeName(r.mode) << "\",\"strategy\":\""
          << pool::StrategyKindName(r.strategy) << "\",\"schedulers\":" << r.schedulers
          << ",\"placements\":" << r.placements << ",\"seconds\":" << r.seconds
          << ",\"placements_per_second\":" << r.placements_per_second
          << ",\"cpu_ns_per_placement\":" << r.cpu_ns_per_placement
          << ",\"conflicts\":" << r.conflicts << ",\"conflicts_per_1000\":" << r.conflicts_per_1000
          << ",\"transactions\":" << r.transactions << ",\"mean_score\":" << r.mean_score
          << ",\"mean_staleness_ms\":" << r.mean_staleness_ms
          << ",\"utilisation\":" << r.utilisation << "}";
    }
    out << "]}\n";
    if (!out) {
      std::fprintf(stderr, "spindle bench pool: cannot write %s\n", o.json_path.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace spindle::bench
