#include "replay/trace/trace_reader.h"

namespace spindle::replay {

std::string TooManyTasksMessage(int64_t max_tasks_per_job) {
  return "the job would have more than " + std::to_string(max_tasks_per_job) +
         " tasks (the reader's limit; raise it with --max-tasks-per-job)";
}

Status CheckReadOptions(const ReadOptions& read) {
  if (read.max_tasks_per_job < 1) {
    return Status::InvalidArgument("ReadOptions::max_tasks_per_job: must be >= 1");
  }
  if (read.max_jobs < 0) return Status::InvalidArgument("ReadOptions::max_jobs: must be >= 0");
  return Status::OK();
}

}  // namespace spindle::replay
