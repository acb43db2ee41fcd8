// ProportionalCapacityPreemptionPolicy's decision, as a pure function: from
// the queue tree's guaranteed / maximum / used / pending resources and the
// applications' live containers, which containers to ask back this round.
// It follows Hadoop 3.3 (monitor/capacity/PreemptableResourceCalculator,
// AbstractPreemptableResourceCalculator, TempQueuePerPartition,
// FifoCandidatesSelector, CapacitySchedulerPreemptionUtils) for the default
// partition, with the FIFO candidate selector only:
//
//  1. Ideal assignment, level by level from the root (whose ideal is its
//     guarantee): each queue first keeps what it uses, up to its guarantee
//     plus the over-guarantee usage it cannot lose (untouchable extra: usage
//     over guarantee of queues with preemption disabled); what is left of the
//     parent's ideal is then offered, water-filling, to the queues that want
//     more (used + pending), most under-served first (ideal / guaranteed),
//     each offered its share by guarantee among the wanting queues, capped by
//     its maximum, by what it wants and (leaves) by max(used, guaranteed) -- a
//     queue never gets more than its guarantee by preempting others. Queues
//     with no guarantee share what remains equally, afterwards.
//  2. To be preempted: used - max(ideal, min(used + pending, guaranteed)),
//     scaled so that a level asks back at most total_preemption_per_round x
//     cluster.
//  3. Per leaf over its dead zone (used > guaranteed x (1 +
//     max_ignored_over_capacity)): asked this round = to be preempted x
//     natural_termination_factor, rounded up.
//  4. Selection: leaf by leaf (tree order), applications in reverse schedule
//     order (the input lists them in their queue's order; the last submitted
//     is asked first), each app's containers lowest priority first, then
//     youngest first; AM containers are skipped and taken only at the end if
//     still needed and while the queue's AM containers exceed its guarantee x
//     maximum-am-resource-percent. A container is taken while it lowers what
//     is still to obtain and fits in what the round may still take.
//
// Per Hadoop line (options.line; read in 2.6.0, 2.7.7 and 3.3.0), the
// steps above are 3.3's. 2.7 differs in: step 1 (a queue's ideal starts at
// its guarantee plus untouchable extra when over it, else its usage; each
// round offers every most-under-served queue its float share of what was
// unassigned at the round's start, rounded half up, and takes the offers off
// afterwards; no cap by max(used, guaranteed)); step 2 (to be preempted:
// used - ideal); step 3 (the natural termination factor truncates); step 4
// (a container is taken whole while anything is left to obtain, whatever it
// overshoots and whatever the round's allowance). 2.6 is 2.7 without
// per-queue disable_preemption and untouchable extra, and with a plainer
// step 1: every queue starts at nothing and each round offers every queue
// still accepting its share (by guarantee among them; truncated) of what is
// unassigned, a queue leaving once it accepts nothing. So 2.6 lets a queue's
// ideal grow past its guarantee to its demand.
//
// Thread-safety: a pure function over values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rm/preemption/preemption_options.h"
#include "rm/preemption/resource_math.h"
#include "rm/records/yarn_ids.h"
#include "scheduler_pool/resources.h"

namespace spindle::rm::preemption {

struct QueueInput {
  std::string path;
  // Index of the parent in PolicyInput::queues (which lists parents before
  // their children); -1 for the root, which must come first.
  int parent = -1;
  // Effective minimum (cluster x absolute capacity) and maximum.
  pool::Resource guaranteed;
  pool::Resource maximum;
  // What the queue's containers hold (a parent: its children's sum).
  pool::Resource used;
  // Leaves: outstanding asks of its applications. Parents: ignored (the
  // policy sums the children's).
  pool::Resource pending;
  // yarn.scheduler.capacity.<path>.disable_preemption, as inherited.
  bool preemption_disabled = false;
  // Leaves: maximum-am-resource-percent as a fraction.
  double maximum_am_fraction = 0;
};

struct ContainerInput {
  ContainerId id;
  pool::Resource resource;
  int32_t priority = 0;
  int64_t allocation_request_id = 0;
  bool is_am = false;
};

struct AppInput {
  ApplicationAttemptId attempt;
  int queue = 0;  // index of its leaf in PolicyInput::queues
  std::vector<ContainerInput> containers;
};

struct PolicyInput {
  pool::Resource cluster;
  std::vector<QueueInput> queues;
  // Each leaf's apps in the leaf's schedule order (FIFO: application
  // priority, then submission); selection walks them backwards.
  std::vector<AppInput> apps;
};

struct QueueOutcome {
  pool::Resource ideal_assigned;
  pool::Resource to_be_preempted;
  // What selection set out to obtain this round (leaves).
  pool::Resource actually_to_be_preempted;
};

struct SelectedContainer {
  ApplicationAttemptId attempt;
  ContainerId container;
  pool::Resource resource;
  bool is_am = false;
  int queue = 0;
};

struct PolicyOutcome {
  std::vector<QueueOutcome> queues;  // by index in PolicyInput::queues
  std::vector<SelectedContainer> selected;
};

// The round's decision. Uses options' fractions and calculator only (the
// timing is the monitor's). Bad input (a parent after its child, an app of
// an unknown queue) is skipped, never fatal.
PolicyOutcome ComputePreemption(const PolicyInput& input, const PreemptionOptions& options);

}  // namespace spindle::rm::preemption
