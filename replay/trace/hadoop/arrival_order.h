// ArrivalOrder: puts a nearly sorted stream of jobs into arrival order
// within a bounded window. SLS and Rumen traces are usually, but not
// always, written in submission order (SLS itself schedules each AM at its
// start time, so it never needed sorted input). A reader pushes parsed jobs
// until `window` are held, then pops the earliest. A job arriving before
// one already popped cannot be placed: the reader reports it (see
// IsLate()) as an error naming the record, telling the user to sort the
// file or widen the window. Ties keep the input order.
//
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "replay/trace/trace.h"

namespace spindle::replay::hadoop {

class ArrivalOrder {
 public:
  // `window` >= 1: jobs held before the earliest is released.
  explicit ArrivalOrder(int64_t window) : window_(window < 1 ? 1 : window) {}

  int64_t window() const { return window_; }
  bool full() const { return static_cast<int64_t>(heap_.size()) >= window_; }
  bool empty() const { return heap_.empty(); }
  // True if a job arriving at `arrival_ms` comes after a job already popped
  // with a later arrival.
  bool IsLate(int64_t arrival_ms) const { return popped_any_ && arrival_ms < watermark_ms_; }
  // The arrival of the last popped job.
  int64_t watermark_ms() const { return watermark_ms_; }

  void Push(TraceJob job);
  // The earliest held job. Requires !empty().
  TraceJob Pop();

 private:
  struct Entry {
    int64_t arrival_ms;
    int64_t seq;
    std::unique_ptr<TraceJob> job;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.arrival_ms != b.arrival_ms ? a.arrival_ms > b.arrival_ms : a.seq > b.seq;
    }
  };

  const int64_t window_;
  int64_t seq_ = 0;
  bool popped_any_ = false;
  int64_t watermark_ms_ = 0;
  std::vector<Entry> heap_;  // a heap by Later: the earliest at the front
};

}  // namespace spindle::replay::hadoop
