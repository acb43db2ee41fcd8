// Tagged integer ids (Ray's BaseSchedulingID<Tag>): a NodeId cannot be passed
// where a QueueId is wanted. All are plain values, hashable and ordered.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <ostream>

namespace spindle::pool {

template <typename Tag, typename Rep>
class TypedId {
 public:
  using ValueType = Rep;
  static constexpr Rep kInvalidValue = std::numeric_limits<Rep>::max();

  constexpr TypedId() = default;
  constexpr explicit TypedId(Rep value) : value_(value) {}

  constexpr Rep value() const { return value_; }
  constexpr bool valid() const { return value_ != kInvalidValue; }

  friend constexpr bool operator==(TypedId a, TypedId b) { return a.value_ == b.value_; }
  friend constexpr bool operator!=(TypedId a, TypedId b) { return a.value_ != b.value_; }
  friend constexpr bool operator<(TypedId a, TypedId b) { return a.value_ < b.value_; }
  friend std::ostream& operator<<(std::ostream& os, TypedId id) {
    return os << Tag::kPrefix << static_cast<uint64_t>(id.value_);
  }

 private:
  Rep value_ = kInvalidValue;
};

struct AppTag {
  static constexpr const char* kPrefix = "app:";
};
struct QueueTag {
  static constexpr const char* kPrefix = "queue:";
};
struct RackTag {
  static constexpr const char* kPrefix = "rack:";
};
struct UserTag {
  static constexpr const char* kPrefix = "user:";
};

// An application, as the RM numbers it (the pool does not interpret it).
using AppId = TypedId<AppTag, uint64_t>;
// A queue (quota group), assigned by QueueLedger::SetQueues in order.
using QueueId = TypedId<QueueTag, uint32_t>;
// A rack, assigned by CellState when a node names a rack it has not seen.
using RackId = TypedId<RackTag, uint32_t>;
// A user (an application's owner), interned by SchedulerPool::InternUser.
using UserId = TypedId<UserTag, uint32_t>;

// A node of the cell state. CellState assigns it on AddNode and never reuses
// it; it names the node's partition and its slot in that partition, so
// finding a node takes no directory lookup.
class NodeId {
 public:
  static constexpr int kPartitionBits = 10;
  static constexpr int kSlotBits = 32 - kPartitionBits;
  static constexpr uint32_t kMaxPartitions = 1u << kPartitionBits;
  static constexpr uint32_t kMaxSlots = 1u << kSlotBits;

  constexpr NodeId() = default;
  constexpr NodeId(uint32_t partition, uint32_t slot)
      : value_((partition << kSlotBits) | (slot & (kMaxSlots - 1))) {}
  static constexpr NodeId FromValue(uint32_t value) {
    NodeId id;
    id.value_ = value;
    return id;
  }

  constexpr uint32_t partition() const { return value_ >> kSlotBits; }
  constexpr uint32_t slot() const { return value_ & (kMaxSlots - 1); }
  constexpr uint32_t value() const { return value_; }
  constexpr bool valid() const { return value_ != kInvalid; }

  friend constexpr bool operator==(NodeId a, NodeId b) { return a.value_ == b.value_; }
  friend constexpr bool operator!=(NodeId a, NodeId b) { return a.value_ != b.value_; }
  friend constexpr bool operator<(NodeId a, NodeId b) { return a.value_ < b.value_; }
  friend std::ostream& operator<<(std::ostream& os, NodeId id) {
    return os << "node:" << id.partition() << "/" << id.slot();
  }

 private:
  static constexpr uint32_t kInvalid = std::numeric_limits<uint32_t>::max();
  uint32_t value_ = kInvalid;
};

}  // namespace spindle::pool

template <typename Tag, typename Rep>
struct std::hash<spindle::pool::TypedId<Tag, Rep>> {
  size_t operator()(spindle::pool::TypedId<Tag, Rep> id) const {
    return std::hash<Rep>()(id.value());
  }
};
template <>
struct std::hash<spindle::pool::NodeId> {
  size_t operator()(spindle::pool::NodeId id) const { return std::hash<uint32_t>()(id.value()); }
};
