#include "replay/trace/hadoop/sls_reader.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "replay/trace/hadoop/network_path.h"

namespace spindle::replay::hadoop {

SlsReader::SlsReader(std::unique_ptr<JsonStream> stream, SlsReaderOptions options)
    : JsonTraceReader(std::move(stream), options.read, options.reorder_window, /*rebase=*/false),
      sls_options_(options) {}

Result<std::unique_ptr<SlsReader>> SlsReader::Open(const std::string& path,
                                                   SlsReaderOptions options) {
  ASSIGN_OR_RETURN(std::unique_ptr<JsonStream> stream, JsonStream::Open(path));
  return std::unique_ptr<SlsReader>(new SlsReader(std::move(stream), options));
}

std::unique_ptr<SlsReader> SlsReader::FromString(std::string name, std::string text,
                                                 SlsReaderOptions options) {
  return std::unique_ptr<SlsReader>(
      new SlsReader(JsonStream::FromString(std::move(name), std::move(text)), options));
}

namespace {

// A positive integer field, or `fallback` when absent.
Result<int64_t> PositiveOr(const JsonFields& f, std::string_view key, int64_t fallback) {
  ASSIGN_OR_RETURN(std::optional<int64_t> v, f.OptionalInt(key));
  if (!v) return fallback;
  if (*v <= 0) return f.Error(key, "must be > 0, got " + std::to_string(*v));
  return *v;
}

}  // namespace

Status SlsReader::ParseTask(const JsonFields& f, MapReduceStages* stages, int64_t* total) const {
  ASSIGN_OR_RETURN(std::optional<std::string> type, f.OptionalString("container.type"));
  MapReduceKind kind = MapReduceKind::kMap;
  if (type && *type == "reduce") {
    kind = MapReduceKind::kReduce;
  } else if (type && *type != "map") {
    return f.Error("container.type", "'" + *type + "' is neither map nor reduce");
  }

  TraceTask task;
  // Duration, in SLS's order of precedence.
  ASSIGN_OR_RETURN(std::optional<int64_t> duration, f.OptionalInt("container.duration.ms"));
  const char* duration_field = "container.duration.ms";
  if (!duration) {
    ASSIGN_OR_RETURN(duration, f.OptionalInt("duration.ms"));
    duration_field = "duration.ms";
  }
  if (!duration) {
    ASSIGN_OR_RETURN(std::optional<int64_t> start, f.OptionalInt("container.start.ms"));
    ASSIGN_OR_RETURN(std::optional<int64_t> end, f.OptionalInt("container.end.ms"));
    if (!start || !end) {
      return f.Error(start ? "container.end.ms" : "container.start.ms",
                     "missing: a task needs container.duration.ms, duration.ms, or "
                     "container.start.ms and container.end.ms");
    }
    duration = *end - *start;
    duration_field = "container.end.ms";
  }
  if (*duration <= 0) {
    return f.Error(duration_field,
                   "task duration must be > 0 ms, got " + std::to_string(*duration));
  }
  task.duration_ms = *duration;

  ASSIGN_OR_RETURN(std::optional<std::string> host, f.OptionalString("container.host"));
  if (host) {
    Result<NetworkPath> path = SplitNetworkPath(*host);
    if (!path.ok()) return f.Error("container.host", path.status().message());
    task.preferred_nodes.push_back(path->host);
    task.preferred_racks.push_back(path->rack);
  }

  const bool hadoop3_memory = f.Get("container.memory-mb") != nullptr;
  if (hadoop3_memory && f.Get("container.memory") != nullptr) {
    return f.Error("container.memory", "give container.memory-mb or container.memory, not both");
  }
  const char* memory_field = hadoop3_memory ? "container.memory-mb" : "container.memory";
  ASSIGN_OR_RETURN(int64_t memory, PositiveOr(f, memory_field, sls_options_.default_memory_mb));
  ASSIGN_OR_RETURN(int64_t vcores, PositiveOr(f, "container.vcores", sls_options_.default_vcores));
  if (vcores > INT32_MAX) return f.Error("container.vcores", "too large");
  task.memory_mb = std::max(memory, options().min_memory_mb);
  task.vcores = std::max(static_cast<int32_t>(vcores), options().min_vcores);

  ASSIGN_OR_RETURN(std::optional<int64_t> delay, f.OptionalInt("container.request.delay"));
  if (delay && *delay < 0) return f.Error("container.request.delay", "must be >= 0");
  task.submit_offset_ms = delay.value_or(0);

  ASSIGN_OR_RETURN(std::optional<std::string> exec, f.OptionalString("container.execution.type"));
  if (exec && *exec != "GUARANTEED") {
    return f.Error("container.execution.type",
                   "'" + *exec + "' is not supported (only GUARANTEED containers are replayed)");
  }

  ASSIGN_OR_RETURN(std::optional<int64_t> priority, f.OptionalInt("container.priority"));
  if (priority && (*priority < INT32_MIN || *priority > INT32_MAX)) {
    return f.Error("container.priority", "out of range");
  }
  const int32_t prio = priority ? static_cast<int32_t>(*priority)
                                : (kind == MapReduceKind::kMap ? kMapPriority : kReducePriority);

  ASSIGN_OR_RETURN(int64_t count, PositiveOr(f, "count", 1));
  if (count > sls_options_.read.max_tasks_per_job - *total) {
    return f.Error("count", TooManyTasksMessage(sls_options_.read.max_tasks_per_job));
  }
  *total += count;
  for (int64_t i = 0; i < count; ++i) stages->Add(kind, prio, task);
  return Status::OK();
}

Status SlsReader::ParseRecord(const JsonValue& record, int64_t index, std::vector<TraceJob>* jobs) {
  JsonFields f(file(), record);
  TraceJob job;
  ASSIGN_OR_RETURN(std::optional<std::string> am_type, f.OptionalString("am.type"));
  if (am_type && *am_type != "mapreduce") {
    return f.Error("am.type", "'" + *am_type + "' is not supported (only mapreduce)");
  }
  ASSIGN_OR_RETURN(job.arrival_ms, f.Int("job.start.ms"));
  if (job.arrival_ms < 0) return f.Error("job.start.ms", "must be >= 0");
  ASSIGN_OR_RETURN(std::optional<std::string> id, f.OptionalString("job.id"));
  job.id = id ? *id : "sls_job_" + std::to_string(index);
  ASSIGN_OR_RETURN(std::optional<std::string> queue, f.OptionalString("job.queue.name"));
  if (queue) job.queue = *queue;
  ASSIGN_OR_RETURN(std::optional<std::string> user, f.OptionalString("job.user"));
  if (user) job.user = *user;
  ASSIGN_OR_RETURN(int64_t copies, PositiveOr(f, "job.count", 1));

  ASSIGN_OR_RETURN(const JsonValue* tasks, f.Array("job.tasks"));
  if (tasks->elements().empty()) return f.Error("job.tasks", "a job needs at least one task");
  MapReduceStages stages;
  int64_t total = 0;
  for (size_t i = 0; i < tasks->elements().size(); ++i) {
    const JsonValue& t = tasks->elements()[i];
    const std::string name = "job.tasks[" + std::to_string(i) + "]";
    if (!t.is_object()) {
      return f.Error("job.tasks",
                     "element " + std::to_string(i) + " is " + DescribeJson(t) + ", not an object");
    }
    RETURN_NOT_OK(ParseTask(f.Nested(t, name), &stages, &total));
  }
  if (copies > 1 && total > sls_options_.read.max_tasks_per_job / copies) {
    return f.Error("job.count", "the copies would have more than " +
                                    std::to_string(sls_options_.read.max_tasks_per_job) + " tasks");
  }
  job.stages = stages.Take();
  if (copies == 1) {
    jobs->push_back(std::move(job));
    return Status::OK();
  }
  for (int64_t k = 0; k < copies; ++k) {
    TraceJob copy = job;
    copy.id = job.id + "#" + std::to_string(k);
    jobs->push_back(std::move(copy));
  }
  return Status::OK();
}

}  // namespace spindle::replay::hadoop
