#include "bench/carbyne/trace_jobs.h"

#include <algorithm>
#include <string>
#include <utility>

namespace spindle::bench::carbyne {

Result<std::vector<JobSpec>> JobsFromTrace(replay::TraceReader& reader, const ModelOptions& options,
                                           int64_t max_jobs, TraceImport* import) {
  std::vector<JobSpec> jobs;
  int64_t first_arrival = -1;
  replay::TraceJob trace_job;
  while (static_cast<int64_t>(jobs.size()) < max_jobs) {
    ASSIGN_OR_RETURN(bool more, reader.Next(&trace_job));
    if (!more) break;
    JobSpec job;
    bool usable = true;
    for (const replay::TraceStage& ts : trace_job.stages) {
      if (ts.tasks.empty()) {
        ++import->skipped_empty;
        usable = false;
        break;
      }
      StageSpec stage;
      stage.parents.assign(ts.parents.begin(), ts.parents.end());
      stage.demand = {1, 1};
      for (const replay::TraceTask& task : ts.tasks) {
        stage.demand.memory_mb = std::max(stage.demand.memory_mb, task.memory_mb);
        stage.demand.vcores = std::max<int64_t>(stage.demand.vcores, task.vcores);
        stage.durations.push_back(std::max<Time>(1, task.duration_ms));
      }
      if (!stage.demand.FitsIn(options.machine)) {
        ++import->skipped_too_large;
        usable = false;
        break;
      }
      job.stages.push_back(std::move(stage));
    }
    if (!usable || job.stages.empty()) continue;
    if (first_arrival < 0) first_arrival = trace_job.arrival_ms;
    job.arrival = std::max<Time>(0, trace_job.arrival_ms - first_arrival);
    ++import->jobs;
    import->tasks += trace_job.task_count();
    jobs.push_back(std::move(job));
  }
  if (jobs.empty()) {
    return Status::InvalidArgument("the trace has no job the model can run (" +
                                   std::to_string(import->skipped_too_large) +
                                   " with a task larger than a machine, " +
                                   std::to_string(import->skipped_empty) + " with an empty stage)");
  }
  return jobs;
}

}  // namespace spindle::bench::carbyne
