#include "wire/ipc/sasl_wrap_framing.h"

#include <algorithm>

#include "rpc_header.pb.h"
#include "wire/ipc/rpc_requests.h"
#include "wire/ipc/rpc_responses.h"

namespace spindle::ipc {

namespace {
hadoop::common::RpcSaslProto WrapMessage(std::string token) {
  hadoop::common::RpcSaslProto sasl;
  sasl.set_state(hadoop::common::RpcSaslProto::WRAP);
  sasl.set_token(std::move(token));
  return sasl;
}
}  // namespace

Result<std::string> WrapResponseFrames(SaslSecurityLayer* layer, std::string_view frames) {
  ASSIGN_OR_RETURN(std::string token, layer->Wrap(frames));
  return EncodeSaslResponse(WrapMessage(std::move(token)));
}

Result<std::string> WrapRequestFrames(SaslSecurityLayer* layer, std::string_view frames) {
  const size_t chunk = std::max<size_t>(1, layer->max_send_size());
  std::string out;
  while (!frames.empty()) {
    const std::string_view piece = frames.substr(0, chunk);
    frames.remove_prefix(piece.size());
    ASSIGN_OR_RETURN(std::string token, layer->Wrap(piece));
    out += EncodeSaslFrame(WrapMessage(std::move(token)));
  }
  return out;
}

Status WrappedFrameReader::Add(std::string_view token) {
  ASSIGN_OR_RETURN(std::string plain, layer_->Unwrap(token));
  decoder_.Append(plain);
  return Status::OK();
}

}  // namespace spindle::ipc
