// Byte-level pieces of Hadoop IPC v9 framing (WIRE.md section 2.2): varint
// delimited protobuf messages and 4-byte big-endian length-prefixed frames.
// Pure functions over buffers: no sockets, no state, safe from any thread.
#pragma once

#include <google/protobuf/message_lite.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "base/status.h"

namespace spindle::ipc {

// Special call ids (WIRE.md 2.3).
inline constexpr int32_t kAuthorizationFailedCallId = -1;
inline constexpr int32_t kInvalidCallId = -2;
inline constexpr int32_t kConnectionContextCallId = -3;
inline constexpr int32_t kPingCallId = -4;
inline constexpr int32_t kSaslCallId = -33;

inline constexpr uint32_t kServerIpcVersion = 9;
inline constexpr int kFrameLengthBytes = 4;

// Appends varint32(size) followed by the serialized message.
void AppendDelimited(const google::protobuf::MessageLite& message, std::string* out);

// Reads varint32(size) + size bytes from the front of *in, advancing *in.
// Fails (ProtocolError) on a truncated or over-long varint, or a size past the end.
Status ReadDelimitedBytes(std::string_view* in, std::string_view* body);

// ReadDelimitedBytes, then parses the body into *message (ProtocolError if it
// does not parse or misses required fields).
Status ReadDelimited(std::string_view* in, google::protobuf::MessageLite* message);

// Parses a whole buffer into *message. Unlike MessageLite::ParseFromArray it
// logs nothing, so a hostile peer cannot flood the log; the error names the
// message type and any missing required fields.
Status ParseMessage(std::string_view bytes, google::protobuf::MessageLite* message);

// A whole frame: 4-byte big-endian length, then each part varint-delimited.
std::string EncodeFrame(std::initializer_list<const google::protobuf::MessageLite*> parts);

// Writes/reads a 4-byte big-endian unsigned length.
void AppendBigEndian32(uint32_t value, std::string* out);
uint32_t ReadBigEndian32(const char* bytes);

}  // namespace spindle::ipc
