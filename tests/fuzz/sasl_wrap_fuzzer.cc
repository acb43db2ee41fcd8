// libFuzzer target: the SASL wrap paths of hadoop.rpc.protection. A
// ServerSession is taken through a real TOKEN (DIGEST-MD5) negotiation at
// auth-int or auth-conf with a fixed nonce and cnonce, then fed the input as
//   mode 0: raw bytes after SUCCESS (outer frames, unwrapped plain calls),
//   mode 1: the token of one WRAP frame (the layer's Unwrap on junk),
//   mode 2: bytes wrapped by the genuine client layer (so they unwrap and
//           reach the inner frame stream: headers, context, calls),
// and the client side's layer and WrappedFrameReader unwrap the input too.
// Nothing may crash or hang, and no call may run before its context.
// Bounded: scripts/run_tests.sh runs it with -max_total_time; inputs are cut
// at 64 KiB here as ipc.maximum.data.length is for the session.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/base64.h"
#include "base/crypto.h"
#include "rpc_header.pb.h"
#include "wire/ipc/client_negotiation.h"
#include "wire/ipc/connection_preamble.h"
#include "wire/ipc/digest_md5_security_layer.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/frame_decoder.h"
#include "wire/ipc/protobuf_log_folding.h"
#include "wire/ipc/rpc_requests.h"
#include "wire/ipc/sasl_wrap_framing.h"
#include "wire/ipc/server_session.h"

namespace {

using spindle::ipc::SaslQop;

constexpr char kNonce[] = "fuzznonce";
constexpr char kIdentifier[] = "appattempt_1700000000000_0001_000001";
constexpr size_t kMaxInput = 64 * 1024;

class Secrets : public spindle::ipc::TokenSecretProvider {
 public:
  spindle::Result<spindle::ipc::TokenSecret> RetrieveSecret(
      std::string_view identifier) const override {
    return spindle::ipc::TokenSecret{spindle::HmacSha1("k", identifier), std::string(identifier)};
  }
};

class Sink : public spindle::ipc::ServerSessionSink {
 public:
  explicit Sink(const spindle::ipc::ServerSession** session) : session_(session) {}
  void SendBytes(std::string bytes) override { sent_.append(bytes); }
  void OnCall(spindle::ipc::InboundRequest request) override {
    if (!(*session_)->context_established()) __builtin_trap();
    calls_ += request.payload.size() + 1;
  }
  void OnSecurityLayer(std::shared_ptr<spindle::ipc::SaslSecurityLayer> layer) override {
    layer_ = std::move(layer);
  }
  std::string TakeSent() { return std::exchange(sent_, std::string()); }
  spindle::ipc::SaslSecurityLayer* layer() const { return layer_.get(); }

 private:
  const spindle::ipc::ServerSession** session_;
  std::string sent_;
  size_t calls_ = 0;
  std::shared_ptr<spindle::ipc::SaslSecurityLayer> layer_;
};

// The server's SASL replies (frame bodies) in `bytes`.
std::vector<hadoop::common::RpcSaslProto> SaslReplies(const std::string& bytes) {
  std::vector<hadoop::common::RpcSaslProto> out;
  spindle::ipc::FrameDecoder decoder(1u << 20);
  decoder.Append(bytes);
  std::string frame;
  while (true) {
    auto next = decoder.Next(&frame);
    if (!next.ok() || !*next) break;
    std::string_view rest = frame;
    hadoop::common::RpcResponseHeaderProto header;
    hadoop::common::RpcSaslProto sasl;
    if (spindle::ipc::ReadDelimited(&rest, &header).ok() &&
        spindle::ipc::ReadDelimited(&rest, &sasl).ok()) {
      out.push_back(sasl);
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool kFolding = (spindle::ipc::InstallProtobufLogFolding(), true);
  (void)kFolding;
  if (size < 1 || size > kMaxInput) return 0;
  static const Secrets secrets;
  const SaslQop qop = (data[0] & 1) ? SaslQop::kAuthConf : SaslQop::kAuthInt;
  const int mode = (data[0] >> 1) % 3;
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);

  spindle::ipc::ServerSessionOptions options;
  options.simple_enabled = false;
  options.token_provider = &secrets;
  options.qops = {SaslQop::kAuthInt, SaslQop::kAuthConf};
  options.max_data_length = kMaxInput;
  const spindle::ipc::ServerSession* session_ptr = nullptr;
  Sink sink(&session_ptr);
  spindle::ipc::ServerSession session(options, &sink, kNonce);
  session_ptr = &session;

  // A genuine client negotiates the layer (the same bytes every run).
  spindle::ipc::ClientToken token;
  token.identifier = kIdentifier;
  token.password = spindle::HmacSha1("k", kIdentifier);
  spindle::ipc::ClientNegotiation client(&token, "fuzzcnonce", nullptr, {qop});
  if (!session.OnData(spindle::ipc::EncodePreamble(spindle::ipc::AuthProtocol::kSasl) +
                      spindle::ipc::EncodeSaslFrame(client.Start()))) {
    __builtin_trap();
  }
  while (client.outcome() == spindle::ipc::ClientNegotiation::Outcome::kInProgress) {
    const auto replies = SaslReplies(sink.TakeSent());
    if (replies.empty()) __builtin_trap();
    for (const auto& reply : replies) {
      auto next = client.OnServerMessage(reply);
      if (!next.ok()) __builtin_trap();
      if (next->has_value() && !session.OnData(spindle::ipc::EncodeSaslFrame(**next))) {
        __builtin_trap();
      }
    }
  }
  auto client_layer = client.TakeSecurityLayer();
  if (!client_layer.ok() || *client_layer == nullptr || sink.layer() == nullptr) __builtin_trap();

  switch (mode) {
    case 0:
      (void)session.OnData(input);
      break;
    case 1: {
      hadoop::common::RpcSaslProto wrap;
      wrap.set_state(hadoop::common::RpcSaslProto::WRAP);
      wrap.set_token(std::string(input));
      (void)session.OnData(spindle::ipc::EncodeSaslFrame(wrap));
      break;
    }
    default: {
      auto wrapped = spindle::ipc::WrapRequestFrames(client_layer->get(), input);
      if (!wrapped.ok()) __builtin_trap();
      (void)session.OnData(*wrapped);
      break;
    }
  }

  // The client side: the input as a token from the server, then as the
  // plain stream a genuine token carries.
  spindle::ipc::WrappedFrameReader reader(client_layer->get(), kMaxInput);
  if (reader.Add(input).ok()) {
    std::string frame;
    while (true) {
      auto next = reader.Next(&frame);
      if (!next.ok() || !*next) break;
    }
  }
  return 0;
}
