// The figures of a replay, as plain values: per mode (a policy or driver
// compared in the run) a summary, distributions with their CDFs, a 1 s
// time series and per-queue shares with Jain's fairness index over
// windows. The report writers (text, JSON, CSV, HTML) only read these.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spindle::replay {

struct SampleSummary {
  int64_t count = 0;
  double mean = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  double max = 0;
  // (value, fraction of samples <= value), ascending; at most ~200 points.
  std::vector<std::pair<double, double>> cdf;
};

// Summarises `values` (sorted in place).
SampleSummary Summarize(std::vector<double>* values);

struct ReplaySeriesRow {
  int64_t second = 0;
  int64_t jobs_submitted = 0;
  int64_t asked = 0;
  int64_t placed = 0;
  int64_t ended = 0;
  int64_t conflicts = 0;
  int64_t backlog = 0;            // asked and not placed, at the end of the second
  int64_t running = 0;            // placed and not ended, at the end of the second
  double utilisation_memory = 0;  // mean over the second, 0..1
  double utilisation_vcores = 0;
  double delay_p50_ms = 0;  // of the tasks placed in the second
  double delay_p99_ms = 0;
  double quality = -1;  // -1: no task with a preference placed
};

// One fairness window.
struct FairnessWindow {
  double start_s = 0;
  double end_s = 0;
  // Per queue (ReplayModeResult::queues): mean share of the cluster's
  // memory it held in the window (0..1).
  std::vector<double> share;
  // Jain's index over share / guaranteed of the queues that had demand in
  // the window (1 = perfectly fair); -1 if fewer than two had.
  double jain = -1;
};

// What one tenant held at a sample of the RM (staging cell): a queue
// (user empty) or one user in a queue. Read from the RM's own application
// reports, so a Java RM and Spindle are measured the same way.
struct TenantRow {
  std::string queue;
  std::string user;  // empty: the whole queue
  int64_t memory_mb = 0;
  int64_t vcores = 0;
  int64_t containers = 0;
  // Applications whose AM runs (RUNNING: the AM registered).
  int64_t apps_running = 0;
  // Applications accepted and waiting for their AM (SUBMITTED, ACCEPTED):
  // what an AM limit or a full queue holds back.
  int64_t apps_pending = 0;
  // Containers reported PREEMPTED (exit status -102) to the tenant's AMs so
  // far, and PreemptionMessages they received so far.
  int64_t preempted = 0;
  int64_t preemption_messages = 0;
  // Queue rows only: the scheduler's own counts from getQueueInfo's
  // QueueStatistics (numAppsRunning / numAppsPending: apps it activated
  // and apps it holds back, e.g. behind the AM limit, even with their AMs
  // registered); -1 where the RM reports none (Hadoop 2.6 / 2.7).
  int64_t scheduler_apps_running = -1;
  int64_t scheduler_apps_pending = -1;
};

// What one application (a trace job: the cell names each application after
// its job) held at a sample: the per-job checks of the fidelity figure.
struct JobHolding {
  std::string job;
  int64_t memory_mb = 0;
};

struct TenantSample {
  double at_s = 0;              // trace time
  std::vector<TenantRow> rows;  // queues and users with anything to show
  // Applications not ended, by job, in name order; `jobs_counted` false:
  // the sample says nothing about jobs (a report.json written before the
  // census counted them), so a job's absence does not mean it held nothing.
  std::vector<JobHolding> jobs;
  bool jobs_counted = false;
};

// What a cell's clients and AMs saw of the RMs they drove as an HA pair
// (cell with several RMs; `ha` false otherwise).
struct RmFailoverSummary {
  bool ha = false;
  // The rm-ids, in order ("rm1,rm2").
  std::string rm_ids;
  // Proxies moved to the next rm-id (StandbyException or a lost
  // connection): the cell's client calls, and its AMs' calls.
  int64_t client_failovers = 0;
  int64_t am_failovers = 0;
  // AMs that registered again (ApplicationMasterNotRegisteredException or
  // AM_RESYNC from the new active).
  int64_t am_resyncs = 0;
  // Submissions sent again because the new active did not know the
  // application (YarnClientImpl's re-submit).
  int64_t resubmissions = 0;
  // AMs whose finishApplicationMaster the new active refused with
  // InvalidToken and whose application the RM then reported FINISHED: the
  // old active stored the unregistration but died before answering, and the
  // new one does not recover a finished attempt's AMRMToken (see
  // StagingCell::HeartbeatAms).
  int64_t finishes_seen_in_report = 0;
  // Trace seconds of the first failover any proxy made; -1: none.
  double first_failover_s = -1;
  // The rm-id the cell's client calls went to at the end.
  std::string serving_at_end;
};

struct ReplayModeResult {
  std::string label;   // "parsync:latency-first"
  std::string driver;  // "windtunnel" or "cell"
  double wall_seconds = 0;
  double end_s = 0;  // trace time the run stopped
  int64_t jobs_submitted = 0;
  int64_t jobs_rejected = 0;
  int64_t jobs_finished = 0;
  int64_t tasks_asked = 0;
  int64_t tasks_placed = 0;
  int64_t tasks_ended = 0;
  SampleSummary delay_ms;  // task scheduling delay, asked -> placed
  SampleSummary jct_s;     // job completion time, submitted -> finished
  double quality = -1;     // share on preferred nodes; -1: none had a preference
  int64_t conflicts = 0;
  double conflicts_per_s = 0;
  double utilisation_memory = 0;  // mean over the run
  double utilisation_vcores = 0;
  double makespan_s = 0;  // first submission -> last job finished
  double jain_mean = -1;  // over windows with an index
  double jain_min = -1;
  std::vector<std::string> queues;
  std::vector<double> queue_guaranteed;
  std::vector<ReplaySeriesRow> series;
  std::vector<FairnessWindow> windows;
  // The RM the run drove (cell): "spindle rm started by the cell" or
  // "--rm host:port,..." with its Hadoop line.
  std::string rm;
  RmFailoverSummary failover;
  // Per-tenant samples over time (cell; empty in the wind tunnel).
  std::vector<TenantSample> tenants;
  // Jobs the RM refused, with its reason ("job_3: unknown queue x").
  std::vector<std::string> rejections;
  // Problems the driver saw (a task run twice, a job over its queue's
  // limit, ...): the run's own checks. Empty when all held.
  std::vector<std::string> violations;
  // The run was stopped (SIGINT/SIGTERM) before its end: its figures cover
  // the trace up to end_s only.
  bool cut = false;
};

struct ReplaySetting {
  std::string key;
  std::string value;
};

struct ReplayReport {
  std::string title;  // "spindle replay: inputsls.json (sls)"
  std::vector<ReplaySetting> settings;
  // What reading the input took liberties with, by reason and count
  // ("12 task rows dropped: task with no plan_cpu/plan_mem ..."; records
  // skipped under --skip-bad with the first errors): the trace as read, not
  // a fault of the run.
  std::vector<std::string> warnings;
  std::vector<ReplayModeResult> modes;
  // Policies of the run not replayed, each with why: "statesync (stopped
  // before it)" (SIGINT/SIGTERM), "statesync (not yet run)" (the report of
  // a comparison still running).
  std::vector<std::string> not_run;
};

}  // namespace spindle::replay
