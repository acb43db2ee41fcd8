// Alibaba2017Reader: Alibaba cluster-trace-v2017 batch_task.csv (no
// header): create_time, end_time, job_id, task_id, number of instances,
// status, cpus per instance, normalised memory per instance. Times are
// seconds from the trace start.
//
// A job is its rows (contiguous, see GroupedRowsReader); each row (a task)
// is a stage named by task_id of `instances` tasks, with no DAG (v2017 has
// none: every stage is independent). The file has no start time (that is
// in batch_instance.csv), so a task's duration is end_time - create_time:
// an upper bound that includes its queueing in the original cluster (1 ms
// if they are equal). Arrival: the job's earliest create_time; each stage
// asks at its own create_time (submit_offset_ms). Resources: vcores
// round(cpus), memory round(memory x ReadOptions::node_memory_mb) with
// memory normalised 0..1 (above 1 is an error), both at least ReadOptions'
// minimum. A row whose end_time is 0 or before its create_time drops its
// job ("job has a task with no end in the trace").
//
// Thread-safety: none.
#pragma once

#include <memory>
#include <string>

#include "replay/trace/cluster/grouped_rows_reader.h"

namespace spindle::replay {

// A batch_task.csv file and its sort window (GroupedRowsReader).
using Alibaba2017Options = BatchTaskOptions;

class Alibaba2017Reader : public GroupedRowsReader {
 public:
  // InvalidArgument naming a bad option; NotFound/IoError for the file.
  static Result<std::unique_ptr<Alibaba2017Reader>> Open(const Alibaba2017Options& options,
                                                         const ReadOptions& read);

 protected:
  Result<std::optional<TraceJob>> Build(const std::string& job_id,
                                        const std::vector<Row>& rows) override;

 private:
  using GroupedRowsReader::GroupedRowsReader;
};

}  // namespace spindle::replay
