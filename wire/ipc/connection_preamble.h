// The 7-byte connection preamble (WIRE.md 2.1) and the replies Hadoop's
// server sends when it is wrong: HTTP's plain 404 blurb, the protobuf FATAL
// version mismatch, and the pre-v9 layout for clients announcing versions 3-8.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spindle::ipc {

inline constexpr size_t kPreambleLength = 7;

enum class AuthProtocol : uint8_t {
  kNone = 0x00,
  kSasl = 0xDF,  // -33 as a signed byte
};

struct Preamble {
  enum class Kind {
    kValid,         // "hrpc", version 9
    kHttpGet,       // "GET " - someone pointed a browser at an IPC port
    kWrongVersion,  // bad magic or version != 9
  };
  Kind kind = Kind::kValid;
  uint8_t version = 0;
  uint8_t service_class = 0;
  uint8_t auth_byte = 0;  // compare with AuthProtocol
};

// Classifies exactly kPreambleLength bytes.
Preamble ParsePreamble(std::string_view bytes);

// What a client writes: "hrpc", 9, service class, auth protocol.
std::string EncodePreamble(AuthProtocol auth, uint8_t service_class = 0);

// Hadoop's reply to an HTTP request on an IPC port.
std::string HttpGetReply();

// The FATAL_VERSION_MISMATCH reply for a client announcing `client_version`:
// protobuf layout for versions >= 9 or unknown magic, the int/String layout
// older clients read for versions 3..8.
std::string VersionMismatchReply(uint8_t client_version);

}  // namespace spindle::ipc
