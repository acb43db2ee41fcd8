// Alibaba2018Reader: Alibaba cluster-trace-v2018 batch_task.csv (no
// header): task_name, instance_num, job_name, task_type, status,
// start_time, end_time, plan_cpu, plan_mem. Times are seconds from the
// trace start; plan_cpu 100 = 1 core; plan_mem is normalised 0..100.
//
// A job is its rows (contiguous, see GroupedRowsReader); each row (a task)
// is a stage of instance_num tasks, named by task_name. The DAG is in the
// name: `M1` has no parent, `M2_1` waits for task 1, `R4_2` for task 2,
// `M5_3_4` for tasks 3 and 4 (letters, the task's number, then `_parent`
// numbers; the letters do not matter). Names that do not start with
// letters then a digit (`task_Nzg3...`, `MergeTask`) are independent
// stages; a name that starts so but does not follow the pattern (`M3_x`),
// a number used twice in a job, a parent number naming no task of the job,
// or a cycle are errors naming the line and field 1 (task_name).
// Stages come in topological order (file order among the ready ones), so
// a parent's index is lower than its child's.
//
// Per stage: tasks of duration (end_time - start_time) s (1 ms if they are
// equal: the trace's second resolution), vcores round(plan_cpu / 100),
// memory round(plan_mem / 100 x ReadOptions::node_memory_mb), both at least
// ReadOptions' minimum. Job arrival: its earliest start_time. A stage
// without parents asks at its own start_time (submit_offset_ms = start -
// arrival); a stage with parents at 0, since its parents gate it and their
// replayed end, not the trace's, is what it waits for. Priority 20 for
// every stage (the trace has none); queue and user "default".
// A job with a task whose end_time is 0 or before its start_time (still
// running, or never started) makes no job: dropped as "job has a task with
// no end in the trace" (a DAG without one of its stages would misstate it).
//
// Thread-safety: none.
#pragma once

#include <memory>
#include <string>

#include "replay/trace/cluster/grouped_rows_reader.h"

namespace spindle::replay {

// A batch_task.csv file and its sort window (GroupedRowsReader).
using Alibaba2018Options = BatchTaskOptions;

class Alibaba2018Reader : public GroupedRowsReader {
 public:
  // InvalidArgument naming a bad option; NotFound/IoError for the file.
  static Result<std::unique_ptr<Alibaba2018Reader>> Open(const Alibaba2018Options& options,
                                                         const ReadOptions& read);

 protected:
  Result<std::optional<TraceJob>> Build(const std::string& job_id,
                                        const std::vector<Row>& rows) override;

 private:
  using GroupedRowsReader::GroupedRowsReader;
};

}  // namespace spindle::replay
