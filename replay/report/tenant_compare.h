// TenantCompare: "what changes for my tenants if I swap": two staging-cell
// runs of the same trace (one against the operator's RM through `--rm`,
// one against Spindle), read back from their report.json, side by side per
// tenant (queue, and user within a queue): memory held over time (mean over
// the run, over its second half, while all of the queue's users had work,
// and peak),
// AMs running, applications pending, preemptions, and the difference B - A.
// `spindle replay compare` prints it and writes the aligned time series.
//
// Thread-safety: functions over values.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "replay/report/replay_result.h"

namespace spindle::replay {

// One run as the comparison needs it.
struct TenantRun {
  std::string name;  // the file it came from
  std::string label;
  std::string rm;
  std::vector<TenantSample> samples;
  int64_t jobs_submitted = 0;
  int64_t jobs_rejected = 0;
  int64_t jobs_finished = 0;
  std::vector<std::string> rejections;
  std::vector<std::string> violations;
};

// The first mode of a report.json (ToJson's form); `name` labels errors.
// Corruption naming the field when the document is not a replay report,
// InvalidArgument when it has no tenant samples (not a staging cell run).
Result<TenantRun> ParseTenantRun(const std::string& name, const std::string& json);
// The same, from a file (NotFound / IoError when it cannot be read).
Result<TenantRun> ReadTenantRun(const std::string& path);

// One tenant's figures in one run.
struct TenantFigures {
  double mean_memory_mb = 0;       // over every sample of the run
  double late_mean_memory_mb = 0;  // over the samples of the run's second half
  // Over the samples in which every user of the queue seen in the run had
  // an application (running or pending): the contended share a user limit
  // decides. -1 when there was no such sample.
  double contended_mean_memory_mb = -1;
  int64_t peak_memory_mb = 0;
  int64_t max_apps_running = 0;
  int64_t max_apps_pending = 0;
  int64_t max_scheduler_apps_pending = -1;  // queue rows; -1: not reported
  int64_t preempted = 0;                    // by the end
  int64_t preemption_messages = 0;
};

struct TenantComparison {
  std::string queue;
  std::string user;  // empty: the queue
  TenantFigures a;
  TenantFigures b;
};

// Every tenant either run saw, queues before their users, in name order.
std::vector<TenantComparison> CompareTenants(const TenantRun& a, const TenantRun& b);

// The terminal table: the runs, then one row per tenant with A, B and B-A.
std::string ToCompareTable(const TenantRun& a, const TenantRun& b,
                           const std::vector<TenantComparison>& rows);

// The time series aligned on A's sample times (B's latest sample at or
// before each): at_s, queue, user, then a_/b_ memory_mb, apps_running,
// apps_pending, preempted.
std::string ToCompareCsv(const TenantRun& a, const TenantRun& b);

}  // namespace spindle::replay
