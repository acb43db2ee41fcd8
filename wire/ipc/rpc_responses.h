// Builders for server -> client frames (WIRE.md 2.4, 2.6): the response
// header echoes callId (as uint32), clientId and retryCount and always sets
// serverIpcVersionNum = 9; errors carry exceptionClassName/errorMsg/
// errorDetail and no payload.
#pragma once

#include <google/protobuf/message_lite.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "rpc_header.pb.h"

namespace spindle::ipc {

using RpcErrorCode = hadoop::common::RpcResponseHeaderProto::RpcErrorCodeProto;
using RpcStatus = hadoop::common::RpcResponseHeaderProto::RpcStatusProto;

// What the response header echoes back from the request header.
struct CallEcho {
  int32_t call_id = 0;
  std::string client_id;
  int32_t retry_count = -1;
};

hadoop::common::RpcResponseHeaderProto MakeResponseHeader(const CallEcho& echo, RpcStatus status);

// SUCCESS header + the delimited response message.
std::string EncodeSuccessResponse(const CallEcho& echo, const google::protobuf::MessageLite& body);

// ERROR (connection stays) or FATAL (server closes after it) with no payload.
std::string EncodeErrorResponse(const CallEcho& echo, RpcStatus status,
                                std::string_view exception_class, std::string_view message,
                                RpcErrorCode code);

// FATAL with callId -1, empty clientId, retryCount -1: failures detected
// before any request header was read (bad version, SIMPLE not enabled...).
std::string EncodeFatalSetupResponse(std::string_view exception_class, std::string_view message,
                                     RpcErrorCode code);

// A SASL reply (callId -33, empty clientId, retryCount -1).
std::string EncodeSaslResponse(const hadoop::common::RpcSaslProto& sasl);

}  // namespace spindle::ipc
