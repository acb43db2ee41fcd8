// ConnectionTable: the open connections of one RpcServer, counted in total
// and per client address, and the limits that decide whether a new one is
// taken.
//
// At a limit the new connection is closed at accept, before any byte is read
// or written: Hadoop 2.7+ does this for ipc.server.max.connections
// (Server.Listener.doAccept closes the channel when
// ConnectionManager.register returns null because isFull(), and counts it in
// numDroppedConnections; 2.6 has no such limit). Hadoop has no per-address
// limit; Spindle's max_per_address behaves the same way at its limit.
//
// Thread contract: every method is thread-safe (the acceptor and every
// connection's strand call in).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/mutex.h"

namespace spindle::ipc {

class ServerConnection;

struct ConnectionLimits {
  // ipc.server.max.connections: open connections the server takes; 0 =
  // unlimited. Default: 0 (Hadoop 2.7 and 3.3).
  int64_t max_connections = 0;
  // spindle.ipc.server.max-connections-per-address: open connections one
  // client IP address may hold; 0 = unlimited. Default: 0 (see
  // rm/config/key_catalog.cc for why it is off).
  int64_t max_per_address = 0;
};

enum class Admission {
  kAdmitted,
  kServerFull,   // max_connections reached
  kAddressFull,  // max_per_address reached for this address
};

class ConnectionTable {
 public:
  explicit ConnectionTable(ConnectionLimits limits) : limits_(limits) {}
  ConnectionTable(const ConnectionTable&) = delete;
  ConnectionTable& operator=(const ConnectionTable&) = delete;

  // Takes a slot for a connection from `address` (an IP address, no port),
  // unless a limit is reached. A taken slot is given back by Remove().
  Admission Admit(const std::string& address);
  // Records the connection that took a slot, for LiveConnections(). Every
  // admitted connection must be added: Remove() gives back only the slots of
  // connections it finds.
  void Add(const std::shared_ptr<ServerConnection>& connection);
  // Gives back the slot and forgets the connection. Idempotent per connection.
  void Remove(const std::string& address, const ServerConnection* connection);

  // The connections still open (for Stop()).
  std::vector<std::shared_ptr<ServerConnection>> LiveConnections() const;
  int64_t open() const;
  int64_t open_from(const std::string& address) const;
  const ConnectionLimits& limits() const { return limits_; }

 private:
  const ConnectionLimits limits_;
  mutable Mutex mu_;
  int64_t open_ GUARDED_BY(mu_) = 0;
  // Open connections per address; an address leaves the map at zero.
  std::unordered_map<std::string, int64_t> per_address_ GUARDED_BY(mu_);
  // Weak, so that a closed connection's memory goes as soon as its last
  // handler does, not when the table is next swept.
  std::unordered_map<const ServerConnection*, std::weak_ptr<ServerConnection>> connections_
      GUARDED_BY(mu_);
};

}  // namespace spindle::ipc
