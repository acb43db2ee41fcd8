#include "replay/trace/hadoop/json_trace_reader.h"

#include <optional>
#include <utility>

#include "replay/trace/hadoop/json_fields.h"

namespace spindle::replay::hadoop {

JsonTraceReader::JsonTraceReader(std::unique_ptr<JsonStream> stream, ReadOptions options,
                                 int64_t window, bool rebase)
    : stream_(std::move(stream)), options_(options), rebase_(rebase), order_(window - 1) {}

void JsonTraceReader::CountDropped(const std::string& reason, int64_t n) {
  for (auto& [r, count] : stats_.dropped) {
    if (r == reason) {
      count += n;
      return;
    }
  }
  stats_.dropped.emplace_back(reason, n);
}

Status JsonTraceReader::Skip(const Status& error) {
  if (!options_.skip_bad) return error;
  ++stats_.skipped;
  if (static_cast<int>(stats_.examples.size()) < options_.max_examples) {
    stats_.examples.push_back(error.message());
  }
  return Status::OK();
}

Status JsonTraceReader::Fill() {
  while (!eof_ && !order_.over()) {
    JsonValue record;
    ASSIGN_OR_RETURN(bool got, stream_->Next(&record));
    if (!got) {
      eof_ = true;
      break;
    }
    ++stats_.lines;
    std::vector<TraceJob> jobs;
    Status s = record.is_object()
                   ? ParseRecord(record, stats_.lines, &jobs)
                   : Status::InvalidArgument(file() + ":" + std::to_string(record.line()) +
                                             ": a record must be a JSON object, got " +
                                             DescribeJson(record));
    for (size_t i = 0; s.ok() && i < jobs.size(); ++i) {
      if (!order_.InOrder(jobs[i].arrival_ms)) {
        const JsonValue* at = record.Find(arrival_field());
        s = Status::InvalidArgument(
            file() + ":" + std::to_string(at != nullptr ? at->line() : record.line()) + ": field " +
            arrival_field() + ": job " + jobs[i].id + " arrives at " +
            std::to_string(jobs[i].arrival_ms) + ", before a job already returned (at " +
            std::to_string(order_.released_ms()) +
            "): the trace is out of order by more than the reorder window of " +
            std::to_string(order_.capacity() + 1) + " jobs; sort it by " + arrival_field() +
            " or widen the window");
      }
    }
    if (!s.ok()) {
      RETURN_NOT_OK(Skip(s));
      continue;
    }
    for (TraceJob& job : jobs) RETURN_NOT_OK(order_.Push(std::move(job), file()));
  }
  return Status::OK();
}

Result<bool> JsonTraceReader::Next(TraceJob* job) {
  if (!failed_.ok()) return failed_;
  if (done_) return false;
  if (options_.max_jobs > 0 && stats_.jobs >= options_.max_jobs) {
    done_ = true;
    return false;
  }
  Status s = Fill();
  if (!s.ok()) {
    failed_ = s;
    return s;
  }
  std::optional<TraceJob> popped = order_.Pop(eof_);
  if (!popped.has_value()) {
    done_ = true;
    return false;
  }
  TraceJob next = std::move(*popped);
  if (!based_) {
    base_ms_ = rebase_ ? next.arrival_ms : 0;
    based_ = true;
  }
  next.arrival_ms -= base_ms_;
  if (options_.max_arrival_ms > 0 && next.arrival_ms >= options_.max_arrival_ms) {
    done_ = true;
    return false;
  }
  ++stats_.jobs;
  stats_.tasks += next.task_count();
  *job = std::move(next);
  return true;
}

}  // namespace spindle::replay::hadoop
