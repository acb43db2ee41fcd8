#include "web/http/connection_table.h"

namespace spindle::web {

ConnectionTable::ConnectionTable(int64_t max_total, int64_t max_per_address)
    : max_total_(max_total), max_per_address_(max_per_address) {}

ConnectionTable::Admission ConnectionTable::Admit(uint64_t id, const std::string& address,
                                                  const NotIdle& not_idle) {
  Admission admission;
  const auto idle = [&not_idle](uint64_t candidate) {
    return not_idle == nullptr || !not_idle(candidate);
  };
  std::optional<uint64_t> own;
  const auto at = addresses_.find(address);
  if (max_per_address_ > 0 && at != addresses_.end() && at->second.open >= max_per_address_) {
    for (uint64_t candidate : at->second.waiting) {
      if (idle(candidate)) {
        own = candidate;
        break;
      }
    }
    if (!own.has_value()) return admission;
  }
  std::optional<uint64_t> any;
  if (size() - (own.has_value() ? 1 : 0) >= max_total_) {
    for (uint64_t candidate : waiting_) {
      if (candidate != own && idle(candidate)) {
        any = candidate;
        break;
      }
    }
    if (!any.has_value()) return admission;
  }
  for (const auto& victim : {own, any}) {
    if (!victim.has_value()) continue;
    Remove(*victim);
    admission.displaced.push_back(*victim);
  }
  Entry& entry = entries_[id];
  entry.address = address;
  ++addresses_[address].open;
  SetWaiting(id);
  admission.admitted = true;
  return admission;
}

void ConnectionTable::Unwait(Entry& entry) {
  if (!entry.waiting) return;
  waiting_.erase(entry.in_all);
  addresses_[entry.address].waiting.erase(entry.in_address);
  entry.waiting = false;
}

void ConnectionTable::SetWaiting(uint64_t id) {
  const auto it = entries_.find(id);
  if (it == entries_.end()) return;
  Entry& entry = it->second;
  Unwait(entry);
  Order& own = addresses_[entry.address].waiting;
  entry.in_all = waiting_.insert(waiting_.end(), id);
  entry.in_address = own.insert(own.end(), id);
  entry.waiting = true;
}

void ConnectionTable::SetBusy(uint64_t id) {
  const auto it = entries_.find(id);
  if (it != entries_.end()) Unwait(it->second);
}

void ConnectionTable::Remove(uint64_t id) {
  const auto it = entries_.find(id);
  if (it == entries_.end()) return;
  Unwait(it->second);
  const auto at = addresses_.find(it->second.address);
  if (--at->second.open == 0) addresses_.erase(at);
  entries_.erase(it);
}

std::optional<uint64_t> ConnectionTable::TakeOldestWaiting() {
  if (waiting_.empty()) return std::nullopt;
  const uint64_t id = waiting_.front();
  Remove(id);
  return id;
}

int64_t ConnectionTable::OpenFrom(const std::string& address) const {
  const auto at = addresses_.find(address);
  return at == addresses_.end() ? 0 : at->second.open;
}

}  // namespace spindle::web
