// WorkloadReader: the wind tunnel's job stream (Workload) as the jobs the
// engine replays (replay/windtunnel takes a TraceReader): each JobSpec
// becomes a job of one stage of `tasks` one-slot tasks of the run's task
// duration, in the bench's queue, whose preferred nodes (by host name,
// ClusterModel::Host) are the stage's, shared by every task.
//
// Thread-safety: none (one driver owns it).
#pragma once

#include <string>

#include "base/clock.h"
#include "bench/windtunnel/workload.h"
#include "replay/trace/trace_reader.h"

namespace spindle::windtunnel {

class WorkloadReader final : public replay::TraceReader {
 public:
  // `workload` must outlive the reader; jobs go to `queue`.
  WorkloadReader(Workload* workload, Duration task_duration, std::string queue);

  Result<bool> Next(replay::TraceJob* job) override;
  const replay::ReadStats& stats() const override { return stats_; }
  std::string Describe() const override { return "the ParSync wind tunnel workload"; }
  double Progress() const override;

 private:
  Workload* const workload_;
  const int64_t task_ms_;
  const std::string queue_;
  replay::ReadStats stats_;
  JobSpec spec_;
};

}  // namespace spindle::windtunnel
