// ThriftConnection: the member side of the cell-state service over the wire
// (cell_state.thrift): a TSocket to the RM's service, TFramedTransport,
// TCompactProtocol (README.md says why). It connects lazily and again after
// a transport error; every Thrift exception is caught here and returned as
// a Status (Unavailable for the transport, the service's errors as
// thrift_codec's DecodeError maps them), so nothing above it throws.
//
// In memory (ThriftConnectionOptions::in_memory): no socket; each framed
// request is handed to the service's Thrift processor (thrift_handler.h) in
// the caller's thread and its framed answer read back. The client, the
// codec, the protocol and the bytes are the wire's; only the network is
// left out (the wind tunnel's virtual clock models its round trip).
//
// Counted (stats()): round trips, and the bytes written to and read from
// the transport under the framing (each frame's 4-byte length included).
//
// Thread-safety: all methods are thread-safe (one call at a time on the
// socket).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "base/mutex.h"
#include "scheduler_pool/remote/cell_service_connection.h"

namespace spindle::pool::remote {

class CellStateService;

struct ThriftConnectionOptions {
  std::string host = "127.0.0.1";
  int port = 0;
  // Connect, send and receive timeout. Default: 2000 ms.
  Duration timeout = std::chrono::milliseconds(2000);
  // Set: no socket, the calls go to this service's Thrift processor in
  // memory (host, port and timeout unused); it outlives the connection.
  // Default: null.
  CellStateService* in_memory = nullptr;
};

// What a connection carried, since it was made.
struct WireStats {
  int64_t calls = 0;  // round trips (requests sent, answered or not)
  int64_t bytes_sent = 0;
  int64_t bytes_received = 0;
};

class ThriftConnection final : public CellServiceConnection {
 public:
  explicit ThriftConnection(const ThriftConnectionOptions& options);
  ~ThriftConnection() override;

  Result<JoinInfo> Join(const std::string& name) override EXCLUDES(mu_);
  Status Renew(const MemberToken& token, const MemberReport& report) override EXCLUDES(mu_);
  Status Leave(const MemberToken& token) override EXCLUDES(mu_);
  Status Sync(const MemberToken& token, const std::vector<PartitionWant>& wants,
              std::vector<PartitionSlice>* slices, CellFigures* figures) override EXCLUDES(mu_);
  Status Commit(const MemberToken& token, uint64_t seq, const Transaction& txn,
                CommitResult* result) override EXCLUDES(mu_);
  Result<Assignments> AssignmentsSince(const MemberToken& token, uint64_t since,
                                       uint64_t queues_since) override EXCLUDES(mu_);

  // Closes the socket (the next call connects again).
  void Close() EXCLUDES(mu_);
  WireStats stats() const;

 private:
  struct Wire;
  class CountingTransport;
  class LoopTransport;
  // Runs `call` on a connected client; maps exceptions to a Status.
  template <typename Call>
  Status Run(const char* what, Call&& call) REQUIRES(mu_);

  const ThriftConnectionOptions options_;
  Mutex mu_;
  std::unique_ptr<Wire> wire_ GUARDED_BY(mu_);
  std::atomic<int64_t> calls_{0};
  std::atomic<int64_t> bytes_sent_{0};
  std::atomic<int64_t> bytes_received_{0};
};

}  // namespace spindle::pool::remote
