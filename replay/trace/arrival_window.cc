#include "replay/trace/arrival_window.h"

#include <algorithm>
#include <utility>

namespace spindle::replay {

Status ArrivalWindow::Push(TraceJob job, const std::string& where) {
  if (job.arrival_ms < released_ms_) {
    return Status::InvalidArgument(
        where + ": job " + job.id + " arrives at " + std::to_string(job.arrival_ms) +
        " ms, before job " + released_id_ + " (" + std::to_string(released_ms_) +
        " ms), already returned: the file is out of arrival order by more than the sort "
        "window (" +
        std::to_string(capacity_) + " jobs); raise it or sort the file");
  }
  pushed_max_ms_ = std::max(pushed_max_ms_, job.arrival_ms);
  heap_.push(Entry{std::move(job), seq_++});
  return Status::OK();
}

std::optional<TraceJob> ArrivalWindow::Pop(bool at_end) {
  if (heap_.empty()) return std::nullopt;
  if (!at_end && static_cast<int64_t>(heap_.size()) <= capacity_) return std::nullopt;
  // priority_queue::top() is const; the entry is moved out just before pop.
  TraceJob job = std::move(const_cast<Entry&>(heap_.top()).job);
  heap_.pop();
  released_ms_ = job.arrival_ms;
  released_id_ = job.id;
  return job;
}

}  // namespace spindle::replay
