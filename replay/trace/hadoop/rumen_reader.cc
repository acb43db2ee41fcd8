#include "replay/trace/hadoop/rumen_reader.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

#include "replay/trace/hadoop/network_path.h"

namespace spindle::replay::hadoop {

RumenReader::RumenReader(std::unique_ptr<JsonStream> stream, RumenReaderOptions options)
    : JsonTraceReader(std::move(stream), options.read, options.reorder_window, /*rebase=*/true),
      rumen_options_(options) {}

Result<std::unique_ptr<RumenReader>> RumenReader::Open(const std::string& path,
                                                       RumenReaderOptions options) {
  ASSIGN_OR_RETURN(std::unique_ptr<JsonStream> stream, JsonStream::Open(path));
  return std::unique_ptr<RumenReader>(new RumenReader(std::move(stream), options));
}

std::unique_ptr<RumenReader> RumenReader::FromString(std::string name, std::string text,
                                                     RumenReaderOptions options) {
  return std::unique_ptr<RumenReader>(
      new RumenReader(JsonStream::FromString(std::move(name), std::move(text)), options));
}

Status RumenReader::ParseTask(const JsonFields& f, MapReduceKind kind, int64_t memory_mb,
                              MapReduceStages* stages) {
  ASSIGN_OR_RETURN(const JsonValue* attempts, f.OptionalArray("attempts"));
  const JsonValue* success = nullptr;
  size_t success_index = 0;
  for (size_t i = 0; attempts != nullptr && i < attempts->elements().size(); ++i) {
    const JsonValue& a = attempts->elements()[i];
    if (!a.is_object()) {
      return f.Error("attempts",
                     "element " + std::to_string(i) + " is " + DescribeJson(a) + ", not an object");
    }
    const JsonValue* result = a.Find("result");
    if (result != nullptr && result->is_string() && result->text() == "SUCCESS") {
      success = &a;
      success_index = i;
      break;
    }
  }
  if (success == nullptr) {
    CountDropped("task has no successful attempt");
    return Status::OK();
  }
  const JsonFields a = f.Nested(*success, "attempts[" + std::to_string(success_index) + "]");
  ASSIGN_OR_RETURN(int64_t start, a.Int("startTime"));
  ASSIGN_OR_RETURN(int64_t finish, a.Int("finishTime"));
  if (finish - start <= 0) {
    return a.Error("finishTime", "attempt duration must be > 0 ms, got " +
                                     std::to_string(finish - start) + " (startTime " +
                                     std::to_string(start) + ")");
  }
  TraceTask task;
  task.duration_ms = finish - start;
  task.memory_mb = std::max(memory_mb, options().min_memory_mb);
  task.vcores = std::max(rumen_options_.default_vcores, options().min_vcores);

  ASSIGN_OR_RETURN(const JsonValue* locations, f.OptionalArray("preferredLocations"));
  for (size_t i = 0; locations != nullptr && i < locations->elements().size(); ++i) {
    const JsonValue& loc = locations->elements()[i];
    const std::string name = "preferredLocations[" + std::to_string(i) + "]";
    if (!loc.is_object()) return f.Error("preferredLocations", name + " is not an object");
    const JsonFields lf = f.Nested(loc, name);
    ASSIGN_OR_RETURN(const JsonValue* layers, lf.Array("layers"));
    std::string path;
    for (const JsonValue& layer : layers->elements()) {
      if (!layer.is_string())
        return lf.Error("layers", "expected strings, got " + DescribeJson(layer));
      path += "/" + layer.text();
    }
    Result<NetworkPath> split = SplitNetworkPath(path);
    if (!split.ok()) return lf.Error("layers", split.status().message());
    if (std::find(task.preferred_nodes.begin(), task.preferred_nodes.end(), split->host) ==
        task.preferred_nodes.end()) {
      task.preferred_nodes.push_back(split->host);
    }
    if (std::find(task.preferred_racks.begin(), task.preferred_racks.end(), split->rack) ==
        task.preferred_racks.end()) {
      task.preferred_racks.push_back(split->rack);
    }
  }
  if (task.preferred_nodes.empty()) {
    ASSIGN_OR_RETURN(std::optional<std::string> host, a.OptionalString("hostName"));
    if (host) {
      Result<NetworkPath> split = SplitNetworkPath(*host);
      if (!split.ok()) return a.Error("hostName", split.status().message());
      task.preferred_nodes.push_back(split->host);
      task.preferred_racks.push_back(split->rack);
    }
  }
  stages->Add(kind, kind == MapReduceKind::kMap ? kMapPriority : kReducePriority, std::move(task));
  return Status::OK();
}

Status RumenReader::ParseRecord(const JsonValue& record, int64_t index,
                                std::vector<TraceJob>* jobs) {
  JsonFields f(file(), record);
  TraceJob job;
  ASSIGN_OR_RETURN(job.id, f.String("jobID"));
  ASSIGN_OR_RETURN(job.arrival_ms, f.Int("submitTime"));
  if (job.arrival_ms < 0) return f.Error("submitTime", "must be >= 0");
  ASSIGN_OR_RETURN(std::optional<std::string> user, f.OptionalString("user"));
  if (user) job.user = *user;
  ASSIGN_OR_RETURN(std::optional<std::string> queue, f.OptionalString("queue"));
  if (queue) job.queue = *queue;

  auto memory = [&](const char* key) -> Result<int64_t> {
    ASSIGN_OR_RETURN(std::optional<int64_t> mb, f.OptionalInt(key));
    if (rumen_options_.use_job_memory && mb && *mb > 0) return *mb;
    return rumen_options_.default_memory_mb;
  };
  ASSIGN_OR_RETURN(int64_t map_mb, memory("jobMapMB"));
  ASSIGN_OR_RETURN(int64_t reduce_mb, memory("jobReduceMB"));

  MapReduceStages stages;
  for (const auto& [key, kind, mb] :
       {std::tuple{"mapTasks", MapReduceKind::kMap, map_mb},
        std::tuple{"reduceTasks", MapReduceKind::kReduce, reduce_mb}}) {
    ASSIGN_OR_RETURN(const JsonValue* tasks, f.OptionalArray(key));
    for (size_t i = 0; tasks != nullptr && i < tasks->elements().size(); ++i) {
      const JsonValue& t = tasks->elements()[i];
      if (!t.is_object()) {
        return f.Error(
            key, "element " + std::to_string(i) + " is " + DescribeJson(t) + ", not an object");
      }
      RETURN_NOT_OK(ParseTask(f.Nested(t, std::string(key) + "[" + std::to_string(i) + "]"), kind,
                              mb, &stages));
    }
  }
  if (stages.empty()) {
    CountDropped("job has no tasks");
    return Status::OK();
  }
  job.stages = stages.Take();
  jobs->push_back(std::move(job));
  return Status::OK();
}

}  // namespace spindle::replay::hadoop
