#include "rm/core/stored_ask_rows.h"

#include <string_view>
#include <vector>

namespace spindle::rm {

namespace {

constexpr std::string_view kAskPrefix = "ask/";
constexpr std::string_view kGrantPrefix = "grant/";

// "ask/<prio>/<id>/<dims>/": every row of one key, and only of that key
// (each field ends at a '/').
std::string KeyPrefix(const pool::AskKey& key) {
  std::string out(kAskPrefix);
  out += std::to_string(key.priority) + "/" + std::to_string(key.allocation_request_id) + "/";
  for (int i = 0; i < pool::kMaxResourceTypes; ++i) {
    if (i > 0) out += ",";
    out += std::to_string(key.capability.Get(i));
  }
  out += "/";
  return out;
}

bool StartsWith(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string RowBytes(const pool::AskKey& key, const std::string& name, const AskTable::Row& row) {
  AttemptAsksRecord record;
  record.asks.push_back(ResourceRequest{key.priority, key.allocation_request_id, name,
                                        key.capability, row.count, row.relax_locality,
                                        std::nullopt});
  return EncodeAttemptAsks(record);
}

}  // namespace

std::string StoredAskRows::AskRowKey(const pool::AskKey& key, const std::string& resource_name) {
  return KeyPrefix(key) + resource_name;
}

std::string StoredAskRows::GrantRowKey(const ContainerId& id) {
  return std::string(kGrantPrefix) + id.ToString();
}

Result<AttemptAsksRecord> StoredAskRows::Decode(const std::map<std::string, std::string>& rows) {
  AttemptAsksRecord record;
  for (const auto& [key, bytes] : rows) {
    if (key == kTableRow) continue;
    if (!StartsWith(key, kAskPrefix) && !StartsWith(key, kGrantPrefix)) {
      return Status::Corruption("stored ask row '" + key + "' is of no known kind");
    }
    auto row = DecodeAttemptAsks(bytes);
    if (!row.ok()) return row.status().WithContext("stored ask row '" + key + "'");
    for (auto& ask : row->asks) record.asks.push_back(std::move(ask));
    for (auto& granted : row->granted) record.granted.push_back(granted);
  }
  return record;
}

void StoredAskRows::Seed(const std::set<std::string>& stored_keys) {
  for (const std::string& key : stored_keys) stored_.emplace(key, "");
}

void StoredAskRows::Put(const std::string& row, std::string bytes, AttemptRowChanges* changes) {
  auto [it, inserted] = stored_.try_emplace(row);
  if (!inserted && it->second == bytes) return;
  it->second = bytes;
  changes->put.emplace_back(row, std::move(bytes));
}

void StoredAskRows::Erase(std::map<std::string, std::string>::iterator it,
                          AttemptRowChanges* changes) {
  changes->erase.push_back(it->first);
  stored_.erase(it);
}

void StoredAskRows::EnsureTableRow(AttemptRowChanges* changes) {
  if (stored_.count(kTableRow) == 0) Put(kTableRow, "1", changes);
}

void StoredAskRows::SyncKeys(const AskTable& table, std::span<const pool::AskKey> keys,
                             AttemptRowChanges* changes) {
  EnsureTableRow(changes);
  for (const pool::AskKey& key : keys) {
    const std::string prefix = KeyPrefix(key);
    const AskTable::Rows* rows = table.RowsOf(key);
    // Stored rows of the key the table no longer has.
    for (auto it = stored_.lower_bound(prefix);
         it != stored_.end() && StartsWith(it->first, prefix);) {
      const std::string name = it->first.substr(prefix.size());
      auto next = std::next(it);
      if (rows == nullptr || rows->count(name) == 0) Erase(it, changes);
      it = next;
    }
    if (rows == nullptr) continue;
    for (const auto& [name, row] : *rows) Put(prefix + name, RowBytes(key, name, row), changes);
  }
}

void StoredAskRows::SyncAll(const AskTable& table, AttemptRowChanges* changes) {
  std::vector<pool::AskKey> keys;
  std::set<std::string> prefixes;
  for (const ResourceRequest& row : table.AllRows()) {
    const pool::AskKey key = table.KeyOf(row);
    if (keys.empty() || !(keys.back() == key)) {
      keys.push_back(key);
      prefixes.insert(KeyPrefix(key));
    }
  }
  SyncKeys(table, keys, changes);
  // Ask rows of keys the table does not have at all. A row key's prefix is
  // its first four '/'-ended fields (a rack name may hold more '/').
  for (auto it = stored_.lower_bound(std::string(kAskPrefix));
       it != stored_.end() && StartsWith(it->first, kAskPrefix);) {
    auto next = std::next(it);
    size_t end = 0;
    for (int field = 0; field < 4 && end != std::string::npos; ++field) {
      end = it->first.find('/', end == 0 ? 0 : end + 1);
    }
    if (end == std::string::npos || prefixes.count(it->first.substr(0, end + 1)) == 0) {
      Erase(it, changes);
    }
    it = next;
  }
}

void StoredAskRows::PutGrantRow(const std::string& row, AttemptRowChanges* changes) {
  AttemptAsksRecord record;
  record.granted = grant_rows_.at(row);
  Put(row, EncodeAttemptAsks(record), changes);
}

void StoredAskRows::Granted(std::span<const GrantedContainer> containers,
                            AttemptRowChanges* changes) {
  EnsureTableRow(changes);
  std::string row;
  for (const GrantedContainer& container : containers) {
    if (row_of_.count(container.id) != 0) continue;
    if (row.empty() || grant_rows_[row].size() >= kGrantsPerRow) {
      if (!row.empty()) PutGrantRow(row, changes);
      row = GrantRowKey(container.id);
    }
    grant_rows_[row].push_back(container);
    row_of_.emplace(container.id, row);
  }
  if (!row.empty()) PutGrantRow(row, changes);
}

void StoredAskRows::Completed(std::span<const ContainerId> ids, AttemptRowChanges* changes) {
  std::set<std::string> touched;
  for (const ContainerId& id : ids) {
    auto held = row_of_.find(id);
    if (held == row_of_.end()) continue;
    std::vector<GrantedContainer>& members = grant_rows_.at(held->second);
    std::erase_if(members, [&id](const GrantedContainer& c) { return c.id == id; });
    touched.insert(held->second);
    row_of_.erase(held);
  }
  for (const std::string& row : touched) {
    auto members = grant_rows_.find(row);
    if (!members->second.empty()) {
      PutGrantRow(row, changes);
      continue;
    }
    grant_rows_.erase(members);
    if (auto it = stored_.find(row); it != stored_.end()) Erase(it, changes);
  }
}

void StoredAskRows::RegrantAll(std::span<const GrantedContainer> live, AttemptRowChanges* changes) {
  std::vector<std::string> before;
  for (auto it = stored_.lower_bound(std::string(kGrantPrefix));
       it != stored_.end() && StartsWith(it->first, kGrantPrefix); ++it) {
    before.push_back(it->first);
  }
  grant_rows_.clear();
  row_of_.clear();
  Granted(live, changes);
  // Rows put again above were replaced in place; the rest go.
  for (const std::string& row : before) {
    if (grant_rows_.count(row) == 0) Erase(stored_.find(row), changes);
  }
}

void StoredAskRows::EraseAll(AttemptRowChanges* changes) {
  for (auto it = stored_.begin(); it != stored_.end();) Erase(it++, changes);
  grant_rows_.clear();
  row_of_.clear();
}

}  // namespace spindle::rm
