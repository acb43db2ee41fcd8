// AskTable: one application attempt's outstanding asks, as an AM builds them
// with its allocate calls, kept the way Hadoop's AppSchedulingInfo keeps them
// (2.6.0 AppSchedulingInfo.updateResourceRequests / allocate*; 3.3's
// LocalityAppPlacementAllocator where it differs, as noted per method).
//
// A row is identified by (priority, allocation request id, normalised
// capability) -- the scheduler key -- and a resource name: "*" (ANY, the
// total the AM wants), a rack ("/..."), or a host. Hadoop keys rows by
// (priority[, allocationRequestId]) and name only and keeps the capability
// as an attribute; Spindle keeps the normalised capability in the key, as
// Hadoop's AMRMClient keys its own table, so that an AM asking two sizes at
// one priority gets both (the pool places per key, scheduler_pool/ask.h).
//
// Asks are absolute: a row replaces the row of the same key and name. The
// table turns into the pool's asks (PoolAsks): one per key that has an ANY
// row; host rows with containers are node preferences, rack rows with
// containers and relaxLocality are rack preferences, and the ANY row's
// relaxLocality says whether the pool may go anywhere else (2.6.0
// LeafQueue.assignContainersOnNode: a rack row without relaxLocality
// refuses rack-local placement, an ANY row without it off-switch
// placement). Hadoop also refuses off-switch placement on the nodes of a
// rack whose row lacks relaxLocality while ANY has it; the pool cannot say
// that (AMRMClient never sends that mix: it refuses mixed relaxLocality at
// one priority).
//
// Thread-safety: none; the owner serialises calls (one allocate at a time
// per attempt).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "rm/scheduling/resource_normalizer.h"
#include "scheduler_pool/ask.h"

namespace spindle::rm {

// ResourceRequest.ANY.
inline constexpr char kAnyResourceName[] = "*";

// One row of an AM's ask (YARN's ResourceRequest, the fields the RM uses).
struct ResourceRequest {
  int32_t priority = 0;
  // Hadoop 2.9+; -1 (the field's default) when the AM does not set it.
  int64_t allocation_request_id = -1;
  std::string resource_name;
  // As the AM asked (validated by the caller); the table normalises it.
  pool::Resource capability;
  int32_t count = 0;
  bool relax_locality = true;
  // The node label expression as the AM sent it; unset: none sent (the RM
  // resolves it to a partition, rm/core/ask_partitions.h).
  std::optional<std::string> node_label_expression;

  bool operator==(const ResourceRequest&) const = default;
};

// Orders pool::AskKey (priority, allocation request id, capability).
struct AskKeyLess {
  bool operator()(const pool::AskKey& a, const pool::AskKey& b) const {
    if (a.priority != b.priority) return a.priority < b.priority;
    if (a.allocation_request_id != b.allocation_request_id) {
      return a.allocation_request_id < b.allocation_request_id;
    }
    return a.capability < b.capability;
  }
};

// How resource names (hosts, racks) map onto the pool's nodes and racks.
class PlaceNames {
 public:
  virtual ~PlaceNames() = default;
  // Appends the usable pool nodes on a host (every NodeManager on it) to
  // `out`: an ask resolves a row per preferred host into one vector.
  virtual void AddNodesOnHost(const std::string& host, std::vector<pool::NodeId>* out) const = 0;
  // The pool's rack of that name, if any node is on it.
  virtual std::optional<pool::RackId> RackNamed(const std::string& rack) const = 0;
};

class AskTable {
 public:
  struct Row {
    int32_t count = 0;
    bool relax_locality = true;
  };
  // The rows of one scheduler key, by resource name.
  using Rows = std::map<std::string, Row>;

  // What an Update() changed for the pool.
  struct Changes {
    // Keys the update wrote rows of and that still have rows.
    std::vector<pool::AskKey> touched;
    // Keys whose ANY row the update set to zero: nothing is wanted for them.
    std::vector<pool::AskKey> dropped;
    // Every key the update wrote a row of, in order, once each (a key can go
    // without being dropped: its last host row set to 0).
    std::vector<pool::AskKey> written;
  };

  explicit AskTable(ResourceNormalizer normalizer) : normalizer_(normalizer) {}

  // The key a request's row goes under (its capability normalised).
  pool::AskKey KeyOf(const ResourceRequest& request) const;

  // AppSchedulingInfo.updateResourceRequests: each row replaces the row of
  // its key and name (the last of a call wins, as 3.3 dedups a call). A
  // count of 0 removes the row; an ANY row of 0 removes its key with all its
  // host and rack rows (3.3 AppSchedulingInfo.updatePendingResources drops
  // the key's placement allocator; 2.6.0 keeps zero rows, which schedule
  // nothing). Rows must be validated already (no negative count).
  // `partitions`, if not empty, holds one pool label per request: an ANY
  // row's sets the partition of its whole key (3.3
  // LocalityAppPlacementAllocator.updateNodeLabels: the ANY request's
  // expression governs the key's host and rack rows); other rows' entries
  // are ignored. A key keeps its partition until its ANY row names another
  // or the key goes.
  Changes Update(std::span<const ResourceRequest> requests,
                 std::span<const pool::LabelId> partitions = {});
  // The partition of a key's asks (kDefaultLabel unless an ANY row set one).
  pool::LabelId PartitionOf(const pool::AskKey& key) const;

  // AppSchedulingInfo.allocate: one container of `key` was placed on a node
  // of `host` in `rack` with `locality`. NODE_LOCAL takes one from the host
  // row, the rack row and ANY; RACK_LOCAL from the rack row and ANY;
  // OFF_SWITCH from ANY (allocateNodeLocal / allocateRackLocal /
  // allocateOffSwitch). Host and rack rows that reach 0 are removed; the
  // ANY row stays at 0 (2.6.0 decrementOutstanding, "Do not remove ANY";
  // 3.3 removes it -- kept here so that a stored table still says the key
  // was fully granted). A missing row is skipped (Hadoop assumes the AM sent
  // the rack row of every host; AMRMClient does).
  void Allocate(const pool::AskKey& key, pool::Locality locality, const std::string& host,
                const std::string& rack);

  // The count of one row; 0 when it is absent.
  int32_t Count(const pool::AskKey& key, const std::string& resource_name) const;
  // The rows of a key, or nullptr.
  const Rows* RowsOf(const pool::AskKey& key) const;
  bool empty() const { return keys_.empty(); }

  // Every row, keys in order, each with its normalised capability.
  std::vector<ResourceRequest> AllRows() const;
  // What the table still asks for: each key's ANY count x its capability
  // (AppSchedulingInfo's pending resource, which the preemption policy
  // reads as a queue's demand).
  pool::Resource Pending() const;
  // Some key's ANY row asks for containers (AppSchedulingInfo keeps its
  // application active while one does: checkForDeactivation).
  bool Asking() const;

  // Lowers each row's count to cap(key, name) when that returns a value (an
  // RM restart's caps on a re-sent table); a row capped to 0 stays, so that
  // a stored table still says the key was fully granted.
  template <typename CapOf>
  void CapRows(const CapOf& cap_of) {
    for (auto& [key, rows] : keys_) {
      for (auto& [name, row] : rows) {
        const std::optional<int32_t> cap = cap_of(key, name);
        if (cap.has_value() && *cap < row.count) row.count = *cap;
      }
    }
  }

  // The pool's asks for `keys` (all keys if empty): see the file comment.
  // Keys without an ANY row ask for nothing yet and are left out.
  std::vector<pool::Ask> PoolAsks(const PlaceNames& names,
                                  std::span<const pool::AskKey> keys = {}) const;

  // ---- Blacklist (AppSchedulingInfo.updateBlacklist) ----
  // RMServerUtils.validateBlacklistRequest: "*" cannot be blacklisted
  // (InvalidResourceBlacklistRequestException).
  static Status CheckBlacklistAdditions(std::span<const std::string> additions);
  // Adds, then removes (a name in both ends up removed, as Hadoop's
  // addAll/removeAll does); refuses "*" without changing anything. A name
  // is a host or a rack.
  Status UpdateBlacklist(std::span<const std::string> additions,
                         std::span<const std::string> removals);
  const std::set<std::string>& blacklist() const { return blacklist_; }
  // The pool nodes and racks the blacklisted names resolve to now (hosts
  // that registered since count too).
  void ResolveBlacklist(const PlaceNames& names, std::vector<pool::NodeId>* nodes,
                        std::vector<pool::RackId>* racks) const;

  const ResourceNormalizer& normalizer() const { return normalizer_; }

 private:
  std::optional<pool::Ask> PoolAskOf(const pool::AskKey& key, const Rows& rows,
                                     const PlaceNames& names) const;

  ResourceNormalizer normalizer_;
  std::map<pool::AskKey, Rows, AskKeyLess> keys_;
  // Keys placed outside the default partition only: an app that uses no
  // labels pays one empty() check per pool ask.
  std::map<pool::AskKey, pool::LabelId, AskKeyLess> partitions_;
  std::set<std::string> blacklist_;
};

}  // namespace spindle::rm
