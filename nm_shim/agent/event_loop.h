// EventLoop: one thread running timed tasks in deadline order, shared by
// everything the agent does on a schedule: every node's heartbeats (5,000+
// virtual nodes on one loop) and the simulated runtime's container
// durations. Time comes from the injected Clock: with the SystemClock,
// Start() runs a thread that sleeps until the next deadline; with a
// ManualClock, tests call RunDue() after moving the clock, and nothing runs
// on its own.
//
// Thread-safety: RunAt/RunAfter/Post/Cancel from any thread (tasks may
// schedule more tasks). Tasks run one at a time, on the loop thread (or in
// RunDue's caller), never with the loop's lock held.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <thread>
#include <unordered_map>

#include "base/clock.h"
#include "base/mutex.h"

namespace spindle::nm {

class EventLoop {
 public:
  using TaskId = uint64_t;

  // `clock` must outlive the loop.
  explicit EventLoop(const Clock* clock) : clock_(clock) {}
  ~EventLoop() { Stop(); }
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  TaskId RunAt(TimePoint when, std::function<void()> task) EXCLUDES(mu_);
  TaskId RunAfter(Duration delay, std::function<void()> task) {
    return RunAt(clock_->Now() + delay, std::move(task));
  }
  TaskId Post(std::function<void()> task) { return RunAt(clock_->Now(), std::move(task)); }
  // Drops a task that has not started; unknown or finished ids are ignored.
  void Cancel(TaskId id) EXCLUDES(mu_);

  // Starts the loop thread (for real clocks).
  void Start() EXCLUDES(mu_);
  // Stops the loop thread after the task it is running; pending tasks are
  // dropped. Idempotent.
  void Stop() EXCLUDES(mu_);
  // Runs every task due at clock->Now(), including those they schedule for
  // now or earlier; returns how many ran. For manual clocks.
  size_t RunDue() EXCLUDES(mu_);

  size_t pending() const EXCLUDES(mu_);
  const Clock* clock() const { return clock_; }

 private:
  // Pops the earliest task if due; false if none is.
  bool PopDue(std::function<void()>* task) REQUIRES(mu_);
  void Loop() EXCLUDES(mu_);

  const Clock* const clock_;
  mutable Mutex mu_;
  CondVar changed_;
  // (deadline, id) -> task; ids grow, so equal deadlines run in order.
  std::map<std::pair<TimePoint, TaskId>, std::function<void()>> tasks_ GUARDED_BY(mu_);
  std::unordered_map<TaskId, TimePoint> deadlines_ GUARDED_BY(mu_);
  TaskId next_id_ GUARDED_BY(mu_) = 1;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace spindle::nm
