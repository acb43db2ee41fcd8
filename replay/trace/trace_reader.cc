#include "replay/trace/trace_reader.h"

namespace spindle::replay {

std::string TooManyTasksMessage(int64_t max_tasks_per_job) {
  return "the job would have more than " + std::to_string(max_tasks_per_job) +
         " tasks (the reader's limit; raise it with --max-tasks-per-job)";
}

void CountReason(std::vector<std::pair<std::string, int64_t>>* counts, const std::string& reason,
                 int64_t n) {
  for (auto& [r, count] : *counts) {
    if (r == reason) {
      count += n;
      return;
    }
  }
  counts->emplace_back(reason, n);
}

Status SkipOrFail(const ReadOptions& read, ReadStats* stats, const Status& error) {
  if (!read.skip_bad) return error;
  ++stats->skipped;
  if (static_cast<int>(stats->examples.size()) < read.max_examples) {
    stats->examples.push_back(error.message());
  }
  return Status::OK();
}

Status CheckReadOptions(const ReadOptions& read) {
  if (read.max_tasks_per_job < 1) {
    return Status::InvalidArgument("ReadOptions::max_tasks_per_job: must be >= 1");
  }
  if (read.max_jobs < 0) return Status::InvalidArgument("ReadOptions::max_jobs: must be >= 0");
  return Status::OK();
}

}  // namespace spindle::replay
