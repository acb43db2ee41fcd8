#include "bench/carbyne/experiment.h"

#include <glog/logging.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "bench/carbyne/simulation.h"

namespace spindle::bench::carbyne {

namespace {

// Nearest-rank percentile of a sorted, non-empty vector.
double Percentile(const std::vector<double>& sorted, double p) {
  const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

PolicyResult RunOne(const ModelOptions& options, const std::vector<JobSpec>& jobs,
                    PolicyKind policy) {
  Simulation sim(options, jobs, policy);
  sim.Run();
  PolicyResult r;
  r.policy = policy;
  std::vector<double> jct_s;
  Time makespan = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const Time finish = sim.Finish()[j];
    makespan = std::max(makespan, finish);
    r.jct_ms.push_back(finish - jobs[j].arrival);
    jct_s.push_back(static_cast<double>(finish - jobs[j].arrival) / 1000);
  }
  r.makespan_s = static_cast<double>(makespan) / 1000;
  r.mean_jct_s =
      std::accumulate(jct_s.begin(), jct_s.end(), 0.0) / static_cast<double>(jct_s.size());
  std::sort(jct_s.begin(), jct_s.end());
  r.p50_jct_s = Percentile(jct_s, 50);
  r.p95_jct_s = Percentile(jct_s, 95);
  const std::vector<double>& jain = sim.JainPerWindow();
  r.jain_windows = static_cast<int>(jain.size());
  if (!jain.empty()) {
    double total = 0;
    r.jain_min = jain.front();
    for (double v : jain) {
      total += v;
      r.jain_min = std::min(r.jain_min, v);
    }
    r.jain_mean = total / static_cast<double>(jain.size());
  }
  r.passes = sim.Passes();
  r.plans = sim.Plans();
  r.leftover_placements = sim.LeftoverPlacements();
  return r;
}

double MakespanBound(const ModelOptions& options, const std::vector<JobSpec>& jobs) {
  double mem_work = 0;
  double vcore_work = 0;
  Time path_bound = 0;
  for (const JobSpec& job : jobs) {
    std::vector<Time> path(job.stages.size(), 0);
    for (size_t s = 0; s < job.stages.size(); ++s) {
      const StageSpec& stage = job.stages[s];
      Time start = 0;
      for (int p : stage.parents) start = std::max(start, path[static_cast<size_t>(p)]);
      Time longest = 0;
      for (Time d : stage.durations) {
        longest = std::max(longest, d);
        mem_work += static_cast<double>(d) * static_cast<double>(stage.demand.memory_mb);
        vcore_work += static_cast<double>(d) * static_cast<double>(stage.demand.vcores);
      }
      path[s] = start + longest;
      path_bound = std::max(path_bound, job.arrival + path[s]);
    }
  }
  const double machines = options.machines;
  const double work_ms =
      std::max(mem_work / (machines * static_cast<double>(options.machine.memory_mb)),
               vcore_work / (machines * static_cast<double>(options.machine.vcores)));
  return std::max(work_ms, static_cast<double>(path_bound)) / 1000;
}

void CompareWithDrf(const PolicyResult& drf, PolicyResult& r) {
  r.has_drf = true;
  r.makespan_factor = drf.makespan_s / r.makespan_s;
  r.mean_jct_factor = drf.mean_jct_s / r.mean_jct_s;
  int slowed = 0;
  int badly = 0;
  r.worst_slowdown = 0;
  for (size_t j = 0; j < r.jct_ms.size(); ++j) {
    const double ratio = static_cast<double>(r.jct_ms[j]) / static_cast<double>(drf.jct_ms[j]);
    r.worst_slowdown = std::max(r.worst_slowdown, ratio);
    if (ratio > kSlowedTolerance) ++slowed;
    if (ratio > kBadlySlowed) ++badly;
  }
  const auto n = static_cast<double>(r.jct_ms.size());
  r.slowed_share = slowed / n;
  r.badly_slowed_share = badly / n;
}

}  // namespace

Result<std::vector<PolicyResult>> RunPoliciesOn(const ModelOptions& options,
                                                const std::vector<JobSpec>& jobs,
                                                const std::vector<PolicyKind>& policies) {
  RETURN_NOT_OK(options.Validate());
  if (jobs.empty()) return Status::InvalidArgument("no jobs");
  RETURN_NOT_OK(ValidateJobs(jobs, options));
  std::vector<PolicyResult> out;
  out.reserve(policies.size());
  for (PolicyKind p : policies) out.push_back(RunOne(options, jobs, p));
  const PolicyResult* drf = Find(out, PolicyKind::kDrf);
  PolicyResult unlisted;
  if (drf == nullptr) {
    unlisted = RunOne(options, jobs, PolicyKind::kDrf);
    drf = &unlisted;
  }
  const double bound = MakespanBound(options, jobs);
  for (PolicyResult& r : out) {
    CompareWithDrf(*drf, r);
    r.makespan_bound_s = bound;
  }
  return out;
}

Result<std::vector<PolicyResult>> RunPolicies(const ModelOptions& options,
                                              const std::vector<PolicyKind>& policies) {
  RETURN_NOT_OK(options.Validate());
  return RunPoliciesOn(options, GenerateWorkload(options), policies);
}

const PolicyResult* Find(const std::vector<PolicyResult>& results, PolicyKind policy) {
  for (const PolicyResult& r : results) {
    if (r.policy == policy) return &r;
  }
  return nullptr;
}

}  // namespace spindle::bench::carbyne
