// GroupedRowsReader: the skeleton of a reader of a CSV in which each job is
// a run of contiguous rows sharing a job field (Alibaba's batch_task files):
// it streams the file, collects one job's rows, has the subclass build the
// job from them, and returns jobs in arrival order through an ArrivalWindow.
//
// Contract for the files: a job's rows are contiguous. A job id that
// reappears after another job's rows is an error naming the line and the
// field (we do not know that the public files are sorted by job; a trace
// that is not can be sorted with `sort -t, -k<job field>` first). Arrival
// order across jobs is restored within the sort window.
//
// A first line none of whose fields is a number is a header (the
// published files have none; a file exported with column names does): it
// is passed over and counted in ReadStats::adjusted ("header line").
//
// Bad input: a row-level error (a field) or a job-level one (its DAG) is an
// error naming file, line and field. With ReadOptions::skip_bad the record
// skipped is the whole job, counted once in ReadStats::skipped (v2018: a
// job missing one of its tasks would misstate its DAG), unless the
// subclass skips the row alone itself (SkipOrFail in Build; v2017, whose
// tasks are independent). A row whose job field itself is bad, or that
// breaks contiguity, is skipped alone.
//
// Memory: the rows of one job plus the window's jobs. Memory for the
// contiguity check: 8 bytes per job id seen (a hash; a collision would
// report a false reappearance, loudly).
//
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "replay/trace/arrival_window.h"
#include "replay/trace/csv_row.h"
#include "replay/trace/input_file.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

// What a reader of an Alibaba batch_task.csv (v2017 or v2018) is given.
struct BatchTaskOptions {
  // The batch_task.csv file (plain or gzip). Required.
  std::string batch_task;
  // Jobs held to restore arrival order (see ArrivalWindow); memory grows
  // with it (10,000 jobs of 100 tasks: ~100 MB). Default: 10,000.
  int64_t sort_window_jobs = 10'000;
};

class GroupedRowsReader : public TraceReader {
 public:
  Result<bool> Next(TraceJob* job) override;
  const ReadStats& stats() const override { return stats_; }
  std::string Describe() const override { return describe_; }
  // Bytes read of the file.
  double Progress() const override { return at_end_ ? 1.0 : file_->Progress(); }
  int64_t ReadAheadArrivalMs() const override { return window_.pushed_max_ms(); }

 protected:
  // One row as read: its text and "file:line".
  struct Row {
    std::string text;
    std::string where;
  };

  // `fields`: the row's field count; `job_field`: the 1-based job field.
  GroupedRowsReader(std::unique_ptr<InputFile> file, const ReadOptions& read, int64_t window_jobs,
                    int fields, int job_field, std::string job_field_name, std::string describe);

  // Builds the job `job_id` from its rows (>= 1): the job, or nullopt after
  // calling Drop() with the reason it makes no job, or an error naming the
  // row's place and field.
  virtual Result<std::optional<TraceJob>> Build(const std::string& job_id,
                                                const std::vector<Row>& rows) = 0;

  void Drop(const std::string& reason);
  // A record read with a documented adjustment (ReadStats::adjusted).
  void Adjust(const std::string& reason, int64_t n = 1);
  // Counts a skipped record, or returns the error unless skip_bad.
  Status SkipOrFail(const Status& s);
  const ReadOptions& read() const { return read_; }
  ReadStats& mutable_stats() { return stats_; }

 private:
  // Builds and windows the collected job.
  Status Flush();

  std::unique_ptr<InputFile> file_;
  const ReadOptions read_;
  const int fields_;
  const int job_field_;
  const std::string job_field_name_;
  const std::string describe_;
  ReadStats stats_;
  ArrivalWindow window_;
  CsvRow row_;
  std::string current_;  // job id of rows_
  std::vector<Row> rows_;
  std::unordered_set<uint64_t> seen_;  // hashes of finished job ids
  bool at_end_ = false;
};

// Drop reasons shared by the Alibaba readers.
inline constexpr char kTaskNeverEnded[] = "job has a task with no end in the trace";

}  // namespace spindle::replay
