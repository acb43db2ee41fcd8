// libFuzzer target: arbitrary bytes as a trace file of one of the formats
// `spindle replay` reads (the first byte picks the format and whether
// malformed records are skipped). A reader may refuse the input, but it
// must not crash, and what it returns must be a well-formed workload: jobs
// in arrival order, positive durations and resources, stage parents that
// come before their stage (JobProgress CHECKs that), every task reachable.
#include <glog/logging.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "replay/driver/job_progress.h"
#include "replay/trace_catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spindle::replay;
  static const bool kQuiet = (FLAGS_minloglevel = 2, true);
  (void)kQuiet;
  if (size < 1) return 0;
  static const std::vector<std::string> kFormats = {"sls",        "rumen",       "synth",
                                                    "google2011", "alibaba2018", "alibaba2017"};
  const std::string& format = kFormats[data[0] % kFormats.size()];
  // The file lives in memory: readers open paths.
  const int fd = memfd_create("trace", 0);
  CHECK_GE(fd, 0);
  CHECK_EQ(write(fd, data + 1, size - 1), static_cast<ssize_t>(size - 1));
  TraceSpec spec;
  spec.format = format;
  spec.paths = {"/proc/self/fd/" + std::to_string(fd)};
  spec.read.skip_bad = (data[0] / kFormats.size()) % 2 == 1;
  spec.read.max_jobs = 200;
  // Counts in the input are bounded (ReadOptions::max_tasks_per_job); a small
  // bound keeps each run fast.
  spec.read.max_tasks_per_job = 10'000;
  auto reader = OpenTrace(spec);
  if (reader.ok()) {
    TraceJob job;
    int64_t last = INT64_MIN;
    for (;;) {
      auto more = (*reader)->Next(&job);
      if (!more.ok() || !*more) break;
      CHECK_GE(job.arrival_ms, last) << job.id;
      last = job.arrival_ms;
      for (const TraceStage& stage : job.stages) {
        for (const TraceTask& task : stage.tasks) {
          CHECK_GT(task.duration_ms, 0) << job.id;
          CHECK_GT(task.memory_mb, 0) << job.id;
          CHECK_GT(task.vcores, 0) << job.id;
          CHECK_GE(task.submit_offset_ms, 0) << job.id;
        }
      }
      // Every task is handed out and finishes: the DAG has no dead end.
      JobProgress progress(&job);
      std::vector<TaskRef> ready;
      for (int64_t round = 0; !progress.done(); ++round) {
        ready.clear();
        progress.TakeReady(INT64_MAX, &ready);
        CHECK(!ready.empty()) << job.id << ": tasks left that never become ready";
        for (const TaskRef& t : ready) CHECK(progress.OnFinished(t));
      }
    }
  }
  close(fd);
  return 0;
}
