#include "bench/windtunnel/figures.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <string>
#include <thread>
#include <tuple>

#include "base/mutex.h"
#include "bench/windtunnel/run_mode.h"

namespace spindle::windtunnel {

namespace {

double Sec(Duration d) { return std::chrono::duration<double>(d).count(); }

int SchedulersFor(const FigureOptions& o, double rate, int a) {
  // N x K = R at A = 1, with K = 1 / cost tasks per second per scheduler.
  const double k = 1.0 / Sec(o.decision_cost);
  return std::max(1, static_cast<int>(std::lround(a * rate / k)));
}

}  // namespace

RunSpec MakeSimSpec(const FigureOptions& o, const SimPoint& p, double extra_percent) {
  RunSpec s;
  const double scale = o.scale;
  const double base_slots = p.rate * Sec(o.task_duration) * scale;
  s.label = std::string(pool::SyncModeName(p.mode)) + "/" + pool::StrategyKindName(p.strategy);
  s.clock = ClockKind::kVirtual;
  s.mode = p.mode;
  s.strategy = p.strategy;
  s.schedulers = SchedulersFor(o, p.rate, p.a);
  s.partitions = p.partitions;
  if (p.mode == pool::SyncMode::kParSync || p.mode == pool::SyncMode::kSameSync) {
    s.partitions = std::max(s.partitions, s.schedulers);
  }
  s.sync_gap = p.gap;
  const int tasks = std::max(1, static_cast<int>(std::lround(o.batch * scale / p.a)));
  s.step_tasks = tasks;
  s.seed = o.seed;
  s.cluster.slots_per_node = 2;
  s.cluster.nodes = std::max(1, static_cast<int>(std::ceil(base_slots * (1 + extra_percent / 100) /
                                                           s.cluster.slots_per_node)));
  s.cluster.score_variance = p.variance;
  s.cluster.seed = o.seed;
  s.workload.base_rate = p.rate * scale;
  s.workload.fractions = {1.0};
  s.workload.phase_length = o.seconds;
  s.workload.tasks_per_job = tasks;
  s.workload.preferred_nodes = tasks * o.preferred_per_task;
  s.workload.preference_tilt = o.preference_tilt;
  s.workload.seed = o.seed;
  s.task_duration = o.task_duration;
  s.drain = std::chrono::duration_cast<Duration>(o.seconds * 0.1);
  s.stop_when_committed = true;
  s.decision_cost = std::chrono::duration_cast<Duration>(o.decision_cost / scale);
  return s;
}

Result<bool> SimPasses(const FigureOptions& o, const SimPoint& p, double extra_percent) {
  ASSIGN_OR_RETURN(ModeResult r, RunVirtual(MakeSimSpec(o, p, extra_percent)));
  return r.all_committed && r.last_commit_s <= 1.1 * Sec(o.seconds);
}

Result<double> ExtraSlotsNeeded(const FigureOptions& o, const SimPoint& p) {
  const std::vector<double>& grid = o.grid_percent;
  if (grid.empty()) return Status::InvalidArgument("empty grid of extra slots");
  // Invariant: grid[lo] fails (lo = -1: assumed), grid[hi] passes (hi =
  // size: assumed, checked at the end).
  int lo = -1;
  int hi = static_cast<int>(grid.size());
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    ASSIGN_OR_RETURN(bool ok, SimPasses(o, p, grid[static_cast<size_t>(mid)]));
    if (ok) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  if (hi == static_cast<int>(grid.size())) return -1.0;
  return grid[static_cast<size_t>(hi)];
}

Result<double> MeanExtraSlotsNeeded(const FigureOptions& o, const SimPoint& p) {
  if (o.seeds < 1) return Status::InvalidArgument("seeds must be >= 1");
  double sum = 0;
  for (int k = 0; k < o.seeds; ++k) {
    FigureOptions one = o;
    one.seed = o.seed + static_cast<uint64_t>(k);
    ASSIGN_OR_RETURN(double e, ExtraSlotsNeeded(one, p));
    if (e < 0) return -1.0;
    sum += e;
  }
  return sum / o.seeds;
}

namespace {

enum class Param { kRate, kGap, kVariance };

struct Series {
  std::string name;
  pool::SyncMode mode;
  int a;
  int partitions;
  pool::StrategyKind strategy;
};

struct TablePlan {
  FigureTable table;
  Param param;
  std::vector<Series> series;
};

using PointKey = std::tuple<int, int, double, int64_t, double, int, int>;

PointKey KeyOf(const SimPoint& p) {
  return {static_cast<int>(p.mode),
          static_cast<int>(p.strategy),
          p.rate,
          p.gap.count(),
          p.variance,
          p.a,
          p.partitions};
}

SimPoint PointOf(const FigureOptions& o, const Series& s, Param param, double x) {
  SimPoint p;
  p.mode = s.mode;
  p.strategy = s.strategy;
  p.a = s.a;
  p.partitions = s.partitions;
  p.rate = o.rate;
  p.gap = o.gap;
  p.variance = o.variance;
  if (param == Param::kRate) p.rate = x;
  if (param == Param::kGap) {
    p.gap = std::chrono::duration_cast<Duration>(std::chrono::duration<double>(x));
  }
  if (param == Param::kVariance) p.variance = x;
  return p;
}

}  // namespace

Result<std::vector<FigureTable>> RunFigures(
    const FigureOptions& o, const std::function<void(const FigureTable&)>& progress) {
  const auto want = [&](int f) {
    return std::find(o.figures.begin(), o.figures.end(), f) != o.figures.end();
  };
  const struct {
    const char* suffix;
    Param param;
    const char* what;
  } kParams[] = {{"a", Param::kRate, "submission rate R"},
                 {"b", Param::kGap, "sync gap G"},
                 {"c", Param::kVariance, "score variance V"}};
  std::vector<TablePlan> plans;
  const auto plan = [&](const std::string& figure, const std::string& context,
                        const std::vector<Series>& series) {
    for (const auto& k : kParams) {
      TablePlan p;
      p.table.id = figure + k.suffix;
      p.table.title = "Figure " + figure + ": extra slots vs " + k.what + " (" + context + ")";
      p.table.max_percent = o.grid_percent.empty() ? 0 : o.grid_percent.back();
      p.table.seeds = o.seeds;
      switch (k.param) {
        case Param::kRate:
          p.table.x_label = "R (tasks/s)";
          p.table.xs = o.rates;
          break;
        case Param::kGap:
          p.table.x_label = "G (s)";
          p.table.xs = o.gaps_s;
          break;
        case Param::kVariance:
          p.table.x_label = "V (score variance)";
          p.table.xs = o.variances;
          break;
      }
      p.param = k.param;
      p.series = series;
      plans.push_back(std::move(p));
    }
  };
  if (want(2)) {
    std::vector<Series> series;
    for (int a : o.fig2_a) {
      series.push_back(Series{"A=" + std::to_string(a), pool::SyncMode::kStateSync, a,
                              o.fig2_partitions, o.fig2_strategy});
    }
    plan("2",
         std::string("statesync, P=") + std::to_string(o.fig2_partitions) + ", " +
             pool::StrategyKindName(o.fig2_strategy),
         series);
  }
  if (want(3)) {
    std::vector<Series> series;
    for (size_t i = 0; i < o.fig3_a.size(); ++i) {
      const int a = o.fig3_a[i];
      const std::string suffix = " A=" + std::to_string(a);
      series.push_back(Series{"DiffSyn" + suffix, pool::SyncMode::kParSync, a, o.fig3_partitions,
                              o.fig3_strategy});
      series.push_back(Series{"SameSyn" + suffix, pool::SyncMode::kSameSync, a, o.fig3_partitions,
                              o.fig3_strategy});
      if (i == 0) {
        series.push_back(Series{"StateSync" + suffix, pool::SyncMode::kStateSync, a,
                                o.fig3_partitions, o.fig3_strategy});
      }
    }
    plan("3",
         "DiffSyn vs SameSyn, P=" + std::to_string(o.fig3_partitions) + ", " +
             pool::StrategyKindName(o.fig3_strategy),
         series);
  }

  // Every distinct point once (the defaults recur across sub-figures).
  std::map<PointKey, size_t> index;
  std::vector<SimPoint> points;
  for (const TablePlan& p : plans) {
    for (const Series& s : p.series) {
      for (double x : p.table.xs) {
        const SimPoint point = PointOf(o, s, p.param, x);
        if (index.emplace(KeyOf(point), points.size()).second) points.push_back(point);
      }
    }
  }
  std::vector<double> extra(points.size(), -1);
  std::atomic<size_t> next{0};
  Mutex mu;
  Status failure;
  const auto work = [&] {
    for (size_t i = next.fetch_add(1); i < points.size(); i = next.fetch_add(1)) {
      auto e = MeanExtraSlotsNeeded(o, points[i]);
      if (!e.ok()) {
        MutexLock lock(&mu);
        failure = e.status();
        return;
      }
      extra[i] = *e;
    }
  };
  const int jobs = std::max(1, std::min<int>(o.jobs, static_cast<int>(points.size())));
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  {
    MutexLock lock(&mu);
    RETURN_NOT_OK(failure);
  }

  std::vector<FigureTable> tables;
  for (TablePlan& p : plans) {
    FigureTable& t = p.table;
    for (const Series& s : p.series) {
      t.series.push_back(s.name);
      std::vector<double> pct;
      std::vector<double> slots;
      for (double x : t.xs) {
        const SimPoint point = PointOf(o, s, p.param, x);
        const double e = extra[index.at(KeyOf(point))];
        pct.push_back(e);
        slots.push_back(e < 0 ? -1 : e / 100 * point.rate * Sec(o.task_duration));
      }
      t.extra_percent.push_back(std::move(pct));
      t.extra_slots.push_back(std::move(slots));
    }
    if (progress) progress(t);
    tables.push_back(std::move(t));
  }
  return tables;
}

}  // namespace spindle::windtunnel
