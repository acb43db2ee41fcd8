#include "replay/trace/cluster/alibaba2017_reader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
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

Alibaba2017Reader::Alibaba2017Reader(std::unique_ptr<InputFile> file, const ReadOptions& read,
                                     const Alibaba2017Options& options, std::string describe,
                                     std::optional<Alibaba2017RunTimes> runs)
    : GroupedRowsReader(std::move(file), read, options.sort_window_jobs, 8, 3, "job_id",
                        std::move(describe)),
      cpu_per_core_(options.cpu_per_core),
      runs_(std::move(runs)) {}

Result<std::unique_ptr<Alibaba2017Reader>> Alibaba2017Reader::Open(
    const Alibaba2017Options& options, const ReadOptions& read) {
  if (options.batch_task.empty()) {
    return Status::InvalidArgument("Alibaba2017Options::batch_task: no file given");
  }
  if (options.sort_window_jobs < 1) {
    return Status::InvalidArgument("Alibaba2017Options::sort_window_jobs: must be >= 1");
  }
  if (!(options.cpu_per_core > 0)) {
    return Status::InvalidArgument("Alibaba2017Options::cpu_per_core: must be > 0");
  }
  if (read.node_memory_mb <= 0) {
    return Status::InvalidArgument("ReadOptions::node_memory_mb: must be > 0");
  }
  ASSIGN_OR_RETURN(auto file, InputFile::Open(options.batch_task));
  std::string describe = "alibaba-2017 " + file->name();
  std::optional<Alibaba2017RunTimes> runs;
  ReadStats run_stats;
  if (!options.batch_instance.empty()) {
    ASSIGN_OR_RETURN(runs, Alibaba2017RunTimes::Read(options.batch_instance, read, &run_stats));
    describe += " + " + std::filesystem::path(options.batch_instance).filename().string();
  }
  auto reader = std::unique_ptr<Alibaba2017Reader>(
      new Alibaba2017Reader(std::move(file), read, options, std::move(describe), std::move(runs)));
  // The instance file's own counts go with the trace's.
  ReadStats& stats = reader->mutable_stats();
  stats.lines += run_stats.lines;
  stats.skipped += run_stats.skipped;
  stats.examples = std::move(run_stats.examples);
  for (const auto& [why, n] : run_stats.adjusted) CountReason(&stats.adjusted, why, n);
  return reader;
}

Result<bool> Alibaba2017Reader::AddTask(const CsvRow& row, const std::string& job_id, TraceJob* job,
                                        std::vector<int64_t>* create, int64_t* tasks) {
  ASSIGN_OR_RETURN(int64_t created, row.Int(kCreateTime, "create_time"));
  ASSIGN_OR_RETURN(const int64_t end, row.Int(kEndTime, "end_time"));
  ASSIGN_OR_RETURN(const std::string_view task_id, row.Text(kTaskId, "task_id"));
  ASSIGN_OR_RETURN(const int64_t instances, row.Int(kInstances, "number of instances"));
  if (instances < 1) return row.Error(kInstances, "number of instances", "must be >= 1");
  if (instances > read().max_tasks_per_job - *tasks) {
    return row.Error(kInstances, "number of instances",
                     TooManyTasksMessage(read().max_tasks_per_job));
  }
  ASSIGN_OR_RETURN(const std::optional<double> cpus, row.OptionalDouble(kCpus, "plan_cpu"));
  ASSIGN_OR_RETURN(const std::optional<double> mem, row.OptionalDouble(kMemory, "plan_mem"));
  if (cpus && *cpus < 0) return row.Error(kCpus, "plan_cpu", "negative");
  if (mem && (*mem < 0 || *mem > 1)) return row.Error(kMemory, "plan_mem", "not within 0..1");
  if (!cpus || !mem) {
    Drop(kV2017TaskWaiting);
    return false;
  }
  if (created < 0) {
    Adjust(kV2017NegativeCreate);
    created = 0;
  }
  const bool ended = end > 0 && end >= created;
  const std::vector<int32_t>* runs = runs_ ? runs_->Find(job_id, task_id) : nullptr;
  if (runs_ && runs == nullptr && ended) Adjust(kV2017NoRuns);
  if (runs == nullptr && !ended) {
    Drop(kV2017TaskNoEnd);
    return false;
  }
  TraceTask task;
  task.vcores = static_cast<int32_t>(std::max<int64_t>(
      read().min_vcores, static_cast<int64_t>(std::ceil(*cpus / cpu_per_core_ - 1e-9))));
  task.memory_mb = std::max<int64_t>(
      read().min_memory_mb, std::llround(*mem * static_cast<double>(read().node_memory_mb)));
  task.duration_ms = std::max<int64_t>(1, (end - created) * 1000);
  TraceStage stage;
  stage.name = std::string(task_id);
  stage.tasks.assign(static_cast<size_t>(instances), task);
  if (runs != nullptr) {
    for (size_t i = 0; i < stage.tasks.size(); ++i) {
      stage.tasks[i].duration_ms = std::max<int64_t>(1, int64_t{(*runs)[i % runs->size()]} * 1000);
    }
    if (runs->size() < stage.tasks.size()) {
      Adjust(kV2017FewerRuns, static_cast<int64_t>(stage.tasks.size() - runs->size()));
    }
  }
  *tasks += instances;
  job->stages.push_back(std::move(stage));
  create->push_back(created);
  return true;
}

Result<std::optional<TraceJob>> Alibaba2017Reader::Build(const std::string& job_id,
                                                         const std::vector<Row>& rows) {
  TraceJob job;
  job.id = job_id;
  std::vector<int64_t> create;
  int64_t tasks = 0;
  CsvRow row;
  for (const Row& r : rows) {
    row.Split(r.text, r.where);
    Result<bool> added = AddTask(row, job_id, &job, &create, &tasks);
    // The tasks are independent: a bad row is skipped alone (skip_bad).
    if (!added.ok()) {
      RETURN_NOT_OK(SkipOrFail(added.status()));
    }
  }
  if (job.stages.empty()) {
    Drop(kV2017JobEmpty);
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
