// ClientConnection: one TCP connection of an RpcClient to one server, for one
// (protocol, user, token). Connects, negotiates (ClientNegotiation), sends the
// connection context, then pipelines calls and matches answers by call id.
//
// Thread contract: every member is touched only on strand_; Enqueue() and
// Shutdown() post onto it and are safe from any thread.
#pragma once

#include <google/protobuf/message_lite.h>

#include <boost/asio.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wire/ipc/client_negotiation.h"
#include "wire/ipc/frame_decoder.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/sasl_wrap_framing.h"

namespace spindle::ipc {

class ClientConnection : public std::enable_shared_from_this<ClientConnection> {
 public:
  struct PendingCall {
    int32_t call_id = 0;
    std::string frame;
    google::protobuf::MessageLite* response = nullptr;
    RpcClient::Callback done;
    std::chrono::steady_clock::time_point deadline;  // max() = none
  };

  ClientConnection(RpcClient* owner, boost::asio::io_context& io, ConnectionSpec spec,
                   std::string key);

  // Queues a call; starts connecting on first use.
  void Enqueue(PendingCall call);
  // Fails everything outstanding with `why` and closes.
  void Shutdown(Status why);

 private:
  enum class State { kIdle, kConnecting, kNegotiating, kReady, kClosed };

  void Connect();
  void OnResolved(const boost::system::error_code& ec,
                  const boost::asio::ip::tcp::resolver::results_type& results);
  void OnConnected(const boost::system::error_code& ec);
  void BecomeReady(bool token_auth);
  void Send(std::string bytes);
  void StartWrite();
  void DoRead();
  void OnReadable(const boost::system::error_code& ec);
  Status HandleFrame(std::string_view frame);
  // A frame on a connection with a security layer: must be a WRAP, whose
  // frames are handled in turn (SaslRpcClient.WrappedInputStream).
  Status HandleWrappedFrame(std::string_view frame);
  void ArmTimer();
  void OnTimer(const boost::system::error_code& ec);
  void Fail(const Status& why);

  RpcClient* const owner_;
  const RpcClientOptions& options_;
  const ConnectionSpec spec_;
  const std::string key_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::ip::tcp::resolver resolver_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer timer_;
  State state_ = State::kIdle;
  std::chrono::steady_clock::time_point connect_deadline_;
  std::chrono::steady_clock::time_point last_activity_;
  std::optional<ClientNegotiation> negotiation_;
  FrameDecoder decoder_;
  std::vector<PendingCall> waiting_;          // queued until kReady
  std::map<int32_t, PendingCall> in_flight_;  // sent, awaiting an answer
  std::vector<std::string> out_queue_;
  std::vector<std::string> writing_;
  // Set when SASL settled on auth-int or auth-conf: Send() wraps with it,
  // and every frame read is unwrapped through wrapped_reader_.
  std::unique_ptr<SaslSecurityLayer> security_layer_;
  std::unique_ptr<WrappedFrameReader> wrapped_reader_;
};

}  // namespace spindle::ipc
