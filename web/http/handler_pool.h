// HandlerPool: a fixed set of threads running tasks from a bounded queue.
// TrySubmit never blocks: when every thread is busy and the queue holds
// `max_queued` tasks it refuses, so the I/O thread can answer 503 at once
// and the HTTP side never takes more threads than it was given.
//
// Thread-safety: TrySubmit() and busy() from any thread; Shutdown() from one
// controlling thread (idempotent), never from a pool thread.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "base/mutex.h"

namespace spindle::web {

class HandlerPool {
 public:
  // Each thread adds `nice` (>= 0) to its own nice value when it starts.
  HandlerPool(int threads, int64_t max_queued, int nice = 0);
  ~HandlerPool();  // Shutdown()
  HandlerPool(const HandlerPool&) = delete;
  HandlerPool& operator=(const HandlerPool&) = delete;

  // Runs `task` on a pool thread. False (and `task` is dropped) if no thread
  // is idle and the queue is full, or after Shutdown().
  bool TrySubmit(std::function<void()> task);
  // Refuses new tasks, lets queued and running tasks finish, joins.
  void Shutdown();

  // Tasks running now.
  int64_t busy() const;

 private:
  void Run(int nice);

  const int64_t max_queued_;
  mutable Mutex mu_;
  CondVar cv_;
  std::deque<std::function<void()>> queue_ GUARDED_BY(mu_);
  int idle_ GUARDED_BY(mu_) = 0;
  int64_t busy_ GUARDED_BY(mu_) = 0;
  bool shutting_down_ GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace spindle::web
