#include "bench/windtunnel_bench.h"

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "bench/windtunnel/csv_report.h"
#include "bench/windtunnel/figure5.h"
#include "bench/windtunnel/html_report.h"
#include "bench/windtunnel/json_report.h"
#include "bench/windtunnel/real_driver.h"
#include "bench/windtunnel/text_report.h"
#include "bench/windtunnel/virtual_driver.h"
#include "replay/report/write_file.h"

namespace spindle::bench {

namespace {

using windtunnel::ClockKind;

constexpr double kBaseRate = 40'000;
constexpr double kPeakRate = 61'000;

Result<std::vector<double>> DoubleList(const CommandLine& flags, const std::string& name,
                                       std::vector<double> fallback, double scale_by) {
  if (!flags.Has(name)) return fallback;
  std::vector<double> out;
  for (const std::string& item : flags.GetList(name)) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (end != item.c_str() + item.size() || !std::isfinite(v) || v < 0) {
      return Status::InvalidArgument("--" + name + ": bad number '" + item + "'");
    }
    out.push_back(v * scale_by);
  }
  if (out.empty()) return Status::InvalidArgument("--" + name + " is empty");
  return out;
}

Duration Seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

}  // namespace

Result<WindTunnelBenchOptions> ParseWindTunnelFlags(const CommandLine& flags) {
  RETURN_NOT_OK(flags.CheckKnown({"clock",
                                  "phase-seconds",
                                  "drain-seconds",
                                  "phases",
                                  "scale",
                                  "peak",
                                  "rate",
                                  "nodes",
                                  "slots",
                                  "schedulers",
                                  "partitions",
                                  "gap-ms",
                                  "tau-ms",
                                  "tasks-per-job",
                                  "task-seconds",
                                  "preferred-nodes",
                                  "score-variance",
                                  "preference-tilt",
                                  "alpha",
                                  "step-tasks",
                                  "decision-cost-us",
                                  "quality-cost-factor",
                                  "tick-ms",
                                  "jobs",
                                  "modes",
                                  "strategies",
                                  "figures",
                                  "figures-only",
                                  "figure-scale",
                                  "figure-seconds",
                                  "figure-strategy",
                                  "figure-seeds",
                                  "seed",
                                  "json",
                                  "csv",
                                  "figures-csv",
                                  "html"}));
  WindTunnelBenchOptions o;
  windtunnel::RunSpec& s = o.base;
  const std::string clock = flags.GetString("clock", "real");
  if (clock == "real") {
    s.clock = ClockKind::kReal;
  } else if (clock == "virtual") {
    s.clock = ClockKind::kVirtual;
  } else {
    return Status::InvalidArgument("--clock: real or virtual");
  }
  ASSIGN_OR_RETURN(double phase_seconds, flags.GetDouble("phase-seconds", 60, 0.001, 86400));
  s.workload.phase_length = Seconds(phase_seconds);
  ASSIGN_OR_RETURN(double drain, flags.GetDouble("drain-seconds", 10, 0, 86400));
  s.drain = Seconds(drain);
  ASSIGN_OR_RETURN(s.workload.fractions,
                   DoubleList(flags, "phases", {0.5, 0.8, 0.95, 0.8, 0.5}, 0.01));
  ASSIGN_OR_RETURN(double scale, flags.GetDouble("scale", 1, 0.01, 100));
  const bool peak = flags.Has("peak") && flags.GetString("peak", "true") != "false";
  ASSIGN_OR_RETURN(double rate, flags.GetDouble("rate", peak ? kPeakRate : kBaseRate, 1, 1e8));
  s.workload.base_rate = rate * scale;
  // --scale grows the cluster with the load (the paper's scalability test,
  // Table 2: 1-4x the rate on 1-4x the slots), unless --nodes says otherwise.
  s.cluster.nodes = static_cast<int>(std::lround(s.cluster.nodes * scale));
  struct IntFlag {
    const char* name;
    int* field;
    int min;
    int max;
  };
  for (const IntFlag& f : {IntFlag{"nodes", &s.cluster.nodes, 1, 10'000'000},
                           IntFlag{"slots", &s.cluster.slots_per_node, 1, 1'000'000},
                           IntFlag{"schedulers", &s.schedulers, 1, 1024},
                           IntFlag{"partitions", &s.partitions, 1, 1024},
                           IntFlag{"tasks-per-job", &s.workload.tasks_per_job, 1, 1'000'000},
                           IntFlag{"preferred-nodes", &s.workload.preferred_nodes, 0, 100'000},
                           IntFlag{"step-tasks", &s.step_tasks, 1, 1'000'000}}) {
    ASSIGN_OR_RETURN(int64_t v, flags.GetInt(f.name, *f.field));
    if (v < f.min || v > f.max) {
      return Status::InvalidArgument(std::string("--") + f.name + " out of range");
    }
    *f.field = static_cast<int>(v);
  }
  ASSIGN_OR_RETURN(double gap_ms, flags.GetDouble("gap-ms", 500, 0.001, 3.6e6));
  s.sync_gap = Seconds(gap_ms / 1000);
  ASSIGN_OR_RETURN(double tau_ms, flags.GetDouble("tau-ms", 2000, 0.001, 3.6e6));
  s.tau = Seconds(tau_ms / 1000);
  ASSIGN_OR_RETURN(double task_seconds, flags.GetDouble("task-seconds", 5, 0.001, 86400));
  s.task_duration = Seconds(task_seconds);
  ASSIGN_OR_RETURN(s.cluster.score_variance, flags.GetDouble("score-variance", 2, 0, 100));
  ASSIGN_OR_RETURN(s.workload.preference_tilt, flags.GetDouble("preference-tilt", 1, 0, 100));
  ASSIGN_OR_RETURN(s.alpha, flags.GetDouble("alpha", 1, 0.01, 100));
  ASSIGN_OR_RETURN(double cost_us, flags.GetDouble("decision-cost-us", 250, 0.001, 1e6));
  s.decision_cost = Seconds(cost_us / 1e6);
  // The real clock measures this code's own cost unless told to emulate one.
  if (s.clock == ClockKind::kReal && flags.Has("decision-cost-us")) {
    s.real_decision_cost = s.decision_cost;
  }
  // Quality-first decisions cost 1.5x by default (ParSync §6.2: its overhead
  // is higher; `spindle bench pool` measures ~3x the CPU per placement).
  ASSIGN_OR_RETURN(s.quality_cost_factor, flags.GetDouble("quality-cost-factor", 1.5, 0.01, 1000));
  ASSIGN_OR_RETURN(int64_t jobs, flags.GetInt("jobs", 1));
  if (jobs < 1 || jobs > 64) return Status::InvalidArgument("--jobs must be 1..64");
  o.jobs = static_cast<int>(jobs);
  ASSIGN_OR_RETURN(double tick_ms, flags.GetDouble("tick-ms", 2, 0.1, 1000));
  s.tick = Seconds(tick_ms / 1000);
  ASSIGN_OR_RETURN(int64_t seed, flags.GetInt("seed", 1));
  s.seed = static_cast<uint64_t>(seed);
  s.cluster.seed = s.seed;
  s.workload.seed = s.seed;

  // Modes: "mode" (every --strategies) or "mode/strategy".
  std::vector<pool::StrategyKind> strategies = {pool::StrategyKind::kLatencyFirst,
                                                pool::StrategyKind::kQualityFirst,
                                                pool::StrategyKind::kAdaptive};
  if (flags.Has("strategies")) {
    strategies.clear();
    for (const std::string& item : flags.GetList("strategies")) {
      ASSIGN_OR_RETURN(pool::StrategyKind k, pool::ParseStrategy(item));
      strategies.push_back(k);
    }
    if (strategies.empty()) return Status::InvalidArgument("--strategies is empty");
  }
  for (const std::string& item :
       flags.GetList("modes", {"parsync", "statesync", "monolithic/latency-first"})) {
    const size_t slash = item.find('/');
    ASSIGN_OR_RETURN(pool::SyncMode mode, pool::ParseSyncMode(item.substr(0, slash)));
    if (slash != std::string::npos) {
      ASSIGN_OR_RETURN(pool::StrategyKind k, pool::ParseStrategy(item.substr(slash + 1)));
      o.modes.emplace_back(mode, k);
    } else if (mode == pool::SyncMode::kMonolithic) {
      o.modes.emplace_back(mode, strategies.front());
    } else {
      for (pool::StrategyKind k : strategies) o.modes.emplace_back(mode, k);
    }
  }
  if (o.modes.empty()) return Status::InvalidArgument("--modes is empty");

  // Figures 2 and 3 (virtual clock).
  const std::string figures =
      flags.GetString("figures", s.clock == ClockKind::kVirtual ? "2,3" : "none");
  o.figures.figures.clear();
  if (figures != "none") {
    for (const std::string& item : flags.GetList("figures", {"2", "3"})) {
      if (item != "2" && item != "3") return Status::InvalidArgument("--figures: 2, 3 or none");
      o.figures.figures.push_back(item[0] - '0');
    }
  }
  o.run_figures = !o.figures.figures.empty();
  if (o.run_figures && s.clock != ClockKind::kVirtual) {
    return Status::InvalidArgument("--figures needs --clock virtual");
  }
  o.run_tunnel = !flags.Has("figures-only");
  if (!o.run_tunnel && !o.run_figures) {
    return Status::InvalidArgument("--figures-only without figures");
  }
  ASSIGN_OR_RETURN(o.figures.scale, flags.GetDouble("figure-scale", 0.05, 0.001, 1));
  ASSIGN_OR_RETURN(double fig_seconds, flags.GetDouble("figure-seconds", 30, 1, 3600));
  o.figures.seconds = Seconds(fig_seconds);
  ASSIGN_OR_RETURN(int64_t fig_seeds, flags.GetInt("figure-seeds", o.figures.seeds));
  if (fig_seeds < 1 || fig_seeds > 100) {
    return Status::InvalidArgument("--figure-seeds must be 1..100");
  }
  o.figures.seeds = static_cast<int>(fig_seeds);
  if (flags.Has("figure-strategy")) {
    ASSIGN_OR_RETURN(o.figures.fig2_strategy,
                     pool::ParseStrategy(flags.GetString("figure-strategy", "")));
    o.figures.fig3_strategy = o.figures.fig2_strategy;
  }
  o.figures.jobs = o.jobs;
  o.figures.decision_cost = s.decision_cost;
  o.figures.task_duration = s.task_duration;
  o.figures.seed = s.seed;
  o.figures.preference_tilt = s.workload.preference_tilt;

  o.json_path = flags.GetString("json", "");
  o.csv_path = flags.GetString("csv", "");
  o.figures_csv_path = flags.GetString("figures-csv", "");
  o.html_path = flags.GetString("html", "");

  windtunnel::RunSpec check = s;
  check.mode = o.modes.front().first;
  check.strategy = o.modes.front().second;
  RETURN_NOT_OK(windtunnel::ValidateRunSpec(check));
  return o;
}

int WindTunnelBenchMain(const CommandLine& flags) {
  auto parsed = ParseWindTunnelFlags(flags);
  if (!parsed.ok()) {
    std::fprintf(stderr, "spindle bench windtunnel: %s\n", parsed.status().ToString().c_str());
    return 2;
  }
  const WindTunnelBenchOptions& o = *parsed;
  const windtunnel::RunSpec& s = o.base;
  const bool virt = s.clock == ClockKind::kVirtual;
  const double phase_s = std::chrono::duration<double>(s.workload.phase_length).count();
  const double ms = [](Duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
  }(s.sync_gap);
  const double tau_ms = std::chrono::duration<double, std::milli>(s.tau).count();

  // Real clock with --decision-cost-us: each scheduler sleeps out the
  // modelled cost of its decisions (PoolOptions::emulated_decision_cost).
  const bool emulated = !virt && s.real_decision_cost > Duration(0);
  const Duration modelled = virt ? s.decision_cost : s.real_decision_cost;
  const std::string cost_us = Num(std::chrono::duration<double, std::micro>(modelled).count());
  const std::string cost_setting = virt       ? cost_us + " (virtual clock model)"
                                   : emulated ? cost_us + " (real clock, emulated by sleeping)"
                                              : "- (real clock: this code's own)";
  windtunnel::WindTunnelReport report;
  report.clock = windtunnel::ClockKindName(s.clock);
  std::string phases;
  for (double f : s.workload.fractions) phases += (phases.empty() ? "" : ",") + Num(f * 100) + "%";
  report.settings = {
      {"clock", report.clock},
      {"nodes", std::to_string(s.cluster.nodes)},
      {"slots", std::to_string(static_cast<int64_t>(s.cluster.nodes) * s.cluster.slots_per_node)},
      {"schedulers N", std::to_string(s.schedulers)},
      {"partitions P", std::to_string(s.partitions)},
      {"sync gap G (ms)", Num(ms)},
      {"adaptive tau (ms)", Num(tau_ms)},
      {"base rate R (tasks/s)", Num(s.workload.base_rate)},
      {"phases", phases},
      {"phase seconds", Num(phase_s)},
      {"drain seconds", Num(std::chrono::duration<double>(s.drain).count())},
      {"tasks per job", std::to_string(s.workload.tasks_per_job)},
      {"task seconds", Num(std::chrono::duration<double>(s.task_duration).count())},
      {"preferred nodes per job", std::to_string(s.workload.preferred_nodes)},
      {"score mean, variance V", Num(s.cluster.score_mean) + ", " + Num(s.cluster.score_variance)},
      {"preference tilt", Num(s.workload.preference_tilt)},
      {"alpha (TET on preferred)", Num(s.alpha)},
      {"tasks per scheduler step", std::to_string(s.step_tasks)},
      {"decision cost (us)", cost_setting},
      {"quality-first cost factor", virt || emulated ? Num(s.quality_cost_factor) : "-"},
      {"seed", std::to_string(s.seed)},
      {"hardware threads", std::to_string(std::thread::hardware_concurrency())},
  };
  std::string cost;
  if (virt || emulated) {
    cost = ", " + cost_us + (emulated ? " us/decision emulated by sleeping" : " us/decision");
    if (s.quality_cost_factor != 1) cost += " (x" + Num(s.quality_cost_factor) + " quality-first)";
  }
  std::printf(
      "spindle bench windtunnel: %s clock, %d nodes x %d slots, N=%d, P=%d, G=%g ms, "
      "R=%g tasks/s, phases %s of %g s (+%g s drain), %d tasks/job, %g s tasks%s\n",
      report.clock.c_str(), s.cluster.nodes, s.cluster.slots_per_node, s.schedulers, s.partitions,
      ms, s.workload.base_rate, phases.c_str(), phase_s,
      std::chrono::duration<double>(s.drain).count(), s.workload.tasks_per_job,
      std::chrono::duration<double>(s.task_duration).count(), cost.c_str());
  std::fflush(stdout);

  if (o.run_tunnel) {
    std::vector<windtunnel::RunSpec> specs;
    for (const auto& [mode, strategy] : o.modes) {
      windtunnel::RunSpec spec = s;
      spec.mode = mode;
      spec.strategy = strategy;
      spec.label = std::string(pool::SyncModeName(mode)) + "/" + pool::StrategyKindName(strategy);
      specs.push_back(std::move(spec));
    }
    const auto run = [&](const windtunnel::RunSpec& spec) {
      return virt ? windtunnel::RunVirtual(spec) : windtunnel::RunReal(spec);
    };
    const auto take = [&](const windtunnel::RunSpec& spec,
                          Result<windtunnel::ModeResult> r) -> bool {
      if (!r.ok()) {
        std::fprintf(stderr, "spindle bench windtunnel: %s: %s\n", spec.label.c_str(),
                     r.status().ToString().c_str());
        return false;
      }
      std::printf("\n%s", windtunnel::FormatModeTable(*r).c_str());
      std::fflush(stdout);
      report.modes.push_back(std::move(r).value());
      return true;
    };
    if (virt && o.jobs > 1) {
      // Deterministic runs, so several at once change nothing but the wall
      // time; printed in order once all are done.
      std::vector<Result<windtunnel::ModeResult>> results(
          specs.size(), Result<windtunnel::ModeResult>(Status::Aborted("not run")));
      std::atomic<size_t> next{0};
      const auto work = [&] {
        for (size_t i = next.fetch_add(1); i < specs.size(); i = next.fetch_add(1)) {
          results[i] = run(specs[i]);
        }
      };
      std::vector<std::thread> threads;
      for (int j = 1; j < std::min<int>(o.jobs, static_cast<int>(specs.size())); ++j) {
        threads.emplace_back(work);
      }
      work();
      for (auto& t : threads) t.join();
      for (size_t i = 0; i < specs.size(); ++i) {
        if (!take(specs[i], std::move(results[i]))) return 1;
      }
    } else {
      for (const windtunnel::RunSpec& spec : specs) {
        if (!take(spec, run(spec))) return 1;
      }
    }
    std::printf("\n%s", windtunnel::FormatSummary(report).c_str());
    std::printf("\n%s", windtunnel::FormatRatios(report, "parsync/latency-first").c_str());
    std::printf("\n%s", windtunnel::FormatTargets(report, tau_ms).c_str());
    windtunnel::AddFigure5(&report, tau_ms);
    for (const windtunnel::PhaseFigure& f : report.phase_figures) {
      std::printf("\n%s", windtunnel::FormatPhaseFigure(f).c_str());
    }
    if (!report.trends.empty()) {
      std::printf("\n%s", windtunnel::FormatTrends(report.trends).c_str());
    }
    std::fflush(stdout);
  }
  if (o.run_figures) {
    std::printf(
        "\nsimulation figures (virtual clock, scale %g of the paper's setting, %g s of "
        "submission, %d seed%s per point; figure 2: %s, figure 3: %s)\n",
        o.figures.scale, std::chrono::duration<double>(o.figures.seconds).count(), o.figures.seeds,
        o.figures.seeds == 1 ? "" : "s", pool::StrategyKindName(o.figures.fig2_strategy),
        pool::StrategyKindName(o.figures.fig3_strategy));
    std::fflush(stdout);
    auto tables = windtunnel::RunFigures(o.figures, [](const windtunnel::FigureTable& t) {
      std::printf("%s", windtunnel::FormatFigureTable(t).c_str());
      std::fflush(stdout);
    });
    if (!tables.ok()) {
      std::fprintf(stderr, "spindle bench windtunnel: figures: %s\n",
                   tables.status().ToString().c_str());
      return 1;
    }
    report.figures = std::move(*tables);
  }
  bool ok = true;
  for (const auto& m : report.modes) ok &= m.invariants_ok;
  const struct {
    const std::string& path;
    std::string (*render)(const windtunnel::WindTunnelReport&);
  } outputs[] = {{o.json_path, windtunnel::ToJson},
                 {o.csv_path, windtunnel::ToCsv},
                 {o.figures_csv_path, windtunnel::ToFiguresCsv},
                 {o.html_path, windtunnel::ToHtml}};
  for (const auto& out : outputs) {
    if (out.path.empty()) continue;
    const Status st = replay::WriteTextFile(out.path, out.render(report));
    if (!st.ok()) {
      std::fprintf(stderr, "spindle bench windtunnel: %s\n", st.ToString().c_str());
      return 1;
    }
  }
  if (!ok) {
    std::fprintf(stderr, "spindle bench windtunnel: the cell's invariants broke in a run\n");
    return 1;
  }
  return 0;
}

}  // namespace spindle::bench
