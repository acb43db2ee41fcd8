#include "nm_shim/agent/event_loop.h"

namespace spindle::nm {

EventLoop::TaskId EventLoop::RunAt(TimePoint when, std::function<void()> task) {
  MutexLock lock(&mu_);
  const TaskId id = next_id_++;
  const bool earliest = tasks_.empty() || when < tasks_.begin()->first.first;
  tasks_.emplace(std::make_pair(when, id), std::move(task));
  deadlines_.emplace(id, when);
  if (earliest) changed_.Signal();
  return id;
}

void EventLoop::Cancel(TaskId id) {
  MutexLock lock(&mu_);
  auto it = deadlines_.find(id);
  if (it == deadlines_.end()) return;
  tasks_.erase({it->second, id});
  deadlines_.erase(it);
}

bool EventLoop::PopDue(std::function<void()>* task) {
  if (tasks_.empty() || tasks_.begin()->first.first > clock_->Now()) return false;
  auto it = tasks_.begin();
  *task = std::move(it->second);
  deadlines_.erase(it->first.second);
  tasks_.erase(it);
  return true;
}

size_t EventLoop::RunDue() {
  size_t ran = 0;
  while (true) {
    std::function<void()> task;
    {
      MutexLock lock(&mu_);
      if (!PopDue(&task)) return ran;
    }
    task();
    ++ran;
  }
}

size_t EventLoop::pending() const {
  MutexLock lock(&mu_);
  return tasks_.size();
}

void EventLoop::Start() {
  {
    MutexLock lock(&mu_);
    stopping_ = false;
  }
  thread_ = std::thread([this] { Loop(); });
}

void EventLoop::Stop() {
  {
    MutexLock lock(&mu_);
    stopping_ = true;
    changed_.SignalAll();
  }
  if (thread_.joinable()) thread_.join();
  MutexLock lock(&mu_);
  tasks_.clear();
  deadlines_.clear();
}

void EventLoop::Loop() {
  while (true) {
    std::function<void()> task;
    {
      MutexLock lock(&mu_);
      while (!stopping_ && !PopDue(&task)) {
        if (tasks_.empty()) {
          changed_.Wait(&mu_);
        } else {
          changed_.WaitFor(&mu_, tasks_.begin()->first.first - clock_->Now());
        }
      }
      if (stopping_) return;
    }
    task();
  }
}

}  // namespace spindle::nm
