// libFuzzer target: arbitrary text as a DIGEST-MD5 challenge (client side)
// and as a client response (server side), plus the directive parser.
#include <cstddef>
#include <cstdint>
#include <string>

#include "wire/ipc/digest_md5.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)spindle::ipc::ParseDigestDirectives(text);

  spindle::ipc::DigestMd5Client client("dXNlcg==", "cGFzcw==", "cnonce");
  auto response = client.EvaluateChallenge(text);
  if (response.ok()) (void)client.VerifyServerFinal(text);

  spindle::ipc::DigestMd5Server server("nonce");
  auto lookup = [](std::string_view) -> spindle::Result<std::string> {
    return std::string("cGFzcw==");
  };
  (void)server.EvaluateResponse(text, lookup);
  return 0;
}
