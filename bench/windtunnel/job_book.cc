#include "bench/windtunnel/job_book.h"

#include "scheduler_pool/scheduler_pool.h"

namespace spindle::windtunnel {

JobState& JobBook::Add(const JobSpec& spec, pool::AppId app, int scheduler, Duration submitted) {
  JobState j;
  j.index = static_cast<int64_t>(jobs_.size());
  j.app = app;
  j.scheduler = scheduler;
  j.phase = spec.phase;
  j.tasks = spec.tasks;
  j.submitted = submitted;
  jobs_.push_back(j);
  fifo_[static_cast<size_t>(scheduler)].push_back(j.index);
  return jobs_.back();
}

Result<int64_t> JobBook::Collect(pool::SchedulerPool* pool, int scheduler, int64_t expected,
                                 std::vector<Taken>* out) {
  auto& fifo = fifo_[static_cast<size_t>(scheduler)];
  int64_t found = 0;
  std::vector<pool::Placement> got;
  for (size_t i = 0; i < fifo.size() && found < expected; ++i) {
    JobState& j = job(fifo[i]);
    if (j.collected >= j.tasks) continue;
    got.clear();
    RETURN_NOT_OK(pool->TakePlacements(j.app, &got));
    for (const pool::Placement& p : got) out->push_back(Taken{p, j.index});
    j.collected += static_cast<int>(got.size());
    found += static_cast<int64_t>(got.size());
    if (j.collected >= j.tasks) RETURN_NOT_OK(pool->RemoveApp(j.app));
  }
  while (!fifo.empty() && job(fifo.front()).collected >= job(fifo.front()).tasks) fifo.pop_front();
  return found;
}

}  // namespace spindle::windtunnel
