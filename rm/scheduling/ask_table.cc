#include "rm/scheduling/ask_table.h"

#include <algorithm>
#include <utility>

#include "rm/yarn_exceptions.h"

namespace spindle::rm {

namespace {

bool IsRackName(const std::string& name) { return !name.empty() && name[0] == '/'; }

// Takes one container from a host or rack row; a row that reaches 0 goes
// (LocalityAppPlacementAllocator.decResourceRequest; 2.6.0 allocateNodeLocal
// and allocateRackLocal remove it the same way).
void TakeOne(AskTable::Rows* rows, const std::string& name) {
  auto it = rows->find(name);
  if (it == rows->end()) return;
  if (--it->second.count <= 0) rows->erase(it);
}

}  // namespace

pool::AskKey AskTable::KeyOf(const ResourceRequest& request) const {
  return pool::AskKey{request.priority, request.allocation_request_id,
                      normalizer_.Normalize(request.capability)};
}

AskTable::Changes AskTable::Update(std::span<const ResourceRequest> requests,
                                   std::span<const pool::LabelId> partitions) {
  // The ANY count each key ends this call with, if the call set it.
  std::map<pool::AskKey, int32_t, AskKeyLess> any_count;
  std::vector<pool::AskKey> written;
  for (size_t i = 0; i < requests.size(); ++i) {
    const ResourceRequest& request = requests[i];
    const pool::AskKey key = KeyOf(request);
    written.push_back(key);
    if (request.resource_name == kAnyResourceName) {
      any_count[key] = request.count;
      const pool::LabelId partition = i < partitions.size() ? partitions[i] : pool::kDefaultLabel;
      if (partition != pool::kDefaultLabel) {
        partitions_[key] = partition;
      } else if (!partitions_.empty()) {
        partitions_.erase(key);
      }
    }
    if (request.count <= 0) {
      auto it = keys_.find(key);
      if (it != keys_.end()) {
        it->second.erase(request.resource_name);
        if (it->second.empty()) keys_.erase(it);
      }
      continue;
    }
    keys_[key][request.resource_name] = Row{request.count, request.relax_locality};
  }
  Changes changes;
  for (const auto& [key, count] : any_count) {
    if (count > 0) continue;
    keys_.erase(key);
    partitions_.erase(key);
    changes.dropped.push_back(key);
  }
  std::sort(written.begin(), written.end(), AskKeyLess());
  written.erase(std::unique(written.begin(), written.end()), written.end());
  for (const pool::AskKey& key : written) {
    if (keys_.count(key) != 0) changes.touched.push_back(key);
  }
  changes.written = std::move(written);
  return changes;
}

void AskTable::Allocate(const pool::AskKey& key, pool::Locality locality, const std::string& host,
                        const std::string& rack) {
  auto it = keys_.find(key);
  if (it == keys_.end()) return;
  Rows& rows = it->second;
  if (locality == pool::Locality::kNodeLocal) TakeOne(&rows, host);
  if (locality == pool::Locality::kNodeLocal || locality == pool::Locality::kRackLocal) {
    TakeOne(&rows, rack);
  }
  if (auto any = rows.find(kAnyResourceName); any != rows.end()) {
    any->second.count = std::max(0, any->second.count - 1);
  }
}

pool::LabelId AskTable::PartitionOf(const pool::AskKey& key) const {
  if (partitions_.empty()) return pool::kDefaultLabel;
  auto it = partitions_.find(key);
  return it == partitions_.end() ? pool::kDefaultLabel : it->second;
}

int32_t AskTable::Count(const pool::AskKey& key, const std::string& resource_name) const {
  const Rows* rows = RowsOf(key);
  if (rows == nullptr) return 0;
  auto it = rows->find(resource_name);
  return it == rows->end() ? 0 : it->second.count;
}

const AskTable::Rows* AskTable::RowsOf(const pool::AskKey& key) const {
  auto it = keys_.find(key);
  return it == keys_.end() ? nullptr : &it->second;
}

std::vector<ResourceRequest> AskTable::AllRows() const {
  std::vector<ResourceRequest> out;
  for (const auto& [key, rows] : keys_) {
    for (const auto& [name, row] : rows) {
      out.push_back(ResourceRequest{key.priority, key.allocation_request_id, name, key.capability,
                                    row.count, row.relax_locality, std::nullopt});
    }
  }
  return out;
}

pool::Resource AskTable::Pending() const {
  pool::Resource total;
  for (const auto& [key, rows] : keys_) {
    auto any = rows.find(kAnyResourceName);
    if (any != rows.end() && any->second.count > 0) total += key.capability * any->second.count;
  }
  return total;
}

bool AskTable::Asking() const {
  return std::any_of(keys_.begin(), keys_.end(), [](const auto& entry) {
    auto any = entry.second.find(kAnyResourceName);
    return any != entry.second.end() && any->second.count > 0;
  });
}

std::optional<pool::Ask> AskTable::PoolAskOf(const pool::AskKey& key, const Rows& rows,
                                             const PlaceNames& names) const {
  auto any = rows.find(kAnyResourceName);
  if (any == rows.end()) return std::nullopt;  // no total: nothing is wanted yet
  pool::Ask ask;
  ask.priority = key.priority;
  ask.allocation_request_id = key.allocation_request_id;
  ask.capability = key.capability;
  ask.count = any->second.count;
  ask.relax_locality = any->second.relax_locality;
  ask.label = PartitionOf(key);
  for (const auto& [name, row] : rows) {
    if (name == kAnyResourceName || row.count <= 0) continue;
    if (IsRackName(name)) {
      // A rack row without relaxLocality only forbids (2.6.0
      // LeafQueue.assignContainersOnNode returns SKIP_ASSIGNMENT for it).
      if (!row.relax_locality) continue;
      if (auto rack = names.RackNamed(name); rack.has_value()) ask.racks.push_back(*rack);
    } else {
      names.AddNodesOnHost(name, &ask.nodes);
    }
  }
  return ask;
}

std::vector<pool::Ask> AskTable::PoolAsks(const PlaceNames& names,
                                          std::span<const pool::AskKey> keys) const {
  std::vector<pool::Ask> out;
  if (keys.empty()) {
    for (const auto& [key, rows] : keys_) {
      if (auto ask = PoolAskOf(key, rows, names); ask.has_value()) out.push_back(std::move(*ask));
    }
    return out;
  }
  for (const pool::AskKey& key : keys) {
    const Rows* rows = RowsOf(key);
    if (rows == nullptr) continue;
    if (auto ask = PoolAskOf(key, *rows, names); ask.has_value()) out.push_back(std::move(*ask));
  }
  return out;
}

Status AskTable::CheckBlacklistAdditions(std::span<const std::string> additions) {
  for (const std::string& name : additions) {
    if (name == kAnyResourceName) {
      return Status::Remote(yarn::kInvalidResourceBlacklistRequest,
                            "Cannot add * to the blacklist!");
    }
  }
  return Status::OK();
}

Status AskTable::UpdateBlacklist(std::span<const std::string> additions,
                                 std::span<const std::string> removals) {
  RETURN_NOT_OK(CheckBlacklistAdditions(additions));
  blacklist_.insert(additions.begin(), additions.end());
  for (const std::string& name : removals) blacklist_.erase(name);
  return Status::OK();
}

void AskTable::ResolveBlacklist(const PlaceNames& names, std::vector<pool::NodeId>* nodes,
                                std::vector<pool::RackId>* racks) const {
  for (const std::string& name : blacklist_) {
    names.AddNodesOnHost(name, nodes);
    if (auto rack = names.RackNamed(name); rack.has_value()) racks->push_back(*rack);
  }
}

}  // namespace spindle::rm
