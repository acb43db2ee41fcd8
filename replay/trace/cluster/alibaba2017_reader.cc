#include "replay/trace/cluster/alibaba2017_reader.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace spindle::replay {

namespace {

constexpr int kCreateTime = 1;
constexpr int kEndTime = 2;
constexpr int kTaskId = 4;
constexpr int kInstances = 5;
constexpr int kCpus = 7;
constexpr int kMemory = 8;

}  // namespace

Result<std::unique_ptr<Alibaba2017Reader>> Alibaba2017Reader::Open(
    const Alibaba2017Options& options, const ReadOptions& read) {
  if (options.batch_task.empty()) {
    return Status::InvalidArgument("Alibaba2017Options::batch_task: no file given");
  }
  if (options.sort_window_jobs < 1) {
    return Status::InvalidArgument("Alibaba2017Options::sort_window_jobs: must be >= 1");
  }
  if (read.node_memory_mb <= 0) {
    return Status::InvalidArgument("ReadOptions::node_memory_mb: must be > 0");
  }
  ASSIGN_OR_RETURN(auto file, InputFile::Open(options.batch_task));
  const std::string describe = "alibaba-2017 " + file->name();
  return std::unique_ptr<Alibaba2017Reader>(new Alibaba2017Reader(
      std::move(file), read, options.sort_window_jobs, 8, 3, "job_id", describe));
}

Result<std::optional<TraceJob>> Alibaba2017Reader::Build(const std::string& job_id,
                                                         const std::vector<Row>& rows) {
  TraceJob job;
  job.id = job_id;
  std::vector<int64_t> create;
  int64_t tasks = 0;
  bool unended = false;
  CsvRow row;
  for (const Row& r : rows) {
    row.Split(r.text, r.where);
    ASSIGN_OR_RETURN(const int64_t created, row.Int(kCreateTime, "create_time"));
    ASSIGN_OR_RETURN(const int64_t end, row.Int(kEndTime, "end_time"));
    if (created < 0) return row.Error(kCreateTime, "create_time", "negative");
    ASSIGN_OR_RETURN(const std::string_view task_id, row.Text(kTaskId, "task_id"));
    ASSIGN_OR_RETURN(const int64_t instances, row.Int(kInstances, "number of instances"));
    if (instances < 1) return row.Error(kInstances, "number of instances", "must be >= 1");
    if (instances > read().max_tasks_per_job - tasks) {
      return row.Error(kInstances, "number of instances",
                       TooManyTasksMessage(read().max_tasks_per_job));
    }
    tasks += instances;
    ASSIGN_OR_RETURN(const double cpus, row.Double(kCpus, "cpus per instance"));
    ASSIGN_OR_RETURN(const double mem, row.Double(kMemory, "normalised memory"));
    if (cpus < 0) return row.Error(kCpus, "cpus per instance", "negative");
    if (mem < 0 || mem > 1) return row.Error(kMemory, "normalised memory", "not within 0..1");
    if (end <= 0 || end < created) unended = true;
    TraceTask task;
    task.duration_ms = std::max<int64_t>(1, (end - created) * 1000);
    task.vcores = static_cast<int32_t>(std::max<int64_t>(read().min_vcores, std::llround(cpus)));
    task.memory_mb = std::max<int64_t>(
        read().min_memory_mb, std::llround(mem * static_cast<double>(read().node_memory_mb)));
    TraceStage stage;
    stage.name = std::string(task_id);
    stage.tasks.assign(static_cast<size_t>(instances), task);
    job.stages.push_back(std::move(stage));
    create.push_back(created);
  }
  if (unended) {
    Drop(kTaskNeverEnded);
    return std::optional<TraceJob>();
  }
  const int64_t arrival_s = *std::min_element(create.begin(), create.end());
  job.arrival_ms = arrival_s * 1000;
  for (size_t i = 0; i < job.stages.size(); ++i) {
    for (TraceTask& t : job.stages[i].tasks) t.submit_offset_ms = (create[i] - arrival_s) * 1000;
  }
  return std::optional<TraceJob>(std::move(job));
}

}  // namespace spindle::replay
