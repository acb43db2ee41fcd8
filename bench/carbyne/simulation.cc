#include "bench/carbyne/simulation.h"

#include <glog/logging.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "bench/carbyne/drf_share.h"

namespace spindle::bench::carbyne {

namespace {

constexpr Time kNever = std::numeric_limits<Time>::max();
// The smallest task the generator and ValidateJobs allow: a machine with
// less free than this takes nothing.
constexpr Resources kSmallestTask{1, 1};

}  // namespace

Simulation::Simulation(const ModelOptions& options, const std::vector<JobSpec>& jobs,
                       PolicyKind policy)
    : options_(options),
      jobs_(jobs),
      policy_(policy),
      total_{options.machine.memory_mb * options.machines,
             options.machine.vcores * options.machines},
      coin_(options.seed ^ 0x9e3779b97f4a7c15ULL),
      free_(static_cast<size_t>(options.machines), options.machine),
      state_(jobs.size()),
      finish_(jobs.size(), kNever),
      window_used_(jobs.size(), 0),
      window_fair_(jobs.size(), 0) {
  for (int m = 0; m < options.machines; ++m) open_.push_back(m);
  for (size_t j = 0; j < jobs.size(); ++j) {
    JobState& st = state_[j];
    const JobSpec& spec = jobs[j];
    st.stages.resize(spec.stages.size());
    st.stages_left = static_cast<int>(spec.stages.size());
    for (size_t s = 0; s < spec.stages.size(); ++s) {
      const StageSpec& stage = spec.stages[s];
      StageState& ss = st.stages[s];
      ss.unfinished = static_cast<int>(stage.durations.size());
      ss.parents_left = static_cast<int>(stage.parents.size());
      for (size_t t = 0; t < stage.durations.size(); ++t) {
        ss.pending.push_back(static_cast<int>(t));
        st.remaining_demand += stage.demand;
        st.remaining_work +=
            static_cast<double>(stage.durations[t]) * DominantShare(stage.demand, options.machine);
      }
    }
  }
}

void Simulation::Run() {
  size_t next_arrival = 0;
  size_t done = 0;
  while (done < jobs_.size()) {
    const Time arrival = next_arrival < jobs_.size() ? jobs_[next_arrival].arrival : kNever;
    const Time completion = running_.empty() ? kNever : running_.front().end;
    const Time t = std::min(arrival, completion);
    CHECK_NE(t, kNever) << "jobs left but nothing runs nor arrives";
    Account(t);
    now_ = t;
    const size_t active_before = active_.size();
    bool jobs_changed = false;
    while (!running_.empty() && running_.front().end == t) {
      std::pop_heap(running_.begin(), running_.end(), Later());
      const Running task = running_.back();
      running_.pop_back();
      Complete(task);
    }
    if (active_.size() != active_before || stage_done_) jobs_changed = true;
    stage_done_ = false;
    done += active_before - active_.size();
    while (next_arrival < jobs_.size() && jobs_[next_arrival].arrival == t) {
      Arrive(static_cast<int>(next_arrival++));
      jobs_changed = true;
    }
    if (jobs_changed) RecomputeFairShares();
    Schedule();
  }
  Account(now_ + (options_.fairness_window_ms - (now_ - window_start_)));
}

void Simulation::Arrive(int job) { active_.push_back(job); }

void Simulation::Complete(const Running& task) {
  JobState& st = state_[static_cast<size_t>(task.job)];
  const StageSpec& spec =
      jobs_[static_cast<size_t>(task.job)].stages[static_cast<size_t>(task.stage)];
  StageState& ss = st.stages[static_cast<size_t>(task.stage)];
  free_[static_cast<size_t>(task.machine)] += spec.demand;
  UpdateOpen(task.machine);
  st.used -= spec.demand;
  st.remaining_demand -= spec.demand;
  auto it = std::find(ss.running_end.begin(), ss.running_end.end(), task.end);
  CHECK(it != ss.running_end.end());
  ss.running_end.erase(it);
  if (--ss.unfinished > 0) return;
  stage_done_ = true;
  // The stage is done: its children may become runnable.
  const std::vector<StageSpec>& stages = jobs_[static_cast<size_t>(task.job)].stages;
  for (size_t c = static_cast<size_t>(task.stage) + 1; c < stages.size(); ++c) {
    for (int p : stages[c].parents) {
      if (p == task.stage) --st.stages[c].parents_left;
    }
  }
  if (--st.stages_left > 0) return;
  finish_[static_cast<size_t>(task.job)] = now_;
  active_.erase(std::find(active_.begin(), active_.end(), task.job));
}

void Simulation::RecomputeFairShares() {
  std::vector<Resources> demands;
  demands.reserve(active_.size());
  for (int j : active_) {
    const JobState& st = state_[static_cast<size_t>(j)];
    const JobSpec& spec = jobs_[static_cast<size_t>(j)];
    Resources asks = st.used;
    for (size_t s = 0; s < spec.stages.size(); ++s) {
      if (st.stages[s].parents_left > 0) continue;
      for (size_t n = 0; n < st.stages[s].pending.size(); ++n) asks += spec.stages[s].demand;
    }
    demands.push_back(asks);
  }
  const std::vector<Allocation> shares = DrfShares(demands, total_);
  for (size_t i = 0; i < active_.size(); ++i) {
    JobState& st = state_[static_cast<size_t>(active_[i])];
    const double before = std::max(st.fair.memory_mb / static_cast<double>(total_.memory_mb),
                                   st.fair.vcores / static_cast<double>(total_.vcores));
    st.fair = shares[i];
    const double after = std::max(st.fair.memory_mb / static_cast<double>(total_.memory_mb),
                                  st.fair.vcores / static_cast<double>(total_.vcores));
    // §4.2: the AM recomputes its altruism when its share changes.
    if (std::abs(after - before) > 0.1 * before) st.plan_valid = false;
  }
}

void Simulation::Account(Time until) {
  while (now_ < until) {
    const Time window_end = window_start_ + options_.fairness_window_ms;
    const Time step_end = std::min(until, window_end);
    const auto dt = static_cast<double>(step_end - now_);
    for (int j : active_) {
      const JobState& st = state_[static_cast<size_t>(j)];
      if (window_used_[static_cast<size_t>(j)] == 0 && window_fair_[static_cast<size_t>(j)] == 0) {
        window_jobs_.push_back(j);
      }
      window_used_[static_cast<size_t>(j)] += dt * DominantShare(st.used, total_);
      window_fair_[static_cast<size_t>(j)] +=
          dt * std::max(st.fair.memory_mb / static_cast<double>(total_.memory_mb),
                        st.fair.vcores / static_cast<double>(total_.vcores));
    }
    now_ = step_end;
    if (step_end == window_end) CloseWindow();
  }
}

void Simulation::CloseWindow() {
  double sum = 0;
  double sum_sq = 0;
  int n = 0;
  for (int j : window_jobs_) {
    const size_t k = static_cast<size_t>(j);
    if (window_fair_[k] > 0) {
      const double x = window_used_[k] / window_fair_[k];
      sum += x;
      sum_sq += x * x;
      ++n;
    }
    window_used_[k] = 0;
    window_fair_[k] = 0;
  }
  window_jobs_.clear();
  if (n >= 2 && sum_sq > 0) jain_.push_back(sum * sum / (n * sum_sq));
  window_start_ += options_.fairness_window_ms;
}

void Simulation::Schedule() {
  ++passes_;
  switch (policy_) {
    case PolicyKind::kDrf:
      ScheduleDrf(std::vector<char>(jobs_.size(), 0));
      return;
    case PolicyKind::kCarbyne: {
      std::vector<char> altruistic(jobs_.size(), 0);
      for (int j : active_) {
        const bool yields = options_.p_altruism >= 1 ||
                            (options_.p_altruism > 0 && coin_.NextDouble() < options_.p_altruism);
        if (!yields) continue;
        altruistic[static_cast<size_t>(j)] = 1;
        JobState& st = state_[static_cast<size_t>(j)];
        if (!st.plan_valid) {
          st.plan = PlanJob(jobs_[static_cast<size_t>(j)], st.stages, st.fair, now_);
          st.plan_valid = true;
          ++plans_;
        }
      }
      ScheduleDrf(altruistic);
      PlaceInSrtfOrder(/*by_alignment=*/true);
      return;
    }
    case PolicyKind::kTetris:
      ScheduleTetris();
      return;
    case PolicyKind::kSrtf:
      PlaceInSrtfOrder(/*by_alignment=*/false);
      return;
  }
}

int Simulation::Candidate(int job, int s, bool altruistic) const {
  const JobState& st = state_[static_cast<size_t>(job)];
  const StageState& ss = st.stages[static_cast<size_t>(s)];
  if (ss.parents_left > 0 || ss.pending.empty()) return -1;
  if (!altruistic) return ss.pending.front();
  const std::vector<Time>& latest = st.plan.latest_start[static_cast<size_t>(s)];
  for (int t : ss.pending) {
    if (latest[static_cast<size_t>(t)] <= now_) return t;
  }
  return -1;
}

void Simulation::ScheduleDrf(const std::vector<char>& altruistic) {
  // Progressive filling: the job with the lowest dominant share (ties:
  // arrival order) places its next task; a stage whose task fits no machine
  // is skipped for the rest of the pass; a job with nothing left to offer
  // leaves the pass. A min-heap of (share, position in active_).
  using Entry = std::pair<double, size_t>;
  std::vector<Entry> heap;
  heap.reserve(active_.size());
  for (size_t i = 0; i < active_.size(); ++i) {
    heap.emplace_back(DominantShare(state_[static_cast<size_t>(active_[i])].used, total_), i);
  }
  std::make_heap(heap.begin(), heap.end(), std::greater<>());
  std::vector<std::vector<char>> blocked(active_.size());
  while (!open_.empty() && !heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const size_t i = heap.back().second;
    heap.pop_back();
    const int job = active_[i];
    const JobSpec& spec = jobs_[static_cast<size_t>(job)];
    std::vector<char>& stage_blocked = blocked[i];
    stage_blocked.resize(spec.stages.size(), 0);
    for (size_t s = 0; s < spec.stages.size(); ++s) {
      if (stage_blocked[s]) continue;
      const int task = Candidate(job, static_cast<int>(s), altruistic[static_cast<size_t>(job)]);
      if (task < 0) continue;
      const int machine = FirstFit(spec.stages[s].demand);
      if (machine < 0) {
        stage_blocked[s] = 1;
        continue;
      }
      Place(job, static_cast<int>(s), task, machine);
      heap.emplace_back(DominantShare(state_[static_cast<size_t>(job)].used, total_), i);
      std::push_heap(heap.begin(), heap.end(), std::greater<>());
      break;
    }
  }
}

std::vector<int> Simulation::BySrtf() const {
  std::vector<int> order = active_;
  std::stable_sort(order.begin(), order.end(), [this](int a, int b) {
    return state_[static_cast<size_t>(a)].remaining_work <
           state_[static_cast<size_t>(b)].remaining_work;
  });
  return order;
}

void Simulation::PlaceInSrtfOrder(bool by_alignment) {
  for (int job : BySrtf()) {
    const JobSpec& spec = jobs_[static_cast<size_t>(job)];
    for (size_t s = 0; s < spec.stages.size() && !open_.empty(); ++s) {
      const Resources& demand = spec.stages[s].demand;
      for (int task = Candidate(job, static_cast<int>(s), false); task >= 0 && !open_.empty();
           task = Candidate(job, static_cast<int>(s), false)) {
        const int machine = by_alignment ? BestAligned(demand) : FirstFit(demand);
        if (machine < 0) break;
        Place(job, static_cast<int>(s), task, machine);
        if (by_alignment) ++leftover_placements_;
      }
    }
  }
}

void Simulation::ScheduleTetris() {
  // Each machine with room, in index order (a heartbeat each), takes the
  // runnable task best aligned with its free resources until none fits.
  // Ties: the job with less remaining work, then arrival and stage order.
  const std::vector<int> machines = open_;
  const std::vector<int> order = BySrtf();
  for (int m : machines) {
    while (true) {
      int best_job = -1;
      int best_stage = -1;
      double best_score = -1;
      for (int job : order) {
        const JobSpec& spec = jobs_[static_cast<size_t>(job)];
        for (size_t s = 0; s < spec.stages.size(); ++s) {
          if (Candidate(job, static_cast<int>(s), false) < 0) continue;
          const Resources& d = spec.stages[s].demand;
          if (!d.FitsIn(free_[static_cast<size_t>(m)])) continue;
          const double score = Alignment(m, d);
          if (score > best_score) {
            best_score = score;
            best_job = job;
            best_stage = static_cast<int>(s);
          }
        }
      }
      if (best_job < 0) break;
      Place(best_job, best_stage, Candidate(best_job, best_stage, false), m);
    }
  }
}

int Simulation::FirstFit(const Resources& demand) const {
  for (int m : open_) {
    if (demand.FitsIn(free_[static_cast<size_t>(m)])) return m;
  }
  return -1;
}

double Simulation::Alignment(int machine, const Resources& demand) const {
  // Tetris's score: the dot product of the task's demand and the machine's
  // free resources, each normalised by the machine's capacity.
  const Resources& f = free_[static_cast<size_t>(machine)];
  const auto mem = static_cast<double>(options_.machine.memory_mb);
  const auto vc = static_cast<double>(options_.machine.vcores);
  return static_cast<double>(demand.memory_mb) / mem * static_cast<double>(f.memory_mb) / mem +
         static_cast<double>(demand.vcores) / vc * static_cast<double>(f.vcores) / vc;
}

int Simulation::BestAligned(const Resources& demand) const {
  int best = -1;
  double best_score = -1;
  for (int m : open_) {
    if (!demand.FitsIn(free_[static_cast<size_t>(m)])) continue;
    const double score = Alignment(m, demand);
    if (score > best_score) {
      best = m;
      best_score = score;
    }
  }
  return best;
}

void Simulation::Place(int job, int s, int task, int machine) {
  JobState& st = state_[static_cast<size_t>(job)];
  const StageSpec& spec = jobs_[static_cast<size_t>(job)].stages[static_cast<size_t>(s)];
  StageState& ss = st.stages[static_cast<size_t>(s)];
  ss.pending.erase(std::find(ss.pending.begin(), ss.pending.end(), task));
  const Time end = now_ + spec.durations[static_cast<size_t>(task)];
  ss.running_end.push_back(end);
  st.used += spec.demand;
  st.remaining_work -= static_cast<double>(spec.durations[static_cast<size_t>(task)]) *
                       DominantShare(spec.demand, options_.machine);
  free_[static_cast<size_t>(machine)] -= spec.demand;
  UpdateOpen(machine);
  running_.push_back(Running{end, seq_++, job, s, machine});
  std::push_heap(running_.begin(), running_.end(), Later());
}

void Simulation::UpdateOpen(int machine) {
  auto it = std::lower_bound(open_.begin(), open_.end(), machine);
  const bool listed = it != open_.end() && *it == machine;
  const bool has_room = kSmallestTask.FitsIn(free_[static_cast<size_t>(machine)]);
  if (has_room && !listed) open_.insert(it, machine);
  if (!has_room && listed) open_.erase(it);
}

}  // namespace spindle::bench::carbyne
