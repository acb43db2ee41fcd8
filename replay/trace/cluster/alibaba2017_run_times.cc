#include "replay/trace/cluster/alibaba2017_run_times.h"

#include <algorithm>

#include "replay/trace/csv_file.h"

namespace spindle::replay {

namespace {

constexpr int kFields = 12;
constexpr int kStart = 1;
constexpr int kEnd = 2;
constexpr int kJob = 3;
constexpr int kTask = 4;
constexpr int kStatus = 6;

std::string Key(std::string_view job, std::string_view task) {
  std::string key;
  key.reserve(job.size() + task.size() + 1);
  key.append(job).push_back(',');
  key.append(task);
  return key;
}

}  // namespace

Result<Alibaba2017RunTimes> Alibaba2017RunTimes::Read(const std::string& path,
                                                      const ReadOptions& read, ReadStats* stats) {
  Alibaba2017RunTimes out;
  const Status read_status = ForEachCsvRow(
      path, read, stats, "batch_instance.csv: header line (column names): passed over",
      [&](const CsvRow& row) -> Status {
        RETURN_NOT_OK(row.ExpectFields(kFields));
        if (row.empty(kJob) || row.empty(kTask)) {
          CountReason(&stats->adjusted,
                      "batch_instance.csv: instance rows without job_id or task_id (a known issue "
                      "of the trace): not matched to a task");
          return Status::OK();
        }
        if (row.field(kStatus) != "Terminated") return Status::OK();
        ASSIGN_OR_RETURN(const std::optional<int64_t> start,
                         row.OptionalInt(kStart, "start_timestamp"));
        ASSIGN_OR_RETURN(const std::optional<int64_t> end, row.OptionalInt(kEnd, "end_timestamp"));
        if (!start.has_value() || !end.has_value() || *end <= 0) {
          CountReason(&stats->adjusted,
                      "batch_instance.csv: Terminated instances with no start or end: no run time");
          return Status::OK();
        }
        int64_t from = *start;
        if (from < 0) {
          CountReason(&stats->adjusted,
                      "batch_instance.csv: start_timestamp before the trace window (negative): "
                      "clamped to 0");
          from = 0;
        }
        if (*end < from) return row.Error(kEnd, "end_timestamp", "before the start");
        const int64_t seconds = std::min<int64_t>(*end - from, INT32_MAX);
        out.runs_[Key(row.field(kJob), row.field(kTask))].push_back(static_cast<int32_t>(seconds));
        return Status::OK();
      });
  RETURN_NOT_OK(read_status);
  return out;
}

const std::vector<int32_t>* Alibaba2017RunTimes::Find(std::string_view job_id,
                                                      std::string_view task_id) const {
  auto it = runs_.find(Key(job_id, task_id));
  return it == runs_.end() ? nullptr : &it->second;
}

}  // namespace spindle::replay
