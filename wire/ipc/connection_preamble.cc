#include "wire/ipc/connection_preamble.h"

#include "wire/ipc/frame_codec.h"
#include "wire/ipc/rpc_responses.h"

namespace spindle::ipc {

Preamble ParsePreamble(std::string_view bytes) {
  Preamble p;
  if (bytes.substr(0, 4) == "GET ") {
    p.kind = Preamble::Kind::kHttpGet;
    return p;
  }
  p.version = static_cast<uint8_t>(bytes[4]);
  p.service_class = static_cast<uint8_t>(bytes[5]);
  p.auth_byte = static_cast<uint8_t>(bytes[6]);
  if (bytes.substr(0, 4) != "hrpc" || p.version != kServerIpcVersion) {
    p.kind = Preamble::Kind::kWrongVersion;
  }
  return p;
}

std::string EncodePreamble(AuthProtocol auth, uint8_t service_class) {
  std::string out = "hrpc";
  out.push_back(static_cast<char>(kServerIpcVersion));
  out.push_back(static_cast<char>(service_class));
  out.push_back(static_cast<char>(auth));
  return out;
}

std::string HttpGetReply() {
  return "HTTP/1.1 404 Not Found\r\n"
         "Content-type: text/plain\r\n\r\n"
         "It looks like you are making an HTTP request to a Hadoop IPC port. "
         "This is not the correct port for the web interface on this daemon.\r\n";
}

namespace {
constexpr char kVersionMismatchClass[] = "org.apache.hadoop.ipc.RPC$VersionMismatch";

void AppendJavaString(std::string_view s, std::string* out) {
  AppendBigEndian32(static_cast<uint32_t>(s.size()), out);
  out->append(s);
}
}  // namespace

std::string VersionMismatchReply(uint8_t client_version) {
  const std::string message = "Server IPC version " + std::to_string(kServerIpcVersion) +
                              " cannot communicate with client version " +
                              std::to_string(client_version);
  if (client_version >= 3 && client_version < kServerIpcVersion) {
    // Pre-protobuf layout: int32 callId (-1), int32 status (FATAL = -1), then
    // the class name and message as int32-length-prefixed strings.
    std::string out;
    AppendBigEndian32(0xffffffffu, &out);
    AppendBigEndian32(0xffffffffu, &out);
    AppendJavaString(kVersionMismatchClass, &out);
    AppendJavaString(message, &out);
    return out;
  }
  return EncodeFatalSetupResponse(kVersionMismatchClass, message,
                                  hadoop::common::RpcResponseHeaderProto::FATAL_VERSION_MISMATCH);
}

}  // namespace spindle::ipc
