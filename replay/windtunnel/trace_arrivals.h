// TraceArrivals: the next job of a trace, read one ahead so that a driver
// knows when it arrives.
//
// Thread-safety: none (one driver owns it).
#pragma once

#include "base/clock.h"
#include "base/result.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

class TraceArrivals {
 public:
  explicit TraceArrivals(TraceReader* reader) : reader_(reader) {}
  // Reads the next job; errors are the reader's (file:line).
  Status Advance() {
    ASSIGN_OR_RETURN(have_, reader_->Next(&job_));
    return Status::OK();
  }
  bool have() const { return have_; }
  // When the next job arrives; Duration::max() once the trace is done.
  Duration at() const { return have_ ? job_.arrival() : Duration::max(); }
  TraceJob Take() { return std::move(job_); }

 private:
  TraceReader* reader_;
  TraceJob job_;
  bool have_ = false;
};

}  // namespace spindle::replay
