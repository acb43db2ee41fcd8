#include "bench/windtunnel_bench.h"

#include <glog/logging.h>

#include <algorithm>
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
#include "bench/windtunnel/run_mode.h"
#include "bench/windtunnel/table1.h"
#include "bench/windtunnel/text_report.h"
#include "replay/report/write_file.h"

namespace spindle::bench {

namespace {

using windtunnel::ClockKind;

constexpr double kBaseRate = 40'000;
constexpr double kPeakRate = 61'000;

Result<std::vector<double>> DoubleList(const CommandLine& flags, const std::string& name,
                                       double scale_by) {
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

const CommandSpec& WindTunnelBenchCommand() {
  static const windtunnel::RunSpec kRun;
  static const windtunnel::FigureOptions kFigures;
  static const CommandSpec kSpec{
      "bench windtunnel",
      "ParSync's Wind Tunnel: the pool under phased load (bench/windtunnel/README.md)",
      {FlagSpec::String("clock", "real|virtual", "real",
                        "real: the pool's threads on the system clock; virtual: a "
                        "deterministic discrete-event run"),
       FlagSpec::Double("phase-seconds", 60, "length of each load phase").InRange(0.001, 86400),
       FlagSpec::Double("drain-seconds", 10, "after the last phase, run at most this long")
           .InRange(0, 86400),
       FlagSpec::List("phases", "PERCENT,...", "50,80,95,80,50",
                      "load of each phase, in percent of --rate"),
       FlagSpec::Double("scale", 1, "multiplies the rate and the cluster (Table 2)")
           .InRange(0.01, 100),
       FlagSpec::Switch("peak", "the paper's peak rate instead of its base rate"),
       FlagSpec::Double("rate", 0, "jobs/s at 100% load (before --scale)")
           .InRange(1, 1e8)
           .ComputedDefault(Num(kBaseRate) + ", " + Num(kPeakRate) + " with --peak"),
       FlagSpec::Int("nodes", 0, "nodes in the cluster")
           .InRange(1, 1e7)
           .ComputedDefault(std::to_string(kRun.cluster.nodes) + " x --scale"),
       FlagSpec::Int("slots", kRun.cluster.slots_per_node, "slots per node").InRange(1, 1e6),
       FlagSpec::Int("schedulers", kRun.schedulers, "schedulers N").InRange(1, 1024),
       FlagSpec::Int("partitions", kRun.partitions, "partitions P").InRange(1, 1024),
       FlagSpec::Int("tasks-per-job", kRun.workload.tasks_per_job, "tasks per job").InRange(1, 1e6),
       FlagSpec::Int("preferred-nodes", kRun.workload.preferred_nodes, "preferred nodes per task")
           .InRange(0, 1e5),
       FlagSpec::Int("step-tasks", kRun.step_tasks, "tasks a scheduler decides per step")
           .InRange(1, 1e6),
       FlagSpec::Double("gap-ms", 500, "sync gap G").InRange(0.001, 3.6e6),
       FlagSpec::Double("tau-ms", 2000, "adaptive's tau").InRange(0.001, 3.6e6),
       FlagSpec::Double("task-seconds", 5, "how long a task holds its slot").InRange(0.001, 86400),
       FlagSpec::Double("score-variance", kRun.cluster.score_variance, "variance of slot scores")
           .InRange(0, 100),
       FlagSpec::Double("preference-tilt", kRun.workload.preference_tilt,
                        "how strongly tasks prefer the same nodes")
           .InRange(0, 100),
       FlagSpec::Double("alpha", kRun.alpha, "a task on a preferred node runs alpha x as long")
           .InRange(0.01, 100),
       FlagSpec::Double("decision-cost-us", 250,
                        "modelled cost of one decision (virtual clock); with --clock real, the "
                        "cost the schedulers emulate by sleeping (none unless given)")
           .InRange(0.001, 1e6),
       FlagSpec::Double("quality-cost-factor", 1.5,
                        "quality-first decisions cost this many times more")
           .InRange(0.01, 1000),
       FlagSpec::String("lf-preferences", "freshest|anywhere", "freshest",
                        "where latency-first looks for preferred nodes: its freshest partitions "
                        "(the paper's) or the whole view first (the RM's YARN locality)"),
       FlagSpec::Int("jobs", 1, "virtual clock: runs at once").InRange(1, 64),
       FlagSpec::Int("remote-schedulers", 0,
                     "also run each mode with K of its N schedulers as members of the "
                     "cell-state service over Thrift (virtual clock: in memory, a modelled "
                     "round trip per call; real clock: 127.0.0.1), compared with the "
                     "in-process run")
           .InRange(0, 1023),
       FlagSpec::Double("remote-rtt-us", 500,
                        "virtual clock: the modelled round trip of a member's call")
           .InRange(0, 1e6),
       FlagSpec::Double("tick-ms", 2, "real clock: how often the driver polls").InRange(0.1, 1000),
       FlagSpec::Int("seed", static_cast<int64_t>(kRun.seed), "random seed"),
       FlagSpec::List("modes", "MODE[/STRATEGY],...", "parsync,statesync,monolithic/latency-first",
                      "rows: a sync mode (with every --strategies) or mode/strategy"),
       FlagSpec::List("strategies", "STRATEGY,...", "latency-first,quality-first,adaptive",
                      "strategies of a mode given without one"),
       FlagSpec::String("figures", "2,3|none", "", "the paper's Figures 2 and 3")
           .ComputedDefault("2,3 with --clock virtual, else none"),
       FlagSpec::Switch("figures-only", "run the figures only, not the wind tunnel phases"),
       FlagSpec::Double("figure-scale", 0.05, "cluster and rate scale of the figures")
           .InRange(0.001, 1),
       FlagSpec::Double("figure-seconds", 30, "simulated seconds per figure point")
           .InRange(1, 3600),
       FlagSpec::Int("figure-seeds", kFigures.seeds, "seeds averaged per figure point")
           .InRange(1, 100),
       FlagSpec::String("figure-strategy", "STRATEGY",
                        pool::StrategyKindName(kFigures.fig2_strategy),
                        "the strategy of Figures 2 and 3"),
       FlagSpec::String("json", "FILE", "", "also write the results as JSON here"),
       FlagSpec::String("csv", "FILE", "", "also write the results as CSV here"),
       FlagSpec::String("figures-csv", "FILE", "", "write the figures' points as CSV here"),
       FlagSpec::String("html", "FILE", "", "also write an HTML report here")},
      "exit status: 0, 1 if a run failed or broke the cell's invariants, 2 for a usage error"};
  return kSpec;
}

Result<WindTunnelBenchOptions> ParseWindTunnelFlags(const CommandLine& flags) {
  WindTunnelBenchOptions o;
  windtunnel::RunSpec& s = o.base;
  const std::string clock = flags.GetString("clock");
  if (clock == "real") {
    s.clock = ClockKind::kReal;
  } else if (clock == "virtual") {
    s.clock = ClockKind::kVirtual;
  } else {
    return Status::InvalidArgument("--clock: real or virtual");
  }
  s.workload.phase_length = Seconds(flags.GetDouble("phase-seconds"));
  s.drain = Seconds(flags.GetDouble("drain-seconds"));
  ASSIGN_OR_RETURN(s.workload.fractions, DoubleList(flags, "phases", 0.01));
  const double scale = flags.GetDouble("scale");
  const bool peak = flags.GetBool("peak");
  const double rate = flags.Has("rate") ? flags.GetDouble("rate") : (peak ? kPeakRate : kBaseRate);
  s.workload.base_rate = rate * scale;
  // --scale grows the cluster with the load (the paper's scalability test,
  // Table 2: 1-4x the rate on 1-4x the slots), unless --nodes says otherwise.
  s.cluster.nodes = flags.Has("nodes") ? static_cast<int>(flags.GetInt("nodes"))
                                       : static_cast<int>(std::lround(s.cluster.nodes * scale));
  s.cluster.slots_per_node = static_cast<int>(flags.GetInt("slots"));
  s.schedulers = static_cast<int>(flags.GetInt("schedulers"));
  s.partitions = static_cast<int>(flags.GetInt("partitions"));
  s.workload.tasks_per_job = static_cast<int>(flags.GetInt("tasks-per-job"));
  s.workload.preferred_nodes = static_cast<int>(flags.GetInt("preferred-nodes"));
  s.step_tasks = static_cast<int>(flags.GetInt("step-tasks"));
  s.sync_gap = Seconds(flags.GetDouble("gap-ms") / 1000);
  s.tau = Seconds(flags.GetDouble("tau-ms") / 1000);
  s.task_duration = Seconds(flags.GetDouble("task-seconds"));
  s.cluster.score_variance = flags.GetDouble("score-variance");
  s.workload.preference_tilt = flags.GetDouble("preference-tilt");
  s.alpha = flags.GetDouble("alpha");
  s.decision_cost = Seconds(flags.GetDouble("decision-cost-us") / 1e6);
  // The real clock measures this code's own cost unless told to emulate one.
  if (s.clock == ClockKind::kReal && flags.Has("decision-cost-us")) {
    s.real_decision_cost = s.decision_cost;
  }
  // Quality-first decisions cost 1.5x by default (ParSync §6.2: its overhead
  // is higher; `spindle bench pool` measures ~3x the CPU per placement).
  s.quality_cost_factor = flags.GetDouble("quality-cost-factor");
  const std::string lf_preferences = flags.GetString("lf-preferences");
  if (lf_preferences == "freshest") {
    s.latency_first_preferences = pool::PreferenceScope::kFreshest;
  } else if (lf_preferences == "anywhere") {
    s.latency_first_preferences = pool::PreferenceScope::kAnywhere;
  } else {
    return Status::InvalidArgument("--lf-preferences: freshest or anywhere");
  }
  o.jobs = static_cast<int>(flags.GetInt("jobs"));
  o.remote_schedulers = static_cast<int>(flags.GetInt("remote-schedulers"));
  s.remote_rtt = Seconds(flags.GetDouble("remote-rtt-us") / 1e6);
  if (o.remote_schedulers >= s.schedulers) {
    return Status::InvalidArgument(
        "--remote-schedulers must be below --schedulers (the pool "
        "keeps one scheduler thread)");
  }
  s.tick = Seconds(flags.GetDouble("tick-ms") / 1000);
  s.seed = static_cast<uint64_t>(flags.GetInt("seed"));
  s.cluster.seed = s.seed;
  s.workload.seed = s.seed;

  // Modes: "mode" (every --strategies) or "mode/strategy".
  std::vector<pool::StrategyKind> strategies;
  for (const std::string& item : flags.GetList("strategies")) {
    ASSIGN_OR_RETURN(pool::StrategyKind k, pool::ParseStrategy(item));
    strategies.push_back(k);
  }
  if (strategies.empty()) return Status::InvalidArgument("--strategies is empty");
  for (const std::string& item : flags.GetList("modes")) {
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
  std::vector<std::string> figures = flags.GetList("figures");
  if (!flags.Has("figures") && s.clock == ClockKind::kVirtual) figures = {"2", "3"};
  o.figures.figures.clear();
  if (figures != std::vector<std::string>{"none"}) {
    for (const std::string& item : figures) {
      if (item != "2" && item != "3") return Status::InvalidArgument("--figures: 2, 3 or none");
      o.figures.figures.push_back(item[0] - '0');
    }
  }
  o.run_figures = !o.figures.figures.empty();
  if (o.run_figures && s.clock != ClockKind::kVirtual) {
    return Status::InvalidArgument("--figures needs --clock virtual");
  }
  o.run_tunnel = !flags.GetBool("figures-only");
  if (!o.run_tunnel && !o.run_figures) {
    return Status::InvalidArgument("--figures-only without figures");
  }
  o.figures.scale = flags.GetDouble("figure-scale");
  o.figures.seconds = Seconds(flags.GetDouble("figure-seconds"));
  o.figures.seeds = static_cast<int>(flags.GetInt("figure-seeds"));
  ASSIGN_OR_RETURN(o.figures.fig2_strategy,
                   pool::ParseStrategy(flags.GetString("figure-strategy")));
  o.figures.fig3_strategy = o.figures.fig2_strategy;
  o.figures.jobs = o.jobs;
  o.figures.decision_cost = s.decision_cost;
  o.figures.task_duration = s.task_duration;
  o.figures.seed = s.seed;
  o.figures.preference_tilt = s.workload.preference_tilt;

  o.json_path = flags.GetString("json");
  o.csv_path = flags.GetString("csv");
  o.figures_csv_path = flags.GetString("figures-csv");
  o.html_path = flags.GetString("html");

  windtunnel::RunSpec check = s;
  check.mode = o.modes.front().first;
  check.strategy = o.modes.front().second;
  RETURN_NOT_OK(windtunnel::ValidateRunSpec(check));
  return o;
}

int WindTunnelBenchMain(const CommandLine& flags) {
  // Every job is an application of the RM core, which logs each one's life
  // at INFO: a run of a million jobs would drown the tables in it.
  FLAGS_minloglevel = std::max(FLAGS_minloglevel, 1);
  auto parsed = ParseWindTunnelFlags(flags);
  if (!parsed.ok()) {
    return ReportUsageError("bench windtunnel", parsed.status());
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
      {"latency-first preferred nodes",
       s.latency_first_preferences == pool::PreferenceScope::kFreshest ? "freshest partitions"
                                                                       : "anywhere"},
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
      specs.push_back(spec);
      if (o.remote_schedulers > 0 && mode != pool::SyncMode::kMonolithic) {
        spec.remote_schedulers = o.remote_schedulers;
        spec.label += " remote " + std::to_string(o.remote_schedulers);
        specs.push_back(std::move(spec));
      }
    }
    const auto run = [&](const windtunnel::RunSpec& spec) {
      return virt ? windtunnel::RunVirtual(spec) : windtunnel::RunReal(spec);
    };
    const auto take = [&](const windtunnel::RunSpec& spec,
                          Result<windtunnel::ModeResult> r) -> bool {
      if (!r.ok()) {
        std::fprintf(stderr, "spindle bench windtunnel: %s: %s\n", spec.label.c_str(),
                     r.status().UserMessage().c_str());
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
    if (o.remote_schedulers > 0) {
      std::printf("%s", windtunnel::FormatRemoteComparison(report).c_str());
    }
    windtunnel::AddFigure5(&report, tau_ms);
    windtunnel::AddTable1(&report);
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
                   tables.status().UserMessage().c_str());
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
      std::fprintf(stderr, "spindle bench windtunnel: %s\n", st.UserMessage().c_str());
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
