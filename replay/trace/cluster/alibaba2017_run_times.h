// Alibaba2017RunTimes: the run times of cluster-trace-v2017's batch
// instances (batch_instance.csv, no header: start_timestamp, end_timestamp,
// job_id, task_id, machineID, status, seq_no, total_seq_no, then four usage
// figures), by task: what a replayed task holds its container for, where
// batch_task.csv alone gives only end - create (queueing included).
//
// A run is a row with status Terminated and an end at or after its start
// (seconds; end - start, at least 1 ms). Every other try (Failed,
// Interrupted, Running, Waiting, or end 0) gives none; a negative start
// (before the trace window, as the schema documents) is clamped to 0; a row
// without job_id or task_id (a known issue of the published file) cannot be
// matched. Each is counted by reason in ReadStats::adjusted. Errors (a
// field that is not a number, a wrong field count) name file, line and
// field; with skip_bad the row is skipped and counted.
//
// Memory: the whole file is indexed before the replay starts (the task
// file is ordered by job, this one is not): 4 bytes per run plus a key per
// task (the published file: ~12M runs, ~50 MB).
//
// Thread-safety: none (built once, then read-only).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

class Alibaba2017RunTimes {
 public:
  // Reads `path` (plain or gzip). `stats` gets lines, skipped, examples and
  // the adjustments above.
  static Result<Alibaba2017RunTimes> Read(const std::string& path, const ReadOptions& read,
                                          ReadStats* stats);

  // The task's runs in seconds, in file order; null if it has none.
  const std::vector<int32_t>* Find(std::string_view job_id, std::string_view task_id) const;
  int64_t tasks() const { return static_cast<int64_t>(runs_.size()); }

 private:
  std::unordered_map<std::string, std::vector<int32_t>> runs_;  // "job,task" -> seconds
};

}  // namespace spindle::replay
