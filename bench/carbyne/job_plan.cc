#include "bench/carbyne/job_plan.h"

#include <algorithm>
#include <limits>

namespace spindle::bench::carbyne {

namespace {

// Usage over time of one job's allocation: a step function of segments, the
// last one open-ended; time is relative to the plan's start.
class Profile {
 public:
  Profile(const Allocation& capacity) : capacity_(capacity) { segments_.push_back({0, {}}); }

  // The earliest start >= release at which `demand` fits for `length`.
  Time EarliestFit(Time release, Time length, const Resources& demand) const {
    Time start = release;
    size_t i = SegmentAt(start);
    while (true) {
      size_t j = i;
      bool fits = true;
      while (j < segments_.size() && segments_[j].start < start + length) {
        if (!Fits(segments_[j].used, demand)) {
          fits = false;
          break;
        }
        ++j;
      }
      if (fits) return start;
      // The last segment is empty (every interval ends), so j is not last.
      start = segments_[j + 1].start;
      i = j + 1;
    }
  }

  // `demand` is held over [start, end).
  void Add(Time start, Time end, const Resources& demand) {
    const size_t first = Split(start);
    const size_t last = Split(end);
    for (size_t i = first; i < last; ++i) segments_[i].used += demand;
  }

 private:
  struct Segment {
    Time start;
    Resources used;
  };

  bool Fits(const Resources& used, const Resources& demand) const {
    return static_cast<double>(used.memory_mb + demand.memory_mb) <= capacity_.memory_mb &&
           static_cast<double>(used.vcores + demand.vcores) <= capacity_.vcores;
  }
  size_t SegmentAt(Time t) const {
    auto it = std::upper_bound(segments_.begin(), segments_.end(), t,
                               [](Time v, const Segment& s) { return v < s.start; });
    return static_cast<size_t>(it - segments_.begin()) - 1;
  }
  // The index of the segment starting at t, splitting one if needed.
  size_t Split(Time t) {
    const size_t i = SegmentAt(t);
    if (segments_[i].start == t) return i;
    segments_.insert(segments_.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                     Segment{t, segments_[i].used});
    return i + 1;
  }

  Allocation capacity_;
  std::vector<Segment> segments_;
};

// The pending tasks of a stage, longest first (ties by index).
std::vector<int> LongestFirst(const StageSpec& spec, const StageState& st) {
  std::vector<int> order = st.pending;
  std::stable_sort(order.begin(), order.end(), [&spec](int a, int b) {
    return spec.durations[static_cast<size_t>(a)] > spec.durations[static_cast<size_t>(b)];
  });
  return order;
}

}  // namespace

JobPlan PlanJob(const JobSpec& job, const std::vector<StageState>& state,
                const Allocation& allocation, Time now) {
  const size_t stages = job.stages.size();
  Allocation cap = allocation;
  for (size_t s = 0; s < stages; ++s) {
    if (state[s].unfinished == 0) continue;
    cap.memory_mb = std::max(cap.memory_mb, static_cast<double>(job.stages[s].demand.memory_mb));
    cap.vcores = std::max(cap.vcores, static_cast<double>(job.stages[s].demand.vcores));
  }

  // Forward packing: T_k.
  Profile forward(cap);
  std::vector<Time> finish(stages, 0);
  for (size_t s = 0; s < stages; ++s) {
    for (Time end : state[s].running_end) {
      forward.Add(0, end - now, job.stages[s].demand);
      finish[s] = std::max(finish[s], end - now);
    }
  }
  Time completion = 0;
  for (size_t s = 0; s < stages; ++s) {
    const StageSpec& spec = job.stages[s];
    Time release = 0;
    for (int p : spec.parents) release = std::max(release, finish[static_cast<size_t>(p)]);
    for (int t : LongestFirst(spec, state[s])) {
      const Time d = spec.durations[static_cast<size_t>(t)];
      const Time start = forward.EarliestFit(release, d, spec.demand);
      forward.Add(start, start + d, spec.demand);
      finish[s] = std::max(finish[s], start + d);
    }
    completion = std::max(completion, finish[s]);
  }

  // Reverse packing from T_k: running tasks hold [T_k - left, T_k) in
  // reversed time; a stage starts (reversed) when its children are done.
  JobPlan plan;
  plan.completion = now + completion;
  plan.latest_start.resize(stages);
  Profile reverse(cap);
  for (size_t s = 0; s < stages; ++s) {
    for (Time end : state[s].running_end) {
      reverse.Add(completion - (end - now), completion, job.stages[s].demand);
    }
  }
  std::vector<Time> rev_finish(stages, 0);
  std::vector<Time> rev_release(stages, 0);
  for (size_t s = stages; s-- > 0;) {
    const StageSpec& spec = job.stages[s];
    plan.latest_start[s].assign(spec.durations.size(), std::numeric_limits<Time>::max());
    for (int t : LongestFirst(spec, state[s])) {
      const Time d = spec.durations[static_cast<size_t>(t)];
      const Time start = reverse.EarliestFit(rev_release[s], d, spec.demand);
      reverse.Add(start, start + d, spec.demand);
      rev_finish[s] = std::max(rev_finish[s], start + d);
      plan.latest_start[s][static_cast<size_t>(t)] = now + completion - (start + d);
    }
    for (int p : spec.parents) {
      rev_release[static_cast<size_t>(p)] =
          std::max(rev_release[static_cast<size_t>(p)], rev_finish[s]);
    }
  }
  return plan;
}

}  // namespace spindle::bench::carbyne
