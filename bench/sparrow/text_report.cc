#include "bench/sparrow/text_report.h"

#include <cstdio>

namespace spindle::bench::sparrow {

namespace {

std::string Printf(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  return buf;
}

double Millis(Duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

std::string FormatSetting(const ModelOptions& o) {
  std::string out = Printf(
      "%d nodes x %d slots, %d-task jobs, %s tasks of mean %.4g ms, load %.0f%% "
      "(%.1f jobs/s), d = %.3g, rtt %.4g ms, %d jobs (%.0f%% left out at each end), seed %llu",
      o.nodes, o.slots_per_node, o.tasks_per_job, DurationKindName(o.durations),
      Millis(o.mean_task), o.load * 100, o.JobRate(), o.probe_ratio, Millis(o.rtt), o.jobs,
      o.edge_share * 100, static_cast<unsigned long long>(o.seed));
  if (o.constrained_share > 0) {
    out += Printf(", %.0f%% of jobs constrained to %d preferred nodes per task",
                  o.constrained_share * 100, o.preferred_nodes);
  }
  return out + "\n";
}

std::string FormatTable(const std::vector<PolicyResult>& results) {
  const PolicyResult* omni = Find(results, PolicyKind::kOmniscient);
  std::string out = Printf("%-11s %8s %8s %8s %8s %8s %8s %9s %10s %9s %6s %6s\n", "policy",
                           "mean ms", "p50 ms", "p95 ms", "p99 ms", "mean/om", "p95/om", "wait ms",
                           "getTasks", "no-ops", "busy", "held");
  for (const PolicyResult& r : results) {
    std::string mean_ratio = "-";
    std::string p95_ratio = "-";
    if (omni != nullptr && omni->mean_ms > 0 && omni->p95_ms > 0) {
      mean_ratio = Printf("%.3f", r.mean_ms / omni->mean_ms);
      p95_ratio = Printf("%.3f", r.p95_ms / omni->p95_ms);
    }
    out +=
        Printf("%-11s %8.1f %8.1f %8.1f %8.1f %8s %8s %9.2f %10llu %9llu %5.1f%% %5.2f%%\n",
               PolicyName(r.policy), r.mean_ms, r.p50_ms, r.p95_ms, r.p99_ms, mean_ratio.c_str(),
               p95_ratio.c_str(), r.mean_task_wait_ms, static_cast<unsigned long long>(r.get_tasks),
               static_cast<unsigned long long>(r.no_ops), r.busy_share * 100, r.held_share * 100);
  }
  return out;
}

}  // namespace spindle::bench::sparrow
