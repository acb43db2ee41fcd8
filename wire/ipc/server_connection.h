// ServerConnection: one accepted TCP connection of an RpcServer. It owns the
// socket and a ServerSession, reads on its strand, hands calls (and the
// connection authorizer's check of its context) to the worker pool, and
// writes queued frames in order. A slow reader or writer only ever stalls
// its own connection.
//
// Writing: the handler thread that answers a call writes the answer itself
// with a non-blocking send when nothing else is being sent on the connection
// (no hand-off back to the I/O thread, whose wake-up and context switch cost
// as much as the send). Frames that arrive meanwhile queue and go out with
// the next send, in order; what the socket will not take now is handed to
// the strand, which waits for the socket to drain (async_write). Exactly one
// thread sends at a time: the one that set sending_.
//
// Memory: an idle connection holds no read buffer (socket_reader.h), and
// its session's frame buffer is released once drained (frame_decoder.h).
//
// Thread contract: members are touched only on strand_, except those
// GUARDED_BY(write_mu_), `writing_`/`written_` (only by the thread that set
// sending_), and SendResponse() and Close(), which are safe from any thread.
#pragma once

#include <atomic>
#include <boost/asio.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "wire/ipc/connection_table.h"
#include "wire/ipc/inbound_call.h"
#include "wire/ipc/rpc_activity.h"
#include "wire/ipc/rpc_service.h"
#include "wire/ipc/server_session.h"

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
  void OnSecurityLayer(std::shared_ptr<SaslSecurityLayer> layer) override;
  // On a worker (group look-ups and reverse DNS block), its outcome back
  // on the strand: one connection's slow authorization holds up neither
  // the I/O thread nor the other connections on it.
  bool AuthorizeOffThread(std::function<Status()> authorize) override;
  void OnAuthorized(const Status& authorized);
  // The session asked to close: close once what it sent is flushed.
  void CloseAfterFlush();
  // Queues bytes for the peer, wrapped first once SASL negotiated
  // integrity or privacy: wrapping here, under write_mu_, keeps the layer's
  // message order the order on the wire. False if the layer failed (the
  // connection is then closing).
  bool QueueLocked(std::string bytes) REQUIRES(write_mu_);

  void DoRead();
  void OnReadable(const boost::system::error_code& ec);
  // With sending_ just set by this thread: moves the queue to writing_ and
  // sends it without blocking until the queue stays empty (then clears
  // sending_) or the socket is full (then the strand takes over).
  void SendOnThisThread() REQUIRES(write_mu_);
  // Sends writing_ from written_ on without blocking; false once the socket
  // takes no more (what is left stays in writing_). Errors in *ec.
  bool SendWithoutBlocking(boost::system::error_code* ec);
  // On the strand, owning sending_: async_write of what is left in writing_.
  void StartAsyncWrite();
  void OnWrite(const boost::system::error_code& ec);
  // sending_ is being let go: what the strand must do now that nothing is
  // being sent (close after a flush, or a close deferred for the sender).
  void AfterSendingLocked() REQUIRES(write_mu_);
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
  // The socket's descriptor, for handler threads' sends (never closed while
  // one sends: see close_deferred_).
  const int fd_;
  ServerSession session_;
  std::shared_ptr<const ConnectionIdentity> identity_;
  bool closed_ = false;
  // Counted in env_->activity.open_connections until closed.
  bool counted_open_ = true;
  std::atomic<bool> active_since_timer_{false};
  std::atomic<int> calls_in_progress_{0};

  Mutex write_mu_;
  // Set once SASL negotiated auth-int or auth-conf: what every frame sent
  // from then on is wrapped with.
  std::shared_ptr<SaslSecurityLayer> wrap_layer_ GUARDED_BY(write_mu_);
  // Frames waiting for the sender, in order.
  std::vector<std::string> out_queue_ GUARDED_BY(write_mu_);
  // A thread (a handler's, or the strand's async_write) owns the send side.
  bool sending_ GUARDED_BY(write_mu_) = false;
  // A handler thread is inside a send on fd_ right now.
  bool handler_sending_ GUARDED_BY(write_mu_) = false;
  // CloseNow ran: nothing more is queued or sent.
  bool write_closed_ GUARDED_BY(write_mu_) = false;
  // CloseNow ran while a handler thread was sending: the socket was shut
  // down but not closed (its descriptor must not be reused under that
  // send); the sender posts the close to the strand when it is done.
  bool close_deferred_ GUARDED_BY(write_mu_) = false;
  // The session asked to close once what is queued has been sent.
  bool close_after_flush_ GUARDED_BY(write_mu_) = false;
  // Frames being sent, and how much of the first has gone: owned by the
  // thread that set sending_.
  std::vector<std::string> writing_;
  size_t written_ = 0;
};

}  // namespace spindle::ipc
