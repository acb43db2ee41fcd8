// SchedulingPolicy: *who* is served next (policy), kept apart from *where*
// (PlacementStrategy) and from the commit machinery (Scheduler), as Ray's
// ISchedulingPolicy and Mesos' Sorter are. A scheduler step asks its policy
// for picks until it has placed its batch or the policy runs dry:
//
//   policy.Begin(input);
//   while (policy.Next(&pick)) {
//     placed = place up to pick.max_tasks tasks of pick.ask;
//     policy.Report(pick, placed, block);
//   }
//
// A policy sees the scheduler's pending asks and the queues' shared usage
// and decides the order and the chunk sizes; it never touches nodes. The
// default is QuotaDrfPolicy (policy/quota_drf_policy.h). A Carbyne-style
// altruistic policy (DEFAULT asks within the fair share, leftovers to the
// jobs closest to completion) or any other ordering plugs in here, without
// changes to the mechanism.
//
// Thread-safety: a policy object belongs to one scheduler.
#pragma once

#include <cstdint>
#include <vector>

#include "scheduler_pool/pending.h"
#include "scheduler_pool/queue_ledger.h"
#include "scheduler_pool/resources.h"

namespace spindle::pool {

struct PolicyInput {
  // This scheduler's applications; those with no pending tasks are skipped.
  const std::vector<AppState*>* apps = nullptr;
  // Queues' specs and shared usage (including other schedulers' work).
  const QueueLedger* queues = nullptr;
  // Capacity of the running nodes (the DRF denominator).
  Resource capacity;
  // Default-partition asks may borrow idle non-exclusive partitions, which
  // no queue maximum limits (some node is labelled): a queue at its default
  // maximum still has them served.
  bool may_borrow = false;
};

struct PolicyPick {
  AppState* app = nullptr;
  AskState* ask = nullptr;
  // Place at most this many tasks before asking again (>= 1).
  int64_t max_tasks = 0;
};

// Why a pick placed fewer tasks than it could have.
enum class PickBlock : uint8_t {
  kNone,       // not blocked (the batch or the pick's chunk ran out)
  kNoFit,      // no node in the view takes another task of this ask
  kQuota,      // the queue is at its maximum
  kUserLimit,  // the app's user is at its limit in the queue
  kOrder,      // the queue serves other apps (other schedulers' too) first
};

class SchedulingPolicy {
 public:
  virtual ~SchedulingPolicy() = default;
  virtual const char* name() const = 0;
  // Starts a step over `input` (valid until the next Begin).
  virtual void Begin(const PolicyInput& input) = 0;
  // The next ask to serve; false when nothing more can be served this step.
  virtual bool Next(PolicyPick* pick) = 0;
  // `placed` tasks of the pick were chosen (charged tentatively: the policy
  // counts them as usage for the rest of the step).
  virtual void Report(const PolicyPick& pick, int64_t placed, PickBlock block) = 0;
};

}  // namespace spindle::pool
