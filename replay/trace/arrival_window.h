// ArrivalWindow: puts jobs that a file yields nearly, but not exactly, in
// arrival order into arrival order, holding at most `capacity` of them (a
// bounded sort window, as `sort -S` would need the whole file). A job is
// released once more than `capacity` are held (the earliest first), or at
// the end. A job arriving before one already released cannot be put in
// order: Push() then fails, naming both, so that a trace too disordered for
// the window is an error, never silently reordered.
//
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "base/status.h"
#include "replay/trace/trace.h"

namespace spindle::replay {

class ArrivalWindow {
 public:
  explicit ArrivalWindow(int64_t capacity) : capacity_(capacity < 0 ? 0 : capacity) {}

  int64_t capacity() const { return capacity_; }
  // Whether a job arriving at `arrival_ms` can still be put in order (no
  // later job was released). A reader checks every job of a record before
  // pushing any, so that a record is taken or skipped whole.
  bool InOrder(int64_t arrival_ms) const { return arrival_ms >= released_ms_; }
  // The arrival of the last job released (-1 before the first).
  int64_t released_ms() const { return released_ms_; }
  // The latest arrival pushed so far (-1 before the first): how far into
  // the trace's time the reader has read ahead.
  int64_t pushed_max_ms() const { return pushed_max_ms_; }
  // `where` ("batch_task.csv:12") names the job's place for the error.
  Status Push(TraceJob job, const std::string& where);
  // Whether more than `capacity` jobs are held (Pop releases one).
  bool over() const { return static_cast<int64_t>(heap_.size()) > capacity_; }
  // The earliest job if more than capacity are held (or any, once `at_end`).
  std::optional<TraceJob> Pop(bool at_end);
  size_t size() const { return heap_.size(); }

 private:
  struct Entry {
    TraceJob job;
    int64_t seq = 0;  // file order breaks arrival ties: stable
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.job.arrival_ms != b.job.arrival_ms ? a.job.arrival_ms > b.job.arrival_ms
                                                  : a.seq > b.seq;
    }
  };

  const int64_t capacity_;
  std::priority_queue<Entry, std::vector<Entry>, Later> heap_;
  int64_t seq_ = 0;
  int64_t released_ms_ = -1;  // arrival of the last job released
  int64_t pushed_max_ms_ = -1;
  std::string released_id_;
};

}  // namespace spindle::replay
