#include "wire/ipc/rpc_responses.h"

#include "wire/ipc/frame_codec.h"

namespace spindle::ipc {

hadoop::common::RpcResponseHeaderProto MakeResponseHeader(const CallEcho& echo, RpcStatus status) {
  hadoop::common::RpcResponseHeaderProto header;
  header.set_callid(static_cast<uint32_t>(echo.call_id));
  header.set_status(status);
  header.set_serveripcversionnum(kServerIpcVersion);
  header.set_clientid(echo.client_id);
  header.set_retrycount(echo.retry_count);
  return header;
}

std::string EncodeSuccessResponse(const CallEcho& echo, const google::protobuf::MessageLite& body) {
  const auto header = MakeResponseHeader(echo, hadoop::common::RpcResponseHeaderProto::SUCCESS);
  return EncodeFrame({&header, &body});
}

std::string EncodeErrorResponse(const CallEcho& echo, RpcStatus status,
                                std::string_view exception_class, std::string_view message,
                                RpcErrorCode code) {
  auto header = MakeResponseHeader(echo, status);
  header.set_exceptionclassname(std::string(exception_class));
  header.set_errormsg(std::string(message));
  header.set_errordetail(code);
  return EncodeFrame({&header});
}

std::string EncodeFatalSetupResponse(std::string_view exception_class, std::string_view message,
                                     RpcErrorCode code) {
  const CallEcho echo{kAuthorizationFailedCallId, "", -1};
  return EncodeErrorResponse(echo, hadoop::common::RpcResponseHeaderProto::FATAL, exception_class,
                             message, code);
}

std::string EncodeSaslResponse(const hadoop::common::RpcSaslProto& sasl) {
  const CallEcho echo{kSaslCallId, "", -1};
  const auto header = MakeResponseHeader(echo, hadoop::common::RpcResponseHeaderProto::SUCCESS);
  return EncodeFrame({&header, &sasl});
}

}  // namespace spindle::ipc
