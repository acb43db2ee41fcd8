#include "bench/sparrow/event_loop.h"

#include <algorithm>
#include <utility>

namespace spindle::bench::sparrow {

void EventLoop::After(Duration delay, std::function<void()> fn) {
  At(now_ + std::max(delay, Duration::zero()), std::move(fn));
}

void EventLoop::At(Duration when, std::function<void()> fn) {
  events_.push_back(Event{std::max(when, now_), next_seq_++, std::move(fn)});
  std::push_heap(events_.begin(), events_.end(), Later{});
}

uint64_t EventLoop::Run() {
  uint64_t ran = 0;
  while (!events_.empty()) {
    std::pop_heap(events_.begin(), events_.end(), Later{});
    // Take the callback out first: it may schedule more events.
    Event event = std::move(events_.back());
    events_.pop_back();
    now_ = event.when;
    event.fn();
    ++ran;
  }
  return ran;
}

}  // namespace spindle::bench::sparrow
