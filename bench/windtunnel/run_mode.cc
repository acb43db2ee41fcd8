#include "bench/windtunnel/run_mode.h"

#include <chrono>

#include "bench/windtunnel/cluster_model.h"
#include "bench/windtunnel/phase_events.h"
#include "bench/windtunnel/workload.h"
#include "bench/windtunnel/workload_reader.h"
#include "replay/windtunnel/real_driver.h"
#include "replay/windtunnel/virtual_driver.h"
#include "rm/config/configuration.h"
#include "rm/queues/queue_tree.h"
#include "rm/scheduling/resource_normalizer.h"

namespace spindle::windtunnel {

namespace {

constexpr char kQueue[] = "windtunnel";

// The RM's scheduler configuration of the bench: one leaf queue with the
// whole cluster, and DominantResourceCalculator. The paper counts its
// cluster in slots of one core and 1 GB, and so does every figure here
// (utilisation is slots held / slots): a task's shape must stay both
// dimensions as asked. Hadoop's default calculator would normalise by
// memory alone and give every task 1 vcore whatever it asked (the
// normalizer's kDefault), which is right for a YARN cell and wrong for a
// model in which vcores are the slots counted.
//
// The queue may hold as many unfinished applications as the run brings
// (yarn.scheduler.capacity.maximum-applications, Hadoop's default 10,000,
// would refuse jobs at 4x the paper's rate, where ~10,000 jobs are in
// flight): the paper's cell has no such limit.
//
// Nor has it an AM limit: the paper's jobs have no ApplicationMaster
// container. The tunnel runs each job as an unmanaged AM, which Hadoop
// 2.7/3.3 count against the queue's AM limit at the scheduler's minimum
// allocation (FiCaSchedulerApp), here one slot per job in flight; the
// default maximum-am-resource-percent of 10% would hold every job beyond
// 10% of the slots pending, a limit the paper's scheduler does not have.
// 1.0 (the whole queue, the most rm/queues accepts) binds only when more
// jobs are in flight than the cluster has slots.
Result<rm::Configuration> BenchQueues(rm::ResourceCalculator* calculator) {
  rm::Configuration conf;
  const std::string xml =
      std::string("<configuration>") +
      "<property><name>yarn.scheduler.capacity.root.queues</name><value>" + kQueue +
      "</value></property>" + "<property><name>yarn.scheduler.capacity.root." + kQueue +
      ".capacity</name><value>100</value></property>" +
      "<property><name>yarn.scheduler.capacity.root." + kQueue +
      ".maximum-am-resource-percent</name><value>1.0</value></property>" +
      "<property><name>yarn.scheduler.capacity.maximum-applications</name><value>100000000"
      "</value></property>" +
      "<property><name>" + rm::kResourceCalculatorKey + "</name><value>" +
      rm::kDominantResourceCalculatorClass + "</value></property></configuration>";
  RETURN_NOT_OK(conf.AddResourceString(xml, "bench windtunnel"));
  ASSIGN_OR_RETURN(*calculator,
                   rm::ParseResourceCalculator(conf.Get(rm::kResourceCalculatorKey, "")));
  RETURN_NOT_OK(rm::QueueTree::Parse(conf).status());
  return conf;
}

// The views' staleness and, with remote members, their wire.
void AddSchedulerFigures(const RunSpec& spec, const replay::TunnelSummary& summary, ModeResult* r) {
  r->staleness_mean_ms = summary.staleness_mean_ms;
  r->staleness_max_ms = summary.staleness_max_ms;
  const replay::MemberFigures& m = summary.members;
  r->remote_members = m.members;
  if (m.members == 0) return;
  r->remote_rtt_us = spec.clock == ClockKind::kVirtual
                         ? std::chrono::duration<double, std::micro>(spec.remote_rtt).count()
                         : 0;
  r->member_placements = m.placements;
  r->wire_calls = m.wire.calls;
  r->wire_bytes = m.wire.bytes_sent + m.wire.bytes_received;
  const double seconds = std::chrono::duration<double>(summary.end).count();
  r->wire_bytes_per_s = seconds > 0 ? static_cast<double>(r->wire_bytes) / seconds : 0;
  r->wire_bytes_per_placement =
      m.placements > 0 ? static_cast<double>(r->wire_bytes) / static_cast<double>(m.placements) : 0;
  r->member_staleness_mean_ms = m.mean_staleness_ms;
  r->member_staleness_max_ms = m.max_staleness_ms;
}

Result<ModeResult> Run(const RunSpec& spec) {
  RETURN_NOT_OK(ValidateRunSpec(spec));
  const ClusterModel cluster(spec.cluster);
  Workload workload(spec.workload, cluster.scores(), spec.cluster.score_mean);
  rm::ResourceCalculator calculator = rm::ResourceCalculator::kDefault;
  ASSIGN_OR_RETURN(rm::Configuration queues, BenchQueues(&calculator));

  replay::TunnelSetup setup;
  setup.rm.pool = MakePoolOptions(spec);
  setup.rm.pool.pinning = pool::PinningMode::kInIdOrder;
  setup.rm.conf = std::move(queues);
  setup.rm.calculator = calculator;
  setup.rm.min_allocation = ClusterModel::Slot();
  setup.nodes = cluster.Nodes();
  setup.node_scores = cluster.scores();
  setup.preferred_alpha = spec.alpha;

  PhaseEvents events(spec, &cluster, workload.phases());
  replay::TunnelRunOptions run;
  run.clock = spec.clock == ClockKind::kVirtual ? replay::TunnelClock::kVirtual
                                                : replay::TunnelClock::kReal;
  run.decision_cost = spec.decision_cost;
  run.quality_cost_factor = spec.quality_cost_factor;
  run.sync_idle_schedulers = true;
  run.tick = spec.tick;
  run.remote_rtt = spec.remote_rtt;
  run.horizon = workload.end() + spec.drain;
  run.not_before = workload.end();
  run.stop_when_placed = spec.stop_when_committed;
  run.sample = [&events](Duration at, replay::ReplayTunnel& tunnel) { events.Sample(at, tunnel); };

  WorkloadReader jobs(&workload, spec.task_duration, kQueue);
  ASSIGN_OR_RETURN(replay::TunnelSummary summary,
                   spec.clock == ClockKind::kVirtual
                       ? replay::RunOnVirtualClock(run, setup, &jobs, &events)
                       : replay::RunOnRealClock(run, setup, &jobs, &events));
  if (!events.rejection().empty()) {
    return Status::Internal("the RM refused a wind tunnel job: " + events.rejection());
  }
  ModeResult result = events.Finish(summary);
  AddSchedulerFigures(spec, summary, &result);
  return result;
}

}  // namespace

Result<ModeResult> RunVirtual(const RunSpec& input) {
  RunSpec spec = input;
  spec.clock = ClockKind::kVirtual;
  return Run(spec);
}

Result<ModeResult> RunReal(const RunSpec& input) {
  RunSpec spec = input;
  spec.clock = ClockKind::kReal;
  return Run(spec);
}

}  // namespace spindle::windtunnel
