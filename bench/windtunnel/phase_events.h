// PhaseEvents: the wind tunnel engine's events (replay::ReplayEvents) as
// the bench's per-phase figures: each placed task is a commit (with its
// node's score), a job whose tasks are all placed is scheduled, a job whose
// tasks all ended is done; Sample() adds the 1 s backlog and utilisation
// samples; Finish() makes the run's ModeResult (results.h) through the
// Recorder.
//
// On the virtual clock a task counts as committed (for the backlog) only at
// its step's end, the time the engine reports it placed at, which may be
// ahead of the engine's clock; on the real clock at once.
//
// Thread-safety: none (the engine's one driver thread calls it).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench/windtunnel/cluster_model.h"
#include "bench/windtunnel/recorder.h"
#include "bench/windtunnel/run_spec.h"
#include "replay/report/replay_events.h"
#include "replay/windtunnel/tunnel_run.h"

namespace spindle::replay {
class ReplayTunnel;
}

namespace spindle::windtunnel {

class PhaseEvents final : public replay::ReplayEvents {
 public:
  // `cluster` must outlive it.
  PhaseEvents(const RunSpec& spec, const ClusterModel* cluster, std::vector<PhaseSpec> phases);

  void OnJobSubmitted(int64_t job, const std::string& trace_id, const std::string& queue,
                      int64_t tasks, Duration at) override;
  void OnJobRejected(int64_t job, const std::string& reason, Duration at) override;
  void OnTasksAsked(int64_t /*job*/, int64_t /*count*/, Duration /*at*/) override {}
  void OnTaskPlaced(int64_t job, Duration asked, Duration placed, int64_t node, int64_t memory_mb,
                    int64_t vcores, bool with_preference, bool preferred) override;
  void OnTaskEnded(int64_t job, Duration at, int64_t memory_mb, int64_t vcores) override;
  void OnJobFinished(int64_t job, Duration at) override;
  void OnConflicts(Duration at, int64_t count) override { recorder_.OnConflicts(at, count); }

  // The 1 s sample at `at`: backlog (tasks submitted and not committed by
  // `at`), slots held, and for adaptive the schedulers now deciding with
  // quality-first.
  void Sample(Duration at, replay::ReplayTunnel& tunnel);

  // The first job the RM refused ("" if none): the bench's jobs must all
  // be accepted.
  const std::string& rejection() const { return rejection_; }

  ModeResult Finish(const replay::TunnelSummary& run) const;

 private:
  struct Job {
    int64_t tasks = 0;
    int64_t placed = 0;
    Duration submitted{0};
    Duration last_commit{0};
    Duration last_end{0};
  };

  const RunSpec spec_;
  const ClusterModel* const cluster_;
  Recorder recorder_;
  std::vector<Job> jobs_;
  int64_t submitted_ = 0;
  int64_t committed_ = 0;
  int64_t held_ = 0;
  Duration last_commit_{0};
  // Virtual clock: commit time -> tasks not yet visible as committed.
  std::map<Duration, int64_t> commits_ahead_;
  int64_t committed_visible_ = 0;
  std::string rejection_;
};

}  // namespace spindle::windtunnel
