#include "wire/ipc/inbound_call.h"

#include <glog/logging.h>

#include "wire/ipc/error_mapping.h"

namespace spindle::ipc {

InboundCall::InboundCall(std::shared_ptr<ResponseChannel> channel,
                         std::shared_ptr<const ConnectionIdentity> identity, CallEcho echo,
                         std::string method)
    : channel_(std::move(channel)),
      identity_(std::move(identity)),
      echo_(std::move(echo)),
      method_(std::move(method)) {}

InboundCall::InboundCall(InboundCall&& other) noexcept
    : channel_(std::move(other.channel_)),
      identity_(std::move(other.identity_)),
      echo_(std::move(other.echo_)),
      method_(std::move(other.method_)),
      responded_(other.responded_) {
  other.responded_ = true;  // the moved-from shell owes no answer
}

InboundCall::~InboundCall() {
  if (!responded_ && channel_ != nullptr) {
    LOG(WARNING) << "call " << echo_.call_id << " (" << method_ << ") dropped without an answer";
    RespondError(java::kRpcServerException, "the server dropped the call without an answer",
                 hadoop::common::RpcResponseHeaderProto::ERROR_RPC_SERVER);
  }
}

void InboundCall::RespondSuccess(const google::protobuf::MessageLite& response) {
  Send(EncodeSuccessResponse(echo_, response));
}

void InboundCall::RespondFailure(const Status& status) {
  DCHECK(!status.ok());
  const RemoteError error = ToRemoteError(status);
  RespondError(error.exception_class, error.message, error.code);
}

void InboundCall::RespondError(std::string_view exception_class, std::string_view message,
                               RpcErrorCode code) {
  Send(EncodeErrorResponse(echo_, hadoop::common::RpcResponseHeaderProto::ERROR, exception_class,
                           message, code));
}

void InboundCall::Send(std::string frame) {
  CHECK(!responded_) << "call " << echo_.call_id << " (" << method_ << ") answered twice";
  responded_ = true;
  channel_->SendResponse(std::move(frame));
}

}  // namespace spindle::ipc
