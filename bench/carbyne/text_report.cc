#include "bench/carbyne/text_report.h"

#include <cstdio>

namespace spindle::bench::carbyne {

namespace {

std::string Printf(const char* fmt, auto... args) {
  char buf[320];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  return buf;
}

}  // namespace

std::string FormatCluster(const ModelOptions& o) {
  return Printf(
      "%d machines x (%lld vcores, %lld GB), P(altruism) %.3g, Jain over %.4g s windows, "
      "seed %llu (virtual clock)\n",
      o.machines, static_cast<long long>(o.machine.vcores),
      static_cast<long long>(o.machine.memory_mb / 1024), o.p_altruism,
      static_cast<double>(o.fairness_window_ms) / 1000, static_cast<unsigned long long>(o.seed));
}

std::string FormatSetting(const ModelOptions& o) {
  std::string arrivals = o.interarrival_s > 0
                             ? Printf("Poisson arrivals every %.4g s on average", o.interarrival_s)
                             : std::string("all submitted at 0 (offline)");
  return Printf("%d jobs %s, 2-%d stages of 1-%d tasks of %.4g-%.4g s; ", o.jobs, arrivals.c_str(),
                o.max_stages, o.max_tasks, o.min_task_s, o.max_task_s) +
         FormatCluster(o);
}

std::string FormatTable(const std::vector<PolicyResult>& results) {
  std::string out =
      Printf("%-8s %9s %9s %8s %8s %8s %8s %6s %6s %7s %7s %7s\n", "policy", "makespan", "mean JCT",
             "p50", "p95", "x mkspan", "x JCT", "Jain", "min", "slowed", ">1.25x", "worst");
  for (const PolicyResult& r : results) {
    std::string vs = "       -        -";
    std::string slowed = "      -       -       -";
    if (r.has_drf) {
      vs = Printf("%8.3f %8.3f", r.makespan_factor, r.mean_jct_factor);
      slowed = Printf("%6.1f%% %6.1f%% %6.2fx", r.slowed_share * 100, r.badly_slowed_share * 100,
                      r.worst_slowdown);
    }
    // No window with two jobs: no index.
    const std::string jain = r.jain_windows > 0 ? Printf("%6.3f %6.3f", r.jain_mean, r.jain_min)
                                                : std::string("     -      -");
    out += Printf("%-8s %8.1fs %8.1fs %7.1fs %7.1fs %s %s %s\n", PolicyName(r.policy), r.makespan_s,
                  r.mean_jct_s, r.p50_jct_s, r.p95_jct_s, vs.c_str(), jain.c_str(), slowed.c_str());
  }
  if (!results.empty()) {
    out += Printf(
        "makespan lower bound %.1fs (work over capacity, or latest arrival + critical "
        "path); x = DRF's figure / the policy's\n",
        results.front().makespan_bound_s);
  }
  return out;
}

}  // namespace spindle::bench::carbyne
