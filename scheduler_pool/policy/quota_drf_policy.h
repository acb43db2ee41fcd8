// QuotaDrfPolicy: the default SchedulingPolicy (Fuxi's quota groups with
// YARN's ordering):
//  1. Queues below their guaranteed min come first, least satisfied first
//     (usage / min, by the dimension closest to its min).
//  2. Then weighted DRF between queues: lowest dominant share / weight
//     first. A queue at its max is skipped.
//  3. Within a queue: the queue's application ordering, as the configured
//     Hadoop line has it (policy/app_ordering.h): 2.x application id
//     order; 3.x FIFO (priority, then application id) or fair (least
//     memory used first, optionally weighed by demand), re-evaluated after
//     each container.
//  4. Within an application: ask priority (lower value first), then
//     allocation request id.
// A user at its limit in a queue (the ledger's reservation says so, see
// user_limit.h) has its apps skipped for the rest of the step.
// Each pick's chunk is as many tasks as keep the queue's order: until its
// share passes the next queue's (at least one), until it reaches its min,
// never past its max.
//
// With node labels, each queue is ordered per partition: the asks of a
// partition compete with that partition's asks of other queues, by the
// queues' min, max and weight there (PartitionShare) and their usage there,
// as ParentQueue orders child queues by their used capacity of the
// partition being scheduled.
//
// Usage comes from the QueueLedger (all schedulers' work) at Begin, plus
// what this step has chosen so far. With several schedulers, each orders its
// own applications against the shared usage; the cap is enforced exactly by
// the ledger's reservations.
//
// Thread-safety: one scheduler's.
#pragma once

#include <cstdint>
#include <vector>

#include "scheduler_pool/policy/app_ordering.h"
#include "scheduler_pool/policy/scheduling_policy.h"

namespace spindle::pool {

// Where a queue stands in the order between queues: below its min first,
// least satisfied first (usage / min, by the dimension closest to its min);
// then the lowest dominant share of `capacity` / weight; ties by queue id.
// QuotaDrfPolicy serves queues in this order, and QueueLedger shares the
// cell out in it across schedulers (pool_wide_order).
struct QueueRank {
  bool below_min = false;
  double key = 0;  // within its class; lower first
  QueueId id;
};
QueueRank RankOf(QueueId id, const QueueSpec& spec, const Resource& usage,
                 const Resource& capacity);
// True when `a` is served before `b`.
bool ServedBefore(const QueueRank& a, const QueueRank& b);

class QuotaDrfPolicy final : public SchedulingPolicy {
 public:
  const char* name() const override { return "quota-drf"; }
  void Begin(const PolicyInput& input) override;
  bool Next(PolicyPick* pick) override;
  void Report(const PolicyPick& pick, int64_t placed, PickBlock block) override;

 private:
  struct AppEntry {
    AppState* app;
    LabelId label;       // the partition of the asks served through this entry
    Resource extra;      // chosen this step
    size_t ask_cursor;   // asks before it are served or blocked this step
    int64_t pending_mb;  // memory of its pending asks at Begin
    bool done;
  };
  struct QueueEntry {
    QueueId id;
    LabelId label = kDefaultLabel;  // the partition
    QueueSnapshot snap;             // usage includes this step's choices
    std::vector<AppEntry> apps;
    size_t app_cursor = 0;  // FIFO: apps before it are done
    bool active = true;
    bool below_min = false;
    double key = 0;  // within its class (below_min or not); lower first
  };

  void Rekey(QueueEntry& q) const;
  // What the ordering policies compare of `a`, this step's choices included.
  static OrderedApp Ordered(const AppEntry& a);
  // The app to serve next in `q`, or nullptr if none (marks q inactive).
  AppEntry* NextApp(QueueEntry& q);
  // Advances past served or blocked asks; nullptr if none left.
  AskState* CurrentAsk(AppEntry& a) const;
  int64_t Chunk(const QueueEntry& q, const AskState& ask) const;
  int64_t FairChunk(const QueueEntry& q, const AppEntry& a, const AskState& ask) const;

  Resource capacity_;
  bool may_borrow_ = false;
  std::vector<LabelId> seen_labels_;  // Begin's scratch
  std::vector<QueueEntry> queues_;
  int current_queue_ = -1;
  AppEntry* current_app_ = nullptr;
};

}  // namespace spindle::pool
