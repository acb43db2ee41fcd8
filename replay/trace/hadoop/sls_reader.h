// SlsReader: Hadoop Scheduler Load Simulator traces (SLS's own JSON
// format, e.g. sample-data/inputsls.json): a sequence of job objects,
// concatenated or in one top-level array.
//
// A job record:                              -> TraceJob
//   "job.start.ms"   integer >= 0, required  -> arrival_ms (SLS times are
//                                               already relative to the
//                                               simulation start)
//   "job.id"         string                  -> id; default "sls_job_<n>",
//                                               n the record's number
//   "job.queue.name" string                  -> queue; default "default"
//   "job.user"       string                  -> user; default "default"
//   "am.type"        "mapreduce" (default); other AM types (stream, dag)
//                    are refused (NotSupported by this reader)
//   "job.count"      integer >= 1            -> that many copies of the job,
//                                               ids "<id>#<k>"; default 1
//   "job.tasks"      non-empty array, required
//   "job.end.ms", "job.label.expression", "am.memory-mb", "am.vcores":
//                    not used (the replay sizes AMs itself)
// A task object:
//   "container.type"      "map" (default) or "reduce"
//   "container.host"      "/rack/host" -> preferred node and rack; absent:
//                         no preference
//   duration, as SLS's TaskContainerDefinition takes it: "container.duration.ms",
//     else "duration.ms", else "container.end.ms" - "container.start.ms";
//     must be > 0 (an error naming the field otherwise)
//   "container.priority"  integer; default 20 for maps, 10 for reduces
//   "container.memory-mb" (Hadoop 3 resource name) or "container.memory":
//                         MB, > 0; default SlsReaderOptions::default_memory_mb
//   "container.vcores"    > 0; default SlsReaderOptions::default_vcores
//   "count"               integer >= 1: that many identical tasks; default 1
//   "container.request.delay"  ms >= 0 -> submit_offset_ms; default 0
//   "container.execution.type" "GUARANTEED" (default); "OPPORTUNISTIC" is
//                         refused: TraceTask cannot say it
//   "container.allocation.id": not used
// Tasks become the stages "map" and "reduce" (reduces wait for all maps);
// see mapreduce_stages.h. Unknown fields are ignored, as SLS does.
//
// Order: jobs come out in arrival order. The file need not be sorted:
// up to SlsReaderOptions::reorder_window jobs are held and released
// earliest first; a job arriving before one already returned is an error
// (skippable) telling to sort the file or widen the window.
//
// Errors and skipping: see json_trace_reader.h.
// Thread-safety: none (one driver owns a reader).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "replay/trace/hadoop/json_fields.h"
#include "replay/trace/hadoop/json_trace_reader.h"
#include "replay/trace/hadoop/mapreduce_stages.h"

namespace spindle::replay::hadoop {

struct SlsReaderOptions {
  ReadOptions read;
  // A task's resources when the trace gives none (SLS:
  // yarn.sls.container.memory.mb / yarn.sls.container.vcores). Default:
  // 1024 MB, 1 vcore.
  int64_t default_memory_mb = 1024;
  int32_t default_vcores = 1;
  // Jobs held to restore arrival order. Default: 4096.
  int64_t reorder_window = 4096;
};

class SlsReader : public JsonTraceReader {
 public:
  static Result<std::unique_ptr<SlsReader>> Open(const std::string& path,
                                                 SlsReaderOptions options = {});
  // Reads a trace held in memory; `name` labels errors.
  static std::unique_ptr<SlsReader> FromString(std::string name, std::string text,
                                               SlsReaderOptions options = {});

  std::string Describe() const override { return "sls " + file(); }

 protected:
  Status ParseRecord(const JsonValue& record, int64_t index, std::vector<TraceJob>* jobs) override;
  const char* arrival_field() const override { return "job.start.ms"; }

 private:
  SlsReader(std::unique_ptr<JsonStream> stream, SlsReaderOptions options);
  Status ParseTask(const JsonFields& task, MapReduceStages* stages, int64_t* total) const;

  const SlsReaderOptions sls_options_;
};

}  // namespace spindle::replay::hadoop
