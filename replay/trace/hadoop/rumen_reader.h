// RumenReader: Hadoop Rumen job traces (LoggedJob records, as Rumen's
// TraceBuilder writes them from MapReduce job history and SLS replays
// them), concatenated or in one top-level array.
//
// A LoggedJob record:                        -> TraceJob
//   "jobID"        string, required          -> id
//   "submitTime"   integer ms, required      -> arrival_ms, relative to the
//                                               earliest job of the trace
//                                               (the first one returned)
//   "user"         string                    -> user; default "default"
//   "queue"        string                    -> queue; default "default"
//   "mapTasks", "reduceTasks"  arrays of LoggedTask -> stages "map" (priority
//                  20) and "reduce" (priority 10, after all maps), as SLS
//                  replays them (mapreduce_stages.h)
//   "jobMapMB", "jobReduceMB"  the job's container sizes; used when > 0 and
//                  RumenReaderOptions::use_job_memory, else
//                  default_memory_mb (SLS itself always uses its default)
//   "otherTasks" (setup/cleanup) are not containers SLS replays: ignored.
// A LoggedTask:
//   "attempts"     array of LoggedTaskAttempt; the task is replayed as its
//                  successful attempt ("result": "SUCCESS"; the first one
//                  if speculation left several). A task with no successful
//                  attempt is dropped and counted ("task has no successful
//                  attempt"); SLS would replay its last attempt, but a
//                  failed attempt's time is not the work the task needs.
//   attempt "startTime", "finishTime": integer ms, finishTime - startTime
//                  > 0 -> duration_ms (an error naming the field otherwise)
//   "preferredLocations": [{"layers": ["rack", "host"]}, ...] -> preferred
//                  nodes and racks (the split input's locations); when
//                  empty, the successful attempt's "hostName"
//                  ("/rack/host") is the preference, as SLS does.
// A job left with no task is dropped and counted ("job has no tasks").
// vcores are not in Rumen: default_vcores.
//
// Order and errors: as SlsReader (json_trace_reader.h), sorted on
// submitTime within RumenReaderOptions::reorder_window jobs.
// Thread-safety: none (one driver owns a reader).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "replay/trace/hadoop/json_fields.h"
#include "replay/trace/hadoop/json_trace_reader.h"
#include "replay/trace/hadoop/mapreduce_stages.h"

namespace spindle::replay::hadoop {

struct RumenReaderOptions {
  ReadOptions read;
  // Task resources when the trace has none (SLS's default container).
  // Default: 1024 MB, 1 vcore.
  int64_t default_memory_mb = 1024;
  int32_t default_vcores = 1;
  // Use the job's jobMapMB / jobReduceMB when present (> 0). Default: true.
  bool use_job_memory = true;
  // Jobs held to restore arrival order. Default: 4096.
  int64_t reorder_window = 4096;
};

class RumenReader : public JsonTraceReader {
 public:
  static Result<std::unique_ptr<RumenReader>> Open(const std::string& path,
                                                   RumenReaderOptions options = {});
  static std::unique_ptr<RumenReader> FromString(std::string name, std::string text,
                                                 RumenReaderOptions options = {});

  std::string Describe() const override { return "rumen " + file(); }

 protected:
  Status ParseRecord(const JsonValue& record, int64_t index, std::vector<TraceJob>* jobs) override;
  const char* arrival_field() const override { return "submitTime"; }

 private:
  RumenReader(std::unique_ptr<JsonStream> stream, RumenReaderOptions options);
  // Adds the task (or counts it dropped).
  Status ParseTask(const JsonFields& task, MapReduceKind kind, int64_t memory_mb,
                   MapReduceStages* stages);

  const RumenReaderOptions rumen_options_;
};

}  // namespace spindle::replay::hadoop
