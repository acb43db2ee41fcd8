#include "bench/windtunnel/run_spec.h"

#include <string>

namespace spindle::windtunnel {

const char* ClockKindName(ClockKind kind) {
  switch (kind) {
    case ClockKind::kReal:
      return "real";
    case ClockKind::kVirtual:
      return "virtual";
  }
  return "unknown";
}

Status ValidateRunSpec(const RunSpec& spec) {
  if (spec.cluster.nodes < 1) return Status::InvalidArgument("nodes must be >= 1");
  if (spec.cluster.slots_per_node < 1) return Status::InvalidArgument("slots must be >= 1");
  if (spec.cluster.score_variance < 0) return Status::InvalidArgument("score variance < 0");
  if (spec.workload.base_rate <= 0) return Status::InvalidArgument("rate must be > 0");
  if (spec.workload.fractions.empty()) return Status::InvalidArgument("no phases");
  for (double f : spec.workload.fractions) {
    if (f < 0) return Status::InvalidArgument("phase fraction < 0");
  }
  if (spec.workload.phase_length <= Duration(0)) {
    return Status::InvalidArgument("phase length must be > 0");
  }
  if (spec.workload.tasks_per_job < 1) return Status::InvalidArgument("tasks per job < 1");
  if (spec.workload.preferred_nodes < 0) return Status::InvalidArgument("preferred nodes < 0");
  if (spec.task_duration <= Duration(0)) return Status::InvalidArgument("task duration <= 0");
  if (!(spec.alpha > 0)) return Status::InvalidArgument("alpha must be > 0");
  if (spec.drain < Duration(0)) return Status::InvalidArgument("drain < 0");
  if (spec.step_tasks < 1) return Status::InvalidArgument("step tasks < 1");
  if (spec.clock == ClockKind::kVirtual && spec.decision_cost <= Duration(0)) {
    return Status::InvalidArgument("decision cost must be > 0 on the virtual clock");
  }
  if (!(spec.quality_cost_factor > 0)) {
    return Status::InvalidArgument("quality cost factor must be > 0");
  }
  if (spec.tick <= Duration(0)) return Status::InvalidArgument("tick must be > 0");
  if (spec.real_decision_cost < Duration(0)) {
    return Status::InvalidArgument("real-clock decision cost must be >= 0");
  }
  if (spec.remote_schedulers < 0 || spec.remote_schedulers >= spec.schedulers) {
    return Status::InvalidArgument(
        "remote schedulers must be in 0..N-1 (N = " + std::to_string(spec.schedulers) + ")");
  }
  if (spec.remote_schedulers > 0 && spec.mode == pool::SyncMode::kMonolithic) {
    return Status::InvalidArgument("remote schedulers need parsync or statesync, not monolithic");
  }
  if (spec.remote_rtt < Duration(0)) return Status::InvalidArgument("remote RTT < 0");
  return MakePoolOptions(spec).Validate();
}

pool::PoolOptions MakePoolOptions(const RunSpec& spec) {
  pool::PoolOptions o;
  o.mode = spec.mode;
  o.strategy = spec.strategy;
  // Remote members take the last K of the N slots.
  o.num_schedulers = spec.schedulers - spec.remote_schedulers;
  o.remote_schedulers = spec.remote_schedulers;
  o.num_partitions = spec.partitions;
  o.sync_gap = spec.sync_gap;
  o.tau = spec.tau;
  o.latency_first_preferences = spec.latency_first_preferences;
  o.max_tasks_per_step = spec.step_tasks;
  o.min_unit = ClusterModel::Slot();
  o.seed = spec.seed;
  // A view one sync gap behind copies only what changed (as bench pool).
  o.change_log_entries = 1 << 16;
  // The virtual driver charges decision costs itself, on its own clock.
  if (spec.clock == ClockKind::kReal) {
    o.emulated_decision_cost = spec.real_decision_cost;
    o.emulated_quality_cost_factor = spec.quality_cost_factor;
  }
  return o;
}

}  // namespace spindle::windtunnel
