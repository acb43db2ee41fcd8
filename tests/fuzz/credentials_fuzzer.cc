// libFuzzer target: arbitrary bytes as a Hadoop Credentials blob (HDTS,
// WRITABLE or PROTOBUF). Whatever parses must survive a write and re-read in
// both formats unchanged, and re-writing must be stable.
#include <glog/logging.h>
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "rm/security/credentials.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using spindle::rm::Credentials;
  using spindle::rm::CredentialsFormat;
  // Debug builds of libprotobuf log every non-UTF-8 proto2 string; silence
  // that (Hadoop keeps aliases and services as raw bytes, and so do we).
  static const bool kQuiet = (google::protobuf::SetLogHandler(nullptr), true);
  (void)kQuiet;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto parsed = Credentials::Parse(bytes);
  if (!parsed.ok()) return 0;
  for (const CredentialsFormat format :
       {CredentialsFormat::kWritable, CredentialsFormat::kProtobuf}) {
    const std::string written = parsed->Serialize(format);
    auto again = Credentials::Parse(written);
    CHECK(again.ok()) << again.status().ToString();
    CHECK(*again == *parsed);
    CHECK(again->Serialize(format) == written);
  }
  return 0;
}
