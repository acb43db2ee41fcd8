// InboundCall: one call received by the server, to be answered exactly once
// (Kudu's RpcContext). Handlers get it by value; answering hands the encoded
// frame back to the connection, which writes it from its own strand. A call
// dropped without an answer is answered with an RpcServerException, so the
// client never waits for a reply that cannot come.
//
// Thread contract: an InboundCall may be answered from any thread, once.
#pragma once

#include <google/protobuf/message_lite.h>

#include <memory>
#include <string>

#include "base/status.h"
#include "wire/ipc/connection_identity.h"
#include "wire/ipc/rpc_responses.h"

namespace spindle::ipc {

// Where answers go: implemented by the server connection.
class ResponseChannel {
 public:
  virtual ~ResponseChannel() = default;
  // One whole encoded response frame. Safe to call from any thread, also
  // after the connection closed (the frame is then dropped).
  virtual void SendResponse(std::string frame) = 0;
};

class InboundCall {
 public:
  InboundCall(std::shared_ptr<ResponseChannel> channel,
              std::shared_ptr<const ConnectionIdentity> identity, CallEcho echo,
              std::string method);
  InboundCall(InboundCall&& other) noexcept;
  InboundCall& operator=(InboundCall&&) = delete;
  InboundCall(const InboundCall&) = delete;
  ~InboundCall();

  const ConnectionIdentity& identity() const { return *identity_; }
  const std::string& method() const { return method_; }
  int32_t call_id() const { return echo_.call_id; }

  void RespondSuccess(const google::protobuf::MessageLite& response);
  // Status -> exceptionClassName/errorMsg (error_mapping), status ERROR.
  void RespondFailure(const Status& status);
  // An ERROR with an explicit class and code (no such method/protocol...).
  void RespondError(std::string_view exception_class, std::string_view message, RpcErrorCode code);

 private:
  void Send(std::string frame);

  std::shared_ptr<ResponseChannel> channel_;
  std::shared_ptr<const ConnectionIdentity> identity_;
  CallEcho echo_;
  std::string method_;
  bool responded_ = false;
};

}  // namespace spindle::ipc
