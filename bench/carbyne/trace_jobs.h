// JobsFromTrace: the jobs of a replay trace (replay/trace: Alibaba v2018
// batch_task.csv, whose task names encode the DAG; Rumen and SLS map and
// reduce stages; ...) as the model's DAG jobs. A trace stage becomes a
// stage with its tasks' durations and parents; its demand is the largest
// of its tasks' (the model gives a stage one demand). Arrivals are moved so
// the first job arrives at 0. A task's submit offset (a Google task asked
// after its job) is not modelled: a stage's tasks are asked when its
// parents end. A job with a stage without tasks, or a task no machine of
// `options` can hold, is skipped and counted.
//
// Thread-safety: none (reads `reader`).
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "bench/carbyne/model_options.h"
#include "bench/carbyne/workload.h"
#include "replay/trace/trace_reader.h"

namespace spindle::bench::carbyne {

struct TraceImport {
  int64_t jobs = 0;               // converted
  int64_t tasks = 0;              // in the converted jobs
  int64_t skipped_too_large = 0;  // a task exceeds a machine
  int64_t skipped_empty = 0;      // a stage has no task
};

// Up to `max_jobs` jobs (> 0) from `reader`, in its order; the reader's
// error if it fails; InvalidArgument if no job is left.
Result<std::vector<JobSpec>> JobsFromTrace(replay::TraceReader& reader, const ModelOptions& options,
                                           int64_t max_jobs, TraceImport* import);

}  // namespace spindle::bench::carbyne
