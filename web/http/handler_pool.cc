#include "web/http/handler_pool.h"

#include <glog/logging.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace spindle::web {

HandlerPool::HandlerPool(int threads, int64_t max_queued, int nice) : max_queued_(max_queued) {
  threads_.reserve(threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this, nice] { Run(nice); });
}

HandlerPool::~HandlerPool() { Shutdown(); }

bool HandlerPool::TrySubmit(std::function<void()> task) {
  {
    MutexLock lock(&mu_);
    if (shutting_down_) return false;
    // Tasks already queued will take idle threads first; a new one fits if
    // a thread is left idle for it or the queue has room.
    const int64_t waiting = static_cast<int64_t>(queue_.size());
    if (waiting >= idle_ + max_queued_) return false;
    queue_.push_back(std::move(task));
  }
  cv_.Signal();
  return true;
}

int64_t HandlerPool::busy() const {
  MutexLock lock(&mu_);
  return busy_;
}

void HandlerPool::Shutdown() {
  {
    MutexLock lock(&mu_);
    if (shutting_down_ && threads_.empty()) return;
    shutting_down_ = true;
  }
  cv_.SignalAll();
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
}

void HandlerPool::Run(int nice) {
  if (nice > 0) {
    // On Linux a thread id names one thread for setpriority.
    const id_t tid = static_cast<id_t>(gettid());
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, tid);
    if (errno != 0 || setpriority(PRIO_PROCESS, tid, current + nice) != 0) {
      LOG(WARNING) << "cannot lower the web handler thread's priority: " << std::strerror(errno);
    }
  }
  for (;;) {
    std::function<void()> task;
    {
      MutexLock lock(&mu_);
      ++idle_;
      while (queue_.empty() && !shutting_down_) cv_.Wait(&mu_);
      --idle_;
      if (queue_.empty()) return;  // shutting down, nothing left to run
      task = std::move(queue_.front());
      queue_.pop_front();
      ++busy_;
    }
    task();
    MutexLock lock(&mu_);
    --busy_;
  }
}

}  // namespace spindle::web
