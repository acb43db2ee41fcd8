#include "wire/ipc/rpc_requests.h"

#include "ipc_connection_context.pb.h"
#include "protobuf_rpc_engine.pb.h"
#include "wire/ipc/frame_codec.h"

namespace spindle::ipc {

hadoop::common::RpcRequestHeaderProto MakeRequestHeader(int32_t call_id, std::string_view client_id,
                                                        int32_t retry_count) {
  hadoop::common::RpcRequestHeaderProto header;
  header.set_rpckind(hadoop::common::RPC_PROTOCOL_BUFFER);
  header.set_rpcop(hadoop::common::RpcRequestHeaderProto::RPC_FINAL_PACKET);
  header.set_callid(call_id);
  header.set_clientid(std::string(client_id));
  header.set_retrycount(retry_count);
  return header;
}

std::string EncodeCallFrame(int32_t call_id, std::string_view client_id, int32_t retry_count,
                            std::string_view protocol, std::string_view method,
                            const google::protobuf::MessageLite& request) {
  const auto header = MakeRequestHeader(call_id, client_id, retry_count);
  hadoop::common::RequestHeaderProto request_header;
  request_header.set_methodname(std::string(method));
  request_header.set_declaringclassprotocolname(std::string(protocol));
  request_header.set_clientprotocolversion(1);
  return EncodeFrame({&header, &request_header, &request});
}

std::string EncodeConnectionContextFrame(std::string_view client_id, std::string_view protocol,
                                         std::string_view user, bool token_auth) {
  const auto header = MakeRequestHeader(kConnectionContextCallId, client_id, -1);
  hadoop::common::IpcConnectionContextProto context;
  auto* info = context.mutable_userinfo();
  if (!token_auth) info->set_effectiveuser(std::string(user));
  context.set_protocol(std::string(protocol));
  return EncodeFrame({&header, &context});
}

std::string EncodeSaslFrame(const hadoop::common::RpcSaslProto& sasl) {
  const auto header = MakeRequestHeader(kSaslCallId, "", -1);
  return EncodeFrame({&header, &sasl});
}

std::string EncodePingFrame(std::string_view client_id) {
  const auto header = MakeRequestHeader(kPingCallId, client_id, -1);
  return EncodeFrame({&header});
}

}  // namespace spindle::ipc
