// libFuzzer target: arbitrary bytes from a peer into a server connection's
// state machine, split at fuzzer-chosen points, on a port offering SIMPLE and
// TOKEN. The session must never crash, hang or dispatch a call before its
// connection context; ASan/UBSan check memory and arithmetic.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/crypto.h"
#include "wire/ipc/protobuf_log_folding.h"
#include "wire/ipc/server_session.h"

namespace {

class Secrets : public spindle::ipc::TokenSecretProvider {
 public:
  spindle::Result<spindle::ipc::TokenSecret> RetrieveSecret(
      std::string_view identifier) const override {
    if (identifier.empty()) return spindle::Status::Unauthorized("empty identifier");
    return spindle::ipc::TokenSecret{spindle::HmacSha1("k", identifier), std::string(identifier)};
  }
};

class Sink : public spindle::ipc::ServerSessionSink {
 public:
  explicit Sink(const spindle::ipc::ServerSession** session) : session_(session) {}
  void SendBytes(std::string bytes) override { sent_ += bytes.size(); }
  void OnCall(spindle::ipc::InboundRequest request) override {
    if (!(*session_)->context_established()) __builtin_trap();
    calls_ += request.payload.size() + 1;
  }

 private:
  const spindle::ipc::ServerSession** session_;
  size_t sent_ = 0;
  size_t calls_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // As in the daemon: libprotobuf's complaints about malformed fields are
  // folded, one line per session at most (protobuf_log_folding.h).
  static const bool kFolding = (spindle::ipc::InstallProtobufLogFolding(), true);
  (void)kFolding;
  if (size < 2) return 0;
  static const Secrets secrets;
  spindle::ipc::ServerSessionOptions options;
  options.token_provider = (data[0] & 1) ? &secrets : nullptr;
  options.simple_enabled = (data[0] & 2) == 0 || options.token_provider == nullptr;
  options.max_data_length = 1 << 16;
  const size_t chunk = 1 + data[1];
  const spindle::ipc::ServerSession* session_ptr = nullptr;
  Sink sink(&session_ptr);
  spindle::ipc::ServerSession session(options, &sink, "fuzznonce");
  session_ptr = &session;
  std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);
  while (!input.empty()) {
    const size_t n = std::min(chunk, input.size());
    if (!session.OnData(input.substr(0, n))) break;
    input.remove_prefix(n);
  }
  return 0;
}
