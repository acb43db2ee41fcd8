// EventLoop: the virtual clock of a Sparrow simulation. Callbacks run in
// time order; two events at the same time run in the order they were
// scheduled, so a run is a pure function of its inputs (no wall clock, no
// unordered containers).
//
// Thread-safety: none; one simulation owns its loop.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/clock.h"

namespace spindle::bench::sparrow {

class EventLoop {
 public:
  // Time since the start of the run.
  Duration Now() const { return now_; }
  // Runs `fn` at Now() + delay (delay >= 0; a negative delay runs it now).
  void After(Duration delay, std::function<void()> fn);
  // Runs `fn` at `when` (not before Now()).
  void At(Duration when, std::function<void()> fn);
  // Runs events until none is left. Returns how many ran.
  uint64_t Run();

 private:
  struct Event {
    Duration when;
    uint64_t seq;
    std::function<void()> fn;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.when != b.when ? a.when > b.when : a.seq > b.seq;
    }
  };
  Duration now_{};
  uint64_t next_seq_ = 0;
  // A binary heap under Later (std::push_heap / std::pop_heap), so the
  // earliest event can be moved out before it is removed.
  std::vector<Event> events_;
};

}  // namespace spindle::bench::sparrow
