// The pool's vocabulary toward the RM: what an application asks for (Ask),
// how it is registered (AppSpec) and what the pool gives back (Placement).
// Plain values; the RM translates YARN's ResourceRequest tables into Asks
// and Placements into containers.
#pragma once

#include <cstdint>
#include <vector>

#include "base/clock.h"
#include "scheduler_pool/ids.h"
#include "scheduler_pool/node_state.h"
#include "scheduler_pool/resources.h"

namespace spindle::pool {

// An application's outstanding request for `count` containers of one
// (priority, allocation_request_id, capability) key: YARN's ResourceRequest
// with its host and rack rows folded into `nodes` and `racks`.
//
// `count` is an absolute total, as in YARN: the number of containers the
// application still wants for this key, as the application knows it.
// Placements committed but not yet returned by TakePlacements() count
// against it (the application has not seen them), so an AM that repeats its
// last total does not get them twice. A count of 0 cancels the key.
struct Ask {
  // YARN request priority: a lower value is served first.
  int32_t priority = 0;
  // YARN's allocationRequestId, echoed in the placements.
  int64_t allocation_request_id = -1;
  Resource capability;
  int64_t count = 0;
  // Preferred nodes, then racks, in the order given. Empty: no preference.
  std::vector<NodeId> nodes;
  std::vector<RackId> racks;
  // YARN's relaxLocality: if false and there are preferences, place only on
  // a preferred node or rack; never "anywhere".
  bool relax_locality = true;
  // The node-label partition it may be placed in (YARN's node label
  // expression, node_labels.h). Default: the default partition.
  LabelId label = kDefaultLabel;
  // An application master's container: never lent a non-exclusive
  // partition (3.3 RegularContainerAllocator: "don't allow to allocate AM
  // container in non-exclusive mode").
  bool am_container = false;

  bool SameKey(const Ask& o) const {
    return priority == o.priority && allocation_request_id == o.allocation_request_id &&
           capability == o.capability;
  }
  // Key order: priority, then allocation request id, then capability.
  bool KeyLess(const Ask& o) const {
    if (priority != o.priority) return priority < o.priority;
    if (allocation_request_id != o.allocation_request_id) {
      return allocation_request_id < o.allocation_request_id;
    }
    return capability < o.capability;
  }
};

// The identity of an ask: YARN's (priority, allocationRequestId) scheduler
// key plus the capability.
struct AskKey {
  int32_t priority = 0;
  int64_t allocation_request_id = -1;
  Resource capability;

  static AskKey Of(const Ask& a) {
    return AskKey{a.priority, a.allocation_request_id, a.capability};
  }
  friend bool operator==(const AskKey& a, const AskKey& b) {
    return a.priority == b.priority && a.allocation_request_id == b.allocation_request_id &&
           a.capability == b.capability;
  }
};

struct AppSpec {
  AppSpec() = default;
  // Positional, so that callers that name no user keep building it as
  // {id, queue, priority}.
  AppSpec(AppId app_id, QueueId app_queue, int32_t app_priority = 0, UserId app_user = UserId())
      : id(app_id), queue(app_queue), priority(app_priority), user(app_user) {}

  AppId id;
  QueueId queue;
  // YARN application priority: a higher value is served first. Default: 0.
  int32_t priority = 0;
  // The application's user (SchedulerPool::InternUser); its queue's user
  // limits apply to it. Invalid (the default): no user limit. Set by AddApp
  // only: UpdateApp keeps the user the app was added with.
  UserId user;
  // The application waits on its queue's AM limit (rm/apps/am_activation):
  // nothing is placed for it (an unmanaged AM may already ask; its asks
  // wait), but under Hadoop 2.x the AM request it already has makes its user
  // an active user (user_limit.h, UserCountsHeldApps).
  // Set by AddApp and UpdateApp. Default: false.
  bool held = false;
  // Pool-wide submission order (the application id's order), which
  // SchedulerPool::AddApp assigns whatever the caller set; UpdateApp keeps
  // it. Queues with QueueSpec::pool_wide_order order applications by it
  // across schedulers.
  uint64_t order = 0;
};

enum class Locality : uint8_t { kNodeLocal, kRackLocal, kOffSwitch };
const char* LocalityName(Locality locality);

// A committed placement: one container's worth of resource on a node.
struct Placement {
  // Unique within the pool.
  uint64_t id = 0;
  AppId app;
  QueueId queue;
  // The app's user: its release credits the user's usage in `queue`.
  UserId user;
  NodeId node;
  // The node-label partition its queue is charged in: its node's at commit
  // (a default-partition ask lent a non-exclusive node counts there, as
  // 3.3 charges the node's partition). A node relabelled later keeps its
  // running placements' charge where it was (3.3 moves it; not modelled).
  LabelId label = kDefaultLabel;
  Resource resource;
  int32_t priority = 0;
  int64_t allocation_request_id = -1;
  Locality locality = Locality::kOffSwitch;
  // On a preferred node (or rack, when the ask named only racks).
  bool preferred = false;
  TimePoint asked_at;
  TimePoint committed_at;

  AskKey key() const { return AskKey{priority, allocation_request_id, resource}; }
};

}  // namespace spindle::pool
