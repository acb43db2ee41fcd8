// The figures one wind tunnel run produces, as plain values: per phase (and
// for the drain after the last phase, and the whole run) throughput, delay
// percentiles, backlog, conflicts, quality, utilisation and job-level
// scheduling delay / completion time; a 1 s time series; and the tables of
// the paper's simulation figures (extra slots needed). The report writers
// (text_report, json_report, csv_report, html_report) only read these.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spindle::windtunnel {

// One phase of a run (or the drain after it, or the whole run).
struct PhaseResult {
  std::string name;         // "1".."5", "drain" or "all"
  double fraction = 0;      // of the base rate R (0 for drain and all)
  double offered_rate = 0;  // tasks/s submitted by the workload
  double start_s = 0;
  double end_s = 0;
  int64_t submitted = 0;  // tasks submitted in the window
  int64_t committed = 0;  // tasks committed in the window
  double throughput = 0;  // committed / window length
  // Scheduling delay (ask -> commit) of the tasks committed in the window.
  double delay_mean_ms = 0;
  double delay_p50_ms = 0;
  double delay_p90_ms = 0;
  double delay_p99_ms = 0;
  double delay_max_ms = 0;
  // Uncommitted tasks (submitted, not yet committed) at the window's last
  // 1 s sample, and the largest sample in the window.
  int64_t backlog_end = 0;
  int64_t backlog_max = 0;
  int64_t conflicts = 0;
  double conflicts_per_s = 0;
  // Share of the committed tasks (whose job named preferred nodes) that
  // landed on a preferred node; mean score of the chosen nodes.
  double quality = 0;
  double mean_score = 0;
  // Mean of the 1 s samples of allocated / total slots.
  double utilisation = 0;
  // Jobs submitted in the window: how many, how many had all their tasks
  // committed (scheduled) and ended by the end of the run, job scheduling
  // delay (submit -> last task committed, JSD) and job completion time
  // (submit -> last task ended, JCT).
  int64_t jobs = 0;
  int64_t jobs_scheduled = 0;
  int64_t jobs_done = 0;
  double jsd_mean_ms = 0;
  double jsd_p99_ms = 0;
  double jct_mean_s = 0;
  double jct_p99_s = 0;
};

// One second of a run.
struct SeriesRow {
  int64_t second = 0;
  int phase = 0;  // 1-based; phases + 1 for the drain
  int64_t submitted = 0;
  int64_t committed = 0;
  int64_t conflicts = 0;
  int64_t backlog = 0;  // at the end of the second
  double utilisation = 0;
  double delay_p50_ms = 0;
  double delay_p90_ms = 0;
  double delay_p99_ms = 0;
  double quality = 0;
  double mean_score = 0;
  // Adaptive: schedulers deciding with quality-first at the sample (-1 for
  // other strategies).
  int quality_first_schedulers = -1;
};

// One mode (sync mode x strategy) of a run.
struct ModeResult {
  std::string label;  // "parsync/latency-first"
  std::string mode;   // "parsync"
  std::string strategy;
  std::string clock;  // "real" or "virtual"
  int schedulers = 0;
  std::vector<PhaseResult> phases;  // the workload's phases, then "drain"
  PhaseResult total;                // the whole run
  std::vector<SeriesRow> series;
  int64_t submitted = 0;
  int64_t committed = 0;
  int64_t uncommitted_at_end = 0;
  double last_commit_s = 0;  // when the last task was committed
  bool all_committed = false;
  int64_t decisions = 0;      // virtual clock: placed + conflicted claims
  double wall_seconds = 0;    // how long the run took on this machine
  bool invariants_ok = true;  // the cell's invariant sweep after the run
  // Staleness of the views (mean over steps, worst) of the pool's own
  // scheduler threads (or virtual steps), ms.
  double staleness_mean_ms = 0;
  double staleness_max_ms = 0;
  // RunSpec::remote_schedulers members of the cell-state service (0: every
  // scheduler is the pool's). Their wire: round trips, bytes both ways
  // (frames included), per second of the run and per member placement; and
  // the staleness of their views.
  int remote_members = 0;
  double remote_rtt_us = 0;  // virtual clock: the modelled round trip
  int64_t member_placements = 0;
  int64_t wire_calls = 0;
  int64_t wire_bytes = 0;
  double wire_bytes_per_s = 0;
  double wire_bytes_per_placement = 0;
  double member_staleness_mean_ms = 0;
  double member_staleness_max_ms = 0;
};

// Figures 2 and 3 of the paper: extra slots (beyond R x T) needed for the
// run to finish within 110% of its submission time, per x value and series.
struct FigureTable {
  std::string id;  // "2a", "3b", ...
  std::string title;
  std::string x_label;
  std::vector<double> xs;
  std::vector<std::string> series;
  // [series][x]: extra slots as a percentage of R x T; < 0 if even the
  // largest extra tried (max_percent) was not enough.
  std::vector<std::vector<double>> extra_percent;
  // [series][x]: the same in slots at the paper's full scale (R x T x %).
  std::vector<std::vector<double>> extra_slots;
  double max_percent = 0;
  // The values are means over this many seeds.
  int seeds = 1;
};

// A figure with one value per phase of the wind tunnel run and series (a
// mode): the paper's Figure 5, "Performance of ParSync and StateSync".
struct PhaseFigure {
  std::string id;  // "5a", "5b"
  std::string title;
  std::string metric;                       // "delay_mean_ms" or "quality"
  std::string unit;                         // of the values: "ms" or "share"
  std::vector<std::string> phases;          // "1@50%", ..., then "drain"
  std::vector<double> fractions;            // of R per phase (0 for the drain)
  std::vector<std::string> series;          // mode labels
  std::vector<std::vector<double>> values;  // [series][phase]
};

// One trend the paper reads off a figure, and whether this run shows it.
struct TrendCheck {
  std::string figure;  // "5a"
  std::string claim;   // the paper's finding, in short
  bool holds = false;
  std::string detail;  // the figures it was judged on
};

// A key/value of the run's settings, for the reports' headers.
struct Setting {
  std::string key;
  std::string value;
};

struct WindTunnelReport {
  std::string clock;  // "real" or "virtual"
  std::vector<Setting> settings;
  std::vector<ModeResult> modes;
  std::vector<FigureTable> figures;
  // Figure 5 (from `modes`, see figure5.h) and the paper's trends in it.
  std::vector<PhaseFigure> phase_figures;
  std::vector<TrendCheck> trends;
};

// The ratio of `mode`'s figure to the reference mode's, per phase.
struct RatioRow {
  std::string label;      // the mode
  std::string reference;  // the mode it is compared with
  std::string phase;
  double delay_p99 = 0;
  double delay_mean = 0;
  double conflicts = 0;
  double throughput = 0;
  double quality = 0;
  double jsd_mean = 0;
};

// Ratios of every mode to `reference` (the first mode when empty or not
// present), phase by phase, including "all". Ratios with a zero
// denominator are reported as 0.
std::vector<RatioRow> ComputeRatios(const WindTunnelReport& report, const std::string& reference);

}  // namespace spindle::windtunnel
