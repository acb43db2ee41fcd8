// ConnectionTable: the connections an HttpServer holds, counted per client
// address, and which of them are waiting for a request, oldest first. It
// decides whether a new connection is taken under the server's two soft
// limits (HttpServerOptions::max_connections and
// max_connections_per_address) and which waiting connections it displaces.
//
// "Waiting" means no request of the connection is in the server's hands: it
// has not sent a whole request (a fresh or idle keep-alive socket, a silent
// one, one trickling a header or holding back the body it announced) or it
// is lingering after its last response. Its age is the order in which
// connections became waiting (accept, or the end of their last response), so
// a socket that has sent nothing since it connected goes before a keep-alive
// one that was just answered, and a request that is merely slow to arrive
// cannot pin its slot. Connections whose request is being handled or
// answered are busy and never displaced (the server marks a response the
// client has not taken for a while as waiting again: http_connection.h).
//
// Pure bookkeeping (no sockets, no clock), so the limits are unit-tested on
// their own.
//
// Thread-safety: none; the server's I/O thread owns it.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace spindle::web {

class ConnectionTable {
 public:
  // `max_per_address` 0 means no per-address limit.
  ConnectionTable(int64_t max_total, int64_t max_per_address);
  ConnectionTable(const ConnectionTable&) = delete;
  ConnectionTable& operator=(const ConnectionTable&) = delete;

  struct Admission {
    bool admitted = false;
    // Connections to close to make room, already removed from the table
    // (empty when the new one is refused: nothing is displaced in vain).
    std::vector<uint64_t> displaced;
  };

  // Whether a waiting connection is in fact not idle (the server sees a
  // request waiting to be read on it): passed over when choosing whom to
  // displace.
  using NotIdle = std::function<bool(uint64_t id)>;

  // A new connection `id` from `address`. At the address's limit its own
  // oldest waiting connection is displaced, then at the total limit the
  // oldest waiting one of any address, passing over those `not_idle` names;
  // if a limit is reached with no waiting connection to displace, the new
  // one is refused. An admitted connection is registered as waiting (the
  // newest).
  Admission Admit(uint64_t id, const std::string& address, const NotIdle& not_idle = nullptr);
  // `id` waits for a request again (after a response): it becomes the
  // newest waiting connection. No-op for an id not in the table.
  void SetWaiting(uint64_t id);
  // `id` is busy (see above). Idempotent; no-op for an id not in the table.
  void SetBusy(uint64_t id);
  // `id` is closed. No-op for an id not in the table.
  void Remove(uint64_t id);
  // Removes and returns the connection that has waited longest, if any (to
  // free a descriptor when accept runs out of them).
  std::optional<uint64_t> TakeOldestWaiting();

  int64_t size() const { return static_cast<int64_t>(entries_.size()); }
  int64_t waiting() const { return static_cast<int64_t>(waiting_.size()); }
  int64_t OpenFrom(const std::string& address) const;

 private:
  using Order = std::list<uint64_t>;
  struct Entry {
    std::string address;
    bool waiting = false;
    Order::iterator in_all;      // in waiting_, when waiting
    Order::iterator in_address;  // in its Address::waiting, when waiting
  };
  struct Address {
    int64_t open = 0;
    Order waiting;  // oldest first
  };

  void Unwait(Entry& entry);

  const int64_t max_total_;
  const int64_t max_per_address_;
  std::unordered_map<uint64_t, Entry> entries_;
  std::unordered_map<std::string, Address> addresses_;
  Order waiting_;  // oldest first, every address
};

}  // namespace spindle::web
