#include "replay/cell/ask_table.h"

#include <algorithm>
#include <set>

namespace spindle::replay {
namespace {

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

AskTable::AskTable(const TraceJob* job, const std::map<std::string, std::string>* rack_of)
    : job_(job), rack_of_(rack_of) {}

const TraceTask& AskTable::TaskOf(const TaskRef& ref) const {
  return job_->stages[static_cast<size_t>(ref.stage)].tasks[static_cast<size_t>(ref.task)];
}

int32_t AskTable::PriorityOf(const TaskRef& ref) const {
  return job_->stages[static_cast<size_t>(ref.stage)].priority;
}

std::vector<AskTable::Key> AskTable::KeysOf(const Pending& p) const {
  const TraceTask& t = TaskOf(p.task);
  const int32_t priority = PriorityOf(p.task);
  std::vector<Key> keys;
  for (const std::string& h : p.hosts) keys.emplace_back(priority, t.memory_mb, t.vcores, h);
  for (const std::string& r : p.racks) keys.emplace_back(priority, t.memory_mb, t.vcores, r);
  keys.emplace_back(priority, t.memory_mb, t.vcores, kAnyHost);
  return keys;
}

void AskTable::Change(const Key& key, int32_t delta) {
  counts_[key] += delta;
  changed_[key] = true;
}

void AskTable::Add(const TaskRef& task) {
  const TraceTask& t = TaskOf(task);
  Pending p;
  p.task = task;
  std::set<std::string> hosts;
  std::set<std::string> racks;
  for (const std::string& h : t.preferred_nodes) {
    if (!hosts.insert(h).second) continue;
    p.hosts.push_back(h);
    auto rack = rack_of_->find(h);
    if (rack != rack_of_->end() && racks.insert(rack->second).second) {
      p.racks.push_back(rack->second);
    }
  }
  for (const std::string& r : t.preferred_racks) {
    if (racks.insert(r).second) p.racks.push_back(r);
  }
  for (const Key& key : KeysOf(p)) Change(key, +1);
  pending_.push_back(std::move(p));
}

std::optional<TaskAssignment> AskTable::Assign(int32_t priority, const std::string& host,
                                               int64_t memory_mb, int32_t vcores) {
  const auto rack_it = rack_of_->find(host);
  const std::string rack = rack_it == rack_of_->end() ? "" : rack_it->second;
  int best = -1;
  TaskLocality best_locality = TaskLocality::kOffSwitch;
  for (size_t i = 0; i < pending_.size(); ++i) {
    const Pending& p = pending_[i];
    const TraceTask& t = TaskOf(p.task);
    if (PriorityOf(p.task) != priority || t.memory_mb > memory_mb || t.vcores > vcores) continue;
    TaskLocality locality = TaskLocality::kOffSwitch;
    if (Contains(p.hosts, host)) {
      locality = TaskLocality::kNodeLocal;
    } else if (!rack.empty() && Contains(p.racks, rack)) {
      locality = TaskLocality::kRackLocal;
    }
    if (best < 0 || locality < best_locality) {
      best = static_cast<int>(i);
      best_locality = locality;
      if (locality == TaskLocality::kNodeLocal) break;
    }
  }
  if (best < 0) return std::nullopt;
  Pending p = std::move(pending_[static_cast<size_t>(best)]);
  pending_.erase(pending_.begin() + best);
  for (const Key& key : KeysOf(p)) Change(key, -1);
  const TraceTask& t = TaskOf(p.task);
  TaskAssignment a;
  a.task = p.task;
  a.locality = best_locality;
  a.with_preference = !t.preferred_nodes.empty() || !t.preferred_racks.empty();
  if (!t.preferred_nodes.empty()) {
    a.preferred = Contains(t.preferred_nodes, host);
  } else if (!t.preferred_racks.empty()) {
    a.preferred = !rack.empty() && Contains(t.preferred_racks, rack);
  }
  return a;
}

std::vector<AskRow> AskTable::TakeChanged() {
  std::vector<AskRow> rows;
  for (const auto& [key, changed] : changed_) {
    const auto& [priority, memory, vcores, name] = key;
    rows.push_back(AskRow{priority, name, memory, vcores, counts_[key]});
  }
  changed_.clear();
  // Rows back at zero have been sent (cancelling): forget them.
  for (auto it = counts_.begin(); it != counts_.end();) {
    it = it->second == 0 ? counts_.erase(it) : std::next(it);
  }
  return rows;
}

std::vector<AskRow> AskTable::AllRows() const {
  std::vector<AskRow> rows;
  for (const auto& [key, count] : counts_) {
    if (count == 0) continue;
    const auto& [priority, memory, vcores, name] = key;
    rows.push_back(AskRow{priority, name, memory, vcores, count});
  }
  return rows;
}

}  // namespace spindle::replay
