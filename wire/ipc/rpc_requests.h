// Builders for client -> server frames (WIRE.md 2.2-2.5): calls, the
// connection context, SASL messages and pings, with the header fields a Java
// client sets (rpcKind=RPC_PROTOCOL_BUFFER, rpcOp=RPC_FINAL_PACKET, retryCount
// -1 on context/SASL/ping frames, empty clientId on SASL frames).
#pragma once

#include <google/protobuf/message_lite.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "rpc_header.pb.h"

namespace spindle::ipc {

hadoop::common::RpcRequestHeaderProto MakeRequestHeader(int32_t call_id, std::string_view client_id,
                                                        int32_t retry_count);

// A protobuf RPC: header, RequestHeaderProto (clientProtocolVersion 1), request.
std::string EncodeCallFrame(int32_t call_id, std::string_view client_id, int32_t retry_count,
                            std::string_view protocol, std::string_view method,
                            const google::protobuf::MessageLite& request);

// The connection context. `user` is the SIMPLE effectiveUser; with
// `token_auth` userInfo is sent present but empty, as Java does.
std::string EncodeConnectionContextFrame(std::string_view client_id, std::string_view protocol,
                                         std::string_view user, bool token_auth);

std::string EncodeSaslFrame(const hadoop::common::RpcSaslProto& sasl);

std::string EncodePingFrame(std::string_view client_id);

}  // namespace spindle::ipc
