// Alibaba2017Reader: Alibaba cluster-trace-v2017 batch_task.csv as
// published (trace_201708.md, schema.csv): create_time, end_time, job_id,
// task_id, instance_num, status, plan_cpu, plan_mem; no header (one with
// column names is passed over, GroupedRowsReader). Times are seconds from
// the trace start.
//
// A job is its rows (contiguous, see GroupedRowsReader); each row (a task)
// is a stage named by task_id of instance_num tasks, with no DAG (v2017 has
// none: every stage is independent). Arrival: the job's earliest
// create_time; each stage asks at its own create_time (submit_offset_ms).
// Resources: vcores ceil(plan_cpu / Alibaba2017Options::cpu_per_core)
// (the published values, 40..200 on 64-CPU machines, are hundredths of a
// core, the unit v2018 documents), memory round(plan_mem x
// ReadOptions::node_memory_mb) with plan_mem normalised 0..1 (above 1 is an
// error), both at least ReadOptions' minimum.
//
// How long a task holds its container: with batch_instance.csv
// (Alibaba2017Options::batch_instance), its instances' own run times
// (Alibaba2017RunTimes; a task with fewer runs than instances reuses them
// in turn, a task with none falls back to the next rule, each counted in
// ReadStats::adjusted); without, end_time - create_time: an upper bound that
// includes its queueing in the original cluster (1 ms if they are equal).
//
// The published file as it is (each counted by reason; see ReadStats):
//  - a task still waiting has empty plan_cpu/plan_mem: the task is dropped,
//    not its job;
//  - a task with no end (end_time 0, or before create_time) and no run in
//    batch_instance.csv: the task is dropped;
//  - a negative create_time (created before the trace window, as
//    trace_201708.md documents) is clamped to 0 (adjusted);
//  - a job left with no task is dropped.
// With ReadOptions::skip_bad a malformed row is skipped alone (the tasks
// are independent, so the rest of its job stands).
//
// Thread-safety: none.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "replay/trace/cluster/alibaba2017_run_times.h"
#include "replay/trace/cluster/grouped_rows_reader.h"

namespace spindle::replay {

struct Alibaba2017Options : BatchTaskOptions {
  // batch_instance.csv (plain or gzip): the instances' run times. Empty:
  // end_time - create_time. Default: empty.
  std::string batch_instance;
  // plan_cpu per core (> 0): 100 for the published file (hundredths of a
  // core); 1 for a file in whole cores. Default: 100.
  double cpu_per_core = 100;
};

class Alibaba2017Reader : public GroupedRowsReader {
 public:
  // InvalidArgument naming a bad option; NotFound/IoError for a file; a
  // batch_instance.csv error (file:line) unless skip_bad.
  static Result<std::unique_ptr<Alibaba2017Reader>> Open(const Alibaba2017Options& options,
                                                         const ReadOptions& read);

 protected:
  Result<std::optional<TraceJob>> Build(const std::string& job_id,
                                        const std::vector<Row>& rows) override;

 private:
  Alibaba2017Reader(std::unique_ptr<InputFile> file, const ReadOptions& read,
                    const Alibaba2017Options& options, std::string describe,
                    std::optional<Alibaba2017RunTimes> runs);
  // One task row into `job` (its create time into *create); false if the
  // task is dropped (counted); an error naming the field.
  Result<bool> AddTask(const CsvRow& row, const std::string& job_id, TraceJob* job,
                       std::vector<int64_t>* create, int64_t* tasks);

  const double cpu_per_core_;
  const std::optional<Alibaba2017RunTimes> runs_;
};

// Reasons counted in ReadStats (tests and reports name them).
inline constexpr char kV2017TaskWaiting[] =
    "task with no plan_cpu/plan_mem (still waiting in the trace): task dropped";
inline constexpr char kV2017TaskNoEnd[] =
    "task with no end in the trace (and no run in batch_instance.csv): task dropped";
inline constexpr char kV2017JobEmpty[] = "job with no task left to replay: job dropped";
inline constexpr char kV2017NegativeCreate[] =
    "create_time before the trace window (negative): clamped to 0";
inline constexpr char kV2017NoRuns[] =
    "task with no run in batch_instance.csv: held for end_time - create_time";
inline constexpr char kV2017FewerRuns[] =
    "instances beyond their task's runs in batch_instance.csv: given those runs in turn";

}  // namespace spindle::replay
