// SubmittingThread: the real clock's submission pipeline. On a thread of its
// own it reads the trace's jobs, waits for each one's arrival and submits it
// to the RM as the tunnel does (ReplayTunnel::PrepareSubmission: the RM's
// queue checks, the app, its unmanaged AM's registration, the job's ask
// groups with their hosts resolved, the AM's first allocate). The driver
// thread that owns the tunnel enters the submitted jobs (events, the
// tunnel's bookkeeping: ReplayTunnel::EnterSubmission) when it next calls
// TakeSubmitted, and goes on collecting and ending tasks meanwhile.
//
// Why: one driver thread doing all of it at ~13 us per task cannot offer
// 160,000 tasks/s (6.25 us each), and a submission costs about as much as
// collecting and ending a task together (bench/windtunnel/README.md).
//
// A job counts as submitted from when its submission begins (its events'
// time, trace time on the run's clock: ReplayTunnel::Since); a job whose
// arrival has come but whose submission has not begun when the run stops is
// not submitted, as the one-thread driver left it in the trace.
//
// Thread-safety: construct, call and destroy from the tunnel's driver thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "replay/trace/trace_reader.h"
#include "replay/windtunnel/replay_tunnel.h"

namespace spindle::replay {

class SubmittingThread {
 public:
  // Starts the thread. `tunnel`, `jobs` and `clock` must outlive it; the
  // tunnel's origin (set_origin) must be set: arrivals are trace times
  // since it.
  SubmittingThread(ReplayTunnel* tunnel, TraceReader* jobs, const Clock* clock);
  // Stop()s.
  ~SubmittingThread();
  SubmittingThread(const SubmittingThread&) = delete;
  SubmittingThread& operator=(const SubmittingThread&) = delete;

  // Enters the jobs submitted since the last call into the tunnel (in
  // submission order) and returns how many; the reader's or the RM's first
  // error instead once the thread has stopped on it.
  Result<int64_t> TakeSubmitted();
  // Stops the thread once the submission under way (if any) is done, and
  // enters what was submitted (TakeSubmitted). Jobs not yet begun are not
  // submitted. Idempotent.
  Result<int64_t> Stop();
  // The trace is read to its end, every job submitted and entered.
  bool done();

 private:
  void Run();

  ReplayTunnel* const tunnel_;
  TraceReader* const jobs_;
  const Clock* const clock_;
  Mutex mu_;
  CondVar cv_;
  std::vector<ReplayTunnel::PreparedJob> ready_ GUARDED_BY(mu_);
  Status failure_ GUARDED_BY(mu_);
  bool read_all_ GUARDED_BY(mu_) = false;
  bool stop_ GUARDED_BY(mu_) = false;
  std::thread thread_;  // last: starts once the rest is set
};

}  // namespace spindle::replay
