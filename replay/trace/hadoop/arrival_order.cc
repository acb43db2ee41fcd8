#include "replay/trace/hadoop/arrival_order.h"

#include <glog/logging.h>

#include <algorithm>
#include <utility>

namespace spindle::replay::hadoop {

void ArrivalOrder::Push(TraceJob job) {
  const int64_t arrival = job.arrival_ms;
  heap_.push_back(Entry{arrival, seq_++, std::make_unique<TraceJob>(std::move(job))});
  std::push_heap(heap_.begin(), heap_.end(), Later());
}

TraceJob ArrivalOrder::Pop() {
  CHECK(!heap_.empty());
  std::pop_heap(heap_.begin(), heap_.end(), Later());
  Entry e = std::move(heap_.back());
  heap_.pop_back();
  popped_any_ = true;
  watermark_ms_ = e.arrival_ms;
  return std::move(*e.job);
}

}  // namespace spindle::replay::hadoop
