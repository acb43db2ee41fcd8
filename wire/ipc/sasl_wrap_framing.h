// Hadoop's framing of SASL-wrapped traffic (WIRE.md 3.3 D, step 5): once a
// connection negotiated auth-int or auth-conf, every byte after the SASL
// SUCCESS travels wrapped, each wrapped buffer in a frame of its own
//   [len][Rpc{Request,Response}HeaderProto callId -33][RpcSaslProto{WRAP, token}]
// and the unwrapped tokens, joined, are the ordinary frame stream (a token
// may hold several frames or part of one). Server.wrapWithSasl wraps each
// response whole; SaslRpcClient's WrappedOutputStream wraps what its
// buffer of Sasl.RAW_SEND_SIZE bytes holds, so a request larger than that
// spans tokens (2.6 and 3.3 alike).
//
// Thread contract: WrappedFrameReader is not thread-safe (one reader); the
// functions are safe from any thread that may call the layer's Wrap().
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "wire/ipc/frame_decoder.h"
#include "wire/ipc/sasl_security_layer.h"

namespace spindle::ipc {

// Server -> client: `frames` (whole response frames) wrapped as one WRAP
// response frame.
Result<std::string> WrapResponseFrames(SaslSecurityLayer* layer, std::string_view frames);

// Client -> server: `frames` wrapped in tokens of at most
// layer->max_send_size() bytes each, one WRAP request frame per token.
Result<std::string> WrapRequestFrames(SaslSecurityLayer* layer, std::string_view frames);

// The receiving side: takes the token of each WRAP message, unwraps it and
// cuts the result into the frames it carries.
class WrappedFrameReader {
 public:
  // `max_frame_length` bounds the inner frames as the outer ones are.
  WrappedFrameReader(SaslSecurityLayer* layer, uint32_t max_frame_length)
      : layer_(layer), decoder_(max_frame_length) {}

  // Unwraps one WRAP token. Unauthorized (the layer refused it: tampered,
  // replayed, reordered) or ResourceExhausted (an inner frame too long)
  // mean the connection must close.
  Status Add(std::string_view token);
  // The next whole inner frame (body without its length), as
  // FrameDecoder::Next.
  Result<bool> Next(std::string* frame) { return decoder_.Next(frame); }

 private:
  SaslSecurityLayer* const layer_;
  FrameDecoder decoder_;
};

}  // namespace spindle::ipc
