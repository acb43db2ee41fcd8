// AskTable: a simulated MapReduce AM's container requests for one job, kept
// as Hadoop's RMContainerRequestor keeps them. A ready task adds one
// container to each row that names it: its preferred hosts, its preferred
// racks and the racks of its preferred hosts, and ANY ("*"), at its stage's
// priority and its capability (relaxed locality). An allocated container is
// matched to a pending task of its priority that fits in it, node-local
// first, then rack-local, then any (MapReduce's assignment order), and that
// task's rows are decremented. Changed rows are sent with their absolute
// counts, as YARN's allocate protocol wants (a row replaces the previous
// one with the same key).
//
// Plain values, no wire types: the AM turns rows into ResourceRequestProtos.
//
// Thread-safety: none (its AM owns it).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "replay/driver/job_progress.h"
#include "replay/trace/trace.h"

namespace spindle::replay {

inline constexpr char kAnyHost[] = "*";

struct AskRow {
  int32_t priority = 0;
  // A host, a rack ("/rack1") or kAnyHost.
  std::string resource_name;
  int64_t memory_mb = 0;
  int32_t vcores = 0;
  int32_t count = 0;
  friend bool operator==(const AskRow&, const AskRow&) = default;
};

enum class TaskLocality { kNodeLocal, kRackLocal, kOffSwitch };

struct TaskAssignment {
  TaskRef task;
  TaskLocality locality = TaskLocality::kOffSwitch;
  // The task named nodes or racks, and the container is on one of them (a
  // preferred node; or a preferred rack when it named only racks): the
  // recorder's quality.
  bool with_preference = false;
  bool preferred = false;
};

class AskTable {
 public:
  // `job` must outlive the table. `rack_of` maps host -> rack for the cell's
  // nodes (a host it lacks adds no rack row).
  AskTable(const TraceJob* job, const std::map<std::string, std::string>* rack_of);

  // Asks for a ready task (once per task).
  void Add(const TaskRef& task);
  // The pending task a container of `priority` and size on `host` serves,
  // removed from the table; nullopt if none fits (the AM releases it).
  std::optional<TaskAssignment> Assign(int32_t priority, const std::string& host, int64_t memory_mb,
                                       int32_t vcores);
  // Rows whose count changed since the last call, with their counts now
  // (zeros included: they cancel), in key order.
  std::vector<AskRow> TakeChanged();
  // Every row with a non-zero count (to send again after a resync).
  std::vector<AskRow> AllRows() const;
  // Tasks asked for and not yet assigned.
  int64_t pending() const { return static_cast<int64_t>(pending_.size()); }

 private:
  using Key = std::tuple<int32_t, int64_t, int32_t, std::string>;  // prio, mb, vcores, name
  struct Pending {
    TaskRef task;
    std::vector<std::string> hosts;
    std::vector<std::string> racks;  // preferred racks plus racks of preferred hosts
  };

  const TraceTask& TaskOf(const TaskRef& ref) const;
  int32_t PriorityOf(const TaskRef& ref) const;
  std::vector<Key> KeysOf(const Pending& p) const;
  void Change(const Key& key, int32_t delta);

  const TraceJob* const job_;
  const std::map<std::string, std::string>* const rack_of_;
  std::vector<Pending> pending_;  // in the order asked
  std::map<Key, int32_t> counts_;
  std::map<Key, bool> changed_;
};

}  // namespace spindle::replay
