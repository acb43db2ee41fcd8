// WireResult: what one `spindle bench wire` run measured, and the
// bookkeeping that says whether the run was sound; printed as a table and
// as JSON (BENCHMARKS.md). CheckBookkeeping is what the integration test
// asserts on: counts, never times.
//
// Thread-safety: values and functions over them.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/status.h"
#include "bench/wire/wire_options.h"
#include "scheduler_pool/metrics.h"

namespace spindle::bench::wire {

struct LatencySummary {
  int64_t count = 0;
  double p50_ms = 0, p99_ms = 0, max_ms = 0;

  static LatencySummary Of(const pool::LatencyHistogram& h);
};

// What the failover run (--kill-active-after) measured and lost.
struct FailoverResult {
  bool ran = false;
  std::string killed;          // the rm-id SIGKILLed, "rm1"
  std::string serving;         // the rm-id active at the end
  double kill_at_seconds = 0;  // into the window's start (t0)
  // SIGKILL (the RM reaped) to the first allocate answered OK, which only
  // the new active can give; -1 if none was.
  double failover_seconds = -1;
  // Containers kept by the AMs per second: from the end of the warm-up to
  // the kill, and from the first allocate after the kill to the end of
  // the window.
  double containers_per_second_before = 0;
  double containers_per_second_after = 0;
  int64_t apps_lost = 0;  // acknowledged, unknown to the RM at the end
  // getNewApplication answers naming an id this run already had (counted
  // as an RPC error too), and the distinct cluster timestamps of the
  // acknowledged applications' ids (one per RM activation that took any).
  int64_t app_ids_reused = 0;
  int64_t cluster_timestamps = 0;
  int64_t finishes_unanswered = 0;  // see AmContext::finishes_unanswered
  int64_t am_resyncs = 0;        // AMs registered again (ApplicationMasterNotRegistered, AM_RESYNC)
  int64_t client_failovers = 0;  // the generator's RPC targets moved
  // Ids an AM got before its resync handed out again after it (the new RM
  // recovered them); not kept twice, not a double allocation.
  int64_t containers_redelivered = 0;
  // Released after a resync, allocated by the dead RM, never reported
  // completed by the new one (it did not know them: never started).
  int64_t containers_unconfirmed = 0;
  // nodeHeartbeat calls that failed during the failover (the nodes fail
  // over and resync, as NodeStatusUpdaterImpl does); not an error here.
  int64_t heartbeat_errors = 0;
  int64_t zk_timeout_ms = 0;
};

struct WireResult {
  // ---- the set-up ----
  std::string target;           // "spindle rm (child)" or the --rm addresses
  double register_seconds = 0;  // all nodes registered, from the agent's start
  double window_seconds = 0;    // the measured window (--seconds minus the warm-up)

  // ---- rates over the window ----
  double containers_per_second = 0;  // allocated to AMs, end to end
  double heartbeats_per_second = 0;  // node heartbeats answered
  double allocate_calls_per_second = 0;
  // Apache's RM hands out at most one container at ANY per node heartbeat:
  // nodes x 1000 / heartbeat-ms.
  double hadoop_ceiling_per_second = 0;

  // ---- latencies (allocate and heartbeat over the window; the rest over all apps) ----
  LatencySummary allocate;         // allocate RPC, call to answer
  LatencySummary heartbeat;        // nodeHeartbeat RPC
  LatencySummary am_register;      // registerApplicationMaster RPC
  LatencySummary am_launch;        // submitApplication sent -> AM registered
  LatencySummary first_container;  // first ask sent -> first container received

  // ---- the web side, over the window (--web-scrapers; 0 without) ----
  double web_requests_per_second = 0;
  LatencySummary web;  // GET to full answer
  int64_t web_errors = 0;

  // ---- processes, over the window (rm_* are 0 when the RM's pid is unknown) ----
  double rm_cpu_percent = 0;  // of one core
  double rm_rss_mb = 0, rm_peak_rss_mb = 0;
  double generator_cpu_percent = 0;
  double generator_rss_mb = 0;

  // ---- bookkeeping (whole run) ----
  int64_t apps_submitted = 0;        // submitApplication answered OK
  int64_t apps_registered = 0;       // AM registered
  int64_t apps_unregistered = 0;     // AM finished and the RM confirmed it
  int64_t apps_failed = 0;           // AM failed (its reason in am_failures)
  int64_t apps_finished = 0;         // the RM reports FINISHED / SUCCEEDED at the end
  int64_t apps_not_finished = 0;     // any other final report, or none in time
  int64_t containers_allocated = 0;  // kept by the AMs (at most containers-per-app each)
  int64_t containers_excess = 0;     // beyond the ask, released at once
  int64_t containers_released = 0;
  int64_t containers_completed = 0;   // released ones the RM reported completed
  int64_t containers_duplicated = 0;  // one id allocated twice
  int64_t unexpected_completions = 0;
  int64_t containers_outstanding = 0;  // held or awaiting completion at the end
  int64_t heartbeat_errors = 0;
  // registerApplicationMaster retried because the attempt was not LAUNCHED
  // yet (SimulatedAm); not an error.
  int64_t register_retries = 0;
  // Attempt reports that showed a managed AM's attempt not yet LAUNCHED
  // before its AM registered (the driver waits for LAUNCHED); not an error.
  int64_t launch_waits = 0;
  std::map<std::string, int64_t> rpc_errors;   // "method: error" -> count
  std::map<std::string, int64_t> am_failures;  // reason -> count

  // ---- the failover run (--kill-active-after; zeros otherwise) ----
  FailoverResult failover;
};

// OK iff the run is consistent: at least one application ran; every
// submitted application registered, unregistered and is FINISHED/SUCCEEDED
// in the RM's report; every container an AM kept was one of its ask, was
// released and reported completed exactly once (released = kept + excess =
// completed, none outstanding, none duplicated, no stray completion); no RPC
// failed. Otherwise Aborted listing every inconsistency. In the failover
// run, also: an allocate was answered after the kill, no acknowledged
// application was lost, and released = completed + unconfirmed (the
// heartbeats that failed while the nodes failed over are not errors).
Status CheckBookkeeping(const WireOptions& options, const WireResult& result);

// The most heartbeats/s the nodes can offer: nodes x 1000 / heartbeat_ms,
// reached only if the RM answered instantly (each node waits the interval
// after its answer, as NodeStatusUpdaterImpl does).
double HeartbeatsOfferedPerSecond(const WireOptions& options);

// The human table (with the targets and Hadoop's ceiling beside the rates).
void PrintWireResult(const WireOptions& options, const WireResult& result);

// The same figures as JSON, to `path`.
Status WriteWireJson(const std::string& path, const WireOptions& options, const WireResult& result);

}  // namespace spindle::bench::wire
