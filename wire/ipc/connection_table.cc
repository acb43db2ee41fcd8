#include "wire/ipc/connection_table.h"

namespace spindle::ipc {

Admission ConnectionTable::Admit(const std::string& address) {
  MutexLock lock(&mu_);
  // Hadoop's isFull(): maxConnections > 0 && size() >= maxConnections.
  if (limits_.max_connections > 0 && open_ >= limits_.max_connections) {
    return Admission::kServerFull;
  }
  int64_t& from_address = per_address_[address];
  if (limits_.max_per_address > 0 && from_address >= limits_.max_per_address) {
    if (from_address == 0) per_address_.erase(address);
    return Admission::kAddressFull;
  }
  ++from_address;
  ++open_;
  return Admission::kAdmitted;
}

void ConnectionTable::Add(const std::shared_ptr<ServerConnection>& connection) {
  MutexLock lock(&mu_);
  connections_.emplace(connection.get(), connection);
}

void ConnectionTable::Remove(const std::string& address, const ServerConnection* connection) {
  MutexLock lock(&mu_);
  if (connections_.erase(connection) == 0) return;  // already removed
  --open_;
  auto it = per_address_.find(address);
  if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
}

std::vector<std::shared_ptr<ServerConnection>> ConnectionTable::LiveConnections() const {
  std::vector<std::shared_ptr<ServerConnection>> live;
  MutexLock lock(&mu_);
  live.reserve(connections_.size());
  for (const auto& [key, weak] : connections_) {
    if (auto connection = weak.lock()) live.push_back(std::move(connection));
  }
  return live;
}

int64_t ConnectionTable::open() const {
  MutexLock lock(&mu_);
  return open_;
}

int64_t ConnectionTable::open_from(const std::string& address) const {
  MutexLock lock(&mu_);
  auto it = per_address_.find(address);
  return it == per_address_.end() ? 0 : it->second;
}

}  // namespace spindle::ipc
