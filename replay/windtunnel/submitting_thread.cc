#include "replay/windtunnel/submitting_thread.h"

#include <pthread.h>

#include <chrono>
#include <utility>

#include "replay/windtunnel/trace_arrivals.h"

namespace spindle::replay {

SubmittingThread::SubmittingThread(ReplayTunnel* tunnel, TraceReader* jobs, const Clock* clock)
    : tunnel_(tunnel), jobs_(jobs), clock_(clock), thread_([this] { Run(); }) {}

SubmittingThread::~SubmittingThread() { (void)Stop(); }

void SubmittingThread::Run() {
  // Named for per-thread CPU figures (/proc/<pid>/task/<tid>/comm).
  pthread_setname_np(pthread_self(), "wt-submitter");
  TraceArrivals arrivals(jobs_);
  Status read = arrivals.Advance();
  for (;;) {
    {
      MutexLock lock(&mu_);
      if (!read.ok() || !arrivals.have()) {
        failure_ = std::move(read);
        read_all_ = true;
        return;
      }
      // Until the job's arrival (trace time on the run's clock), or a stop.
      for (;;) {
        if (stop_) return;
        const Duration left = arrivals.at() - tunnel_->Since(clock_->Now());
        if (left <= Duration(0)) break;
        cv_.WaitFor(&mu_,
                    std::chrono::duration_cast<std::chrono::nanoseconds>(left / tunnel_->speed()) +
                        std::chrono::microseconds(1));
      }
    }
    Result<ReplayTunnel::PreparedJob> submitted =
        tunnel_->PrepareSubmission(arrivals.Take(), tunnel_->Since(clock_->Now()));
    read = submitted.ok() ? arrivals.Advance() : submitted.status();
    if (submitted.ok()) {
      MutexLock lock(&mu_);
      ready_.push_back(std::move(*submitted));
    }
  }
}

Result<int64_t> SubmittingThread::TakeSubmitted() {
  std::vector<ReplayTunnel::PreparedJob> taken;
  Status failure;
  {
    MutexLock lock(&mu_);
    taken.swap(ready_);
    failure = failure_;
  }
  // Entered before the error is reported: they are in the RM already.
  for (ReplayTunnel::PreparedJob& job : taken) tunnel_->EnterSubmission(std::move(job));
  RETURN_NOT_OK(failure);
  return static_cast<int64_t>(taken.size());
}

Result<int64_t> SubmittingThread::Stop() {
  {
    MutexLock lock(&mu_);
    stop_ = true;
  }
  cv_.SignalAll();
  if (thread_.joinable()) thread_.join();
  return TakeSubmitted();
}

bool SubmittingThread::done() {
  MutexLock lock(&mu_);
  return read_all_ && ready_.empty();
}

}  // namespace spindle::replay
