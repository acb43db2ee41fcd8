// SynthReader: jobs generated from an SLS synthetic workload description
// (syn.json, read by SLS's SynthTraceJobProducer). The description is one
// JSON object:
//   num_jobs (required), rand_seed (required), num_nodes, nodes_per_rack,
//   workloads: [{workload_weight, queue_name, time_distribution: [{time
//     (s), weight}], job_classes: [{class_name, user_name, class_weight,
//     type ("mapreduce"), and either the old flat fields (mtasks_avg/_stddev,
//     rtasks_*, mtime_*, rtime_*, map_max_memory_*, reduce_max_memory_*,
//     map_max_vcores_*, reduce_max_vcores_*) or tasks: [{type ("map" |
//     "reduce"), count, time, max_memory, max_vcores, priority}]}]}]
// where each count/time/memory/vcores is a sample: {"val": v} (constant),
// {"val": mean, "std": s, "dist": "LOGNORM" (default) | "NORM"}, or
// {"discrete": [...], "weights": [...]}; the old flat fields are
// {mean, stddev} log-normal samples. A bare number is a constant.
//
// Generation follows SynthTraceJobProducer's semantics (not its numbers:
// our generator is base/Random, so a seed gives the same jobs every run
// here, not the jobs Java SLS makes):
//  - each job picks a workload by workload_weight, a submit time (a
//    time_distribution bucket by weight, then uniform whole seconds up to
//    the next bucket's time), and a job class by class_weight; jobs are
//    returned in submit-time order (ties: generation order), ids
//    "<class_name>_<%06d index in arrival order>", queue the workload's,
//    user the class's user_name ("default" if absent).
//  - per job and task kind: count = round(sample) (negative: 0), memory =
//    max(round(sample), 1024) MB, vcores = max(round(sample), 1); per task:
//    time = round(sample) seconds (x SynthReaderOptions::time_unit_ms); a
//    task whose time rounds to <= 0 is dropped and counted, as is a job
//    left without tasks.
//  - a distribution whose std is 0 uses mean/6 (SLS's default); one with
//    mean and std both 0 is the constant 0 (SLS would fail on it; old-format
//    files leave reduce fields out for map-only jobs).
//  - maps are the stage "map" (priority 20 unless given), reduces "reduce"
//    (10) after all maps (mapreduce_stages.h). Reservations, deadlines and
//    execution types other than GUARANTEED are not replayed: a class asking
//    for OPPORTUNISTIC containers is refused.
// Open() reads and checks the whole description (it is small) and draws
// every job's submit time, workload, class and seed; Next() expands one
// job's tasks at a time.
//
// Errors: InvalidArgument naming the file, line and field, from Open();
// from Next(), a job sampling more than read.max_tasks_per_job tasks (skipped
// and counted under skip_bad).
// Thread-safety: none (one driver owns a reader).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "replay/trace/hadoop/sls_nodes.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay::hadoop {

struct SynthReaderOptions {
  ReadOptions read;
  // Milliseconds per unit of a task's "time" sample. syn.json documents its
  // durations in seconds. Default: 1000.
  int64_t time_unit_ms = 1000;
};

class SynthReader : public TraceReader {
 public:
  ~SynthReader() override;

  static Result<std::unique_ptr<SynthReader>> Open(const std::string& path,
                                                   SynthReaderOptions options = {});
  static Result<std::unique_ptr<SynthReader>> FromString(std::string name, std::string text,
                                                         SynthReaderOptions options = {});

  Result<bool> Next(TraceJob* job) override;
  const ReadStats& stats() const override { return stats_; }
  std::string Describe() const override;

  // The cluster the description asks for: num_nodes nodes, num_nodes /
  // nodes_per_rack racks (GenerateSlsNodes). Empty if num_nodes is absent.
  std::vector<TraceNode> Nodes(const SlsNodeDefaults& defaults = {}) const;
  int64_t num_jobs() const;
  int64_t seed() const;

  struct Spec;

 private:
  SynthReader(std::string name, std::unique_ptr<Spec> spec, SynthReaderOptions options);
  void CountDropped(const std::string& reason, int64_t n);

  const std::string name_;
  std::unique_ptr<Spec> spec_;
  const SynthReaderOptions options_;
  ReadStats stats_;
  size_t next_ = 0;
  bool done_ = false;
};

}  // namespace spindle::replay::hadoop
