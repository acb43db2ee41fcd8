// ServerConnection: one accepted TCP connection of an RpcServer. It owns the
// socket and a ServerSession, reads on its strand, hands calls to the worker
// pool, and writes every queued frame with one gathered write. A slow reader
// or writer only ever stalls its own connection.
//
// Memory: an idle connection holds no read buffer (socket_reader.h), and
// its session's frame buffer is released once drained (frame_decoder.h).
//
// Thread contract: all members are touched only on strand_, except
// SendResponse() and Close(), which post onto it and are safe from any thread.
#pragma once

#include <atomic>
#include <boost/asio.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "am_protocol/ipc/connection_table.h"
#include "am_protocol/ipc/inbound_call.h"
#include "am_protocol/ipc/rpc_activity.h"
#include "am_protocol/ipc/rpc_service.h"
#include "am_protocol/ipc/server_session.h"

namespace spindle::ipc {

// What connections share with their server; outlives every connection.
struct ServerConnectionEnv {
  std::string server_name;
  ServerSessionOptions session_options;
  std::shared_ptr<const ServiceRegistry> services;
  boost::asio::thread_pool* workers = nullptr;
  std::chrono::milliseconds idle_timeout{20000};
  // Calls queued or running on the workers, across the server, and the cap
  // past which new calls are refused with RetriableException.
  std::atomic<int64_t> queued_calls{0};
  int64_t max_queued_calls = 0;
  std::atomic<int64_t> calls_served{0};
  // RpcActivityForPort<port> figures (rpc_activity.h).
  RpcActivityCounters activity;
  // Where a connection gives back its slot when it closes; null: nowhere.
  ConnectionTable* table = nullptr;
};

class ServerConnection : public std::enable_shared_from_this<ServerConnection>,
                         public ResponseChannel,
                         private ServerSessionSink {
 public:
  // `peer_ip` is the address the connection's slot in env->table is counted
  // under (given back when it closes).
  ServerConnection(boost::asio::ip::tcp::socket socket, ServerConnectionEnv* env,
                   std::string peer_ip);
  ~ServerConnection() override;

  void Start();
  // Closes the socket on the connection's strand (pending output is
  // dropped), then runs `closed` there if given. Any thread.
  void Close(std::function<void()> closed = nullptr);
  void SendResponse(std::string frame) override;

 private:
  void SendBytes(std::string bytes) override;
  void OnCall(InboundRequest request) override;
  void OnAuthEvent(SessionAuthEvent event) override;

  void DoRead();
  void OnReadable(const boost::system::error_code& ec);
  void StartWrite();
  void OnWrite(const boost::system::error_code& ec);
  void ArmIdleTimer();
  void OnIdleTimer(const boost::system::error_code& ec);
  void CloseNow(const std::string& why);
  // Gives back the connection's slot in env_->table (once).
  void LeaveTable();
  std::string LogPrefix() const;

  ServerConnectionEnv* const env_;
  boost::asio::strand<boost::asio::any_io_executor> strand_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer idle_timer_;
  std::string remote_;
  const std::string peer_ip_;
  ServerSession session_;
  std::shared_ptr<const ConnectionIdentity> identity_;
  std::vector<std::string> out_queue_;
  std::vector<std::string> writing_;
  bool closed_ = false;
  // Counted in env_->activity.open_connections until closed.
  bool counted_open_ = true;
  bool close_after_flush_ = false;
  bool active_since_timer_ = false;
  std::atomic<int> calls_in_progress_{0};
};

}  // namespace spindle::ipc
