#include "replay/trace/cluster/grouped_rows_reader.h"

#include <functional>
#include <utility>

namespace spindle::replay {

GroupedRowsReader::GroupedRowsReader(std::unique_ptr<InputFile> file, const ReadOptions& read,
                                     int64_t window_jobs, int fields, int job_field,
                                     std::string job_field_name, std::string describe)
    : file_(std::move(file)),
      read_(read),
      fields_(fields),
      job_field_(job_field),
      job_field_name_(std::move(job_field_name)),
      describe_(std::move(describe)),
      window_(window_jobs) {}

void GroupedRowsReader::Drop(const std::string& reason) { CountReason(&stats_.dropped, reason); }

void GroupedRowsReader::Adjust(const std::string& reason, int64_t n) {
  CountReason(&stats_.adjusted, reason, n);
}

Status GroupedRowsReader::SkipOrFail(const Status& s) {
  return spindle::replay::SkipOrFail(read_, &stats_, s);
}

Status GroupedRowsReader::Flush() {
  if (rows_.empty()) return Status::OK();
  seen_.insert(std::hash<std::string>()(current_));
  Result<std::optional<TraceJob>> job = Build(current_, rows_);
  const std::string where = rows_.front().where;
  rows_.clear();
  if (!job.ok()) return SkipOrFail(job.status());
  if (!job->has_value()) return Status::OK();
  const Status pushed = window_.Push(std::move(**job), where);
  return pushed.ok() ? pushed : SkipOrFail(pushed);
}

Result<bool> GroupedRowsReader::Next(TraceJob* job) {
  while (true) {
    if (read_.max_jobs > 0 && stats_.jobs >= read_.max_jobs) return false;
    std::optional<TraceJob> ready = window_.Pop(at_end_);
    if (ready) {
      // Jobs come out in arrival order: the first at or past the limit ends it.
      if (read_.max_arrival_ms > 0 && ready->arrival_ms >= read_.max_arrival_ms) return false;
      ++stats_.jobs;
      stats_.tasks += ready->task_count();
      *job = std::move(*ready);
      return true;
    }
    if (at_end_) return false;
    std::string_view line;
    ASSIGN_OR_RETURN(const bool more, file_->NextLine(&line));
    if (!more) {
      RETURN_NOT_OK(Flush());
      at_end_ = true;
      continue;
    }
    ++stats_.lines;
    row_.Split(line, file_->Where());
    if (stats_.lines == 1 && row_.LooksLikeHeader()) {
      Adjust("header line (column names): passed over");
      continue;
    }
    Status s = row_.ExpectFields(fields_);
    Result<std::string_view> id =
        s.ok() ? row_.Text(job_field_, job_field_name_) : Result<std::string_view>(s);
    if (!id.ok()) {
      RETURN_NOT_OK(SkipOrFail(id.status()));
      continue;
    }
    if (*id != current_) {
      RETURN_NOT_OK(Flush());
      if (seen_.count(std::hash<std::string_view>()(*id)) > 0) {
        RETURN_NOT_OK(SkipOrFail(row_.Error(
            job_field_, job_field_name_,
            "job '" + std::string(*id) +
                "' reappears after other jobs' rows (a job's rows must be contiguous; sort the "
                "file by this field)")));
        current_.clear();
        continue;
      }
      current_ = std::string(*id);
    }
    rows_.push_back(Row{std::string(line), file_->Where()});
  }
}

}  // namespace spindle::replay
