#include "wire/ipc/frame_codec.h"

#include <glog/logging.h>
#include <google/protobuf/io/coded_stream.h>

namespace spindle::ipc {

using google::protobuf::io::CodedOutputStream;

void AppendDelimited(const google::protobuf::MessageLite& message, std::string* out) {
  const size_t size = message.ByteSizeLong();
  uint8_t varint[10];
  const uint8_t* end = CodedOutputStream::WriteVarint32ToArray(static_cast<uint32_t>(size), varint);
  out->append(reinterpret_cast<const char*>(varint), end - varint);
  const size_t old = out->size();
  out->resize(old + size);
  message.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(out->data() + old));
}

Status ReadDelimitedBytes(std::string_view* in, std::string_view* body) {
  uint64_t size = 0;
  size_t i = 0;
  for (int shift = 0;; shift += 7) {
    if (i >= in->size()) return Status::ProtocolError("truncated varint length");
    if (shift > 28) return Status::ProtocolError("varint length longer than 5 bytes");
    const uint8_t b = static_cast<uint8_t>((*in)[i++]);
    size |= uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80) == 0) break;
  }
  if (size > 0x7fffffffu) return Status::ProtocolError("delimited length out of range");
  if (size > in->size() - i) return Status::ProtocolError("delimited message runs past the frame");
  *body = in->substr(i, size);
  in->remove_prefix(i + size);
  return Status::OK();
}

Status ReadDelimited(std::string_view* in, google::protobuf::MessageLite* message) {
  std::string_view body;
  RETURN_NOT_OK(ReadDelimitedBytes(in, &body));
  return ParseMessage(body, message);
}

Status ParseMessage(std::string_view bytes, google::protobuf::MessageLite* message) {
  if (!message->ParsePartialFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::ProtocolError("cannot parse " + message->GetTypeName());
  }
  if (!message->IsInitialized()) {
    return Status::ProtocolError("cannot parse " + message->GetTypeName() +
                                 ": missing required fields " +
                                 message->InitializationErrorString());
  }
  return Status::OK();
}

void AppendBigEndian32(uint32_t value, std::string* out) {
  const char bytes[4] = {static_cast<char>(value >> 24), static_cast<char>(value >> 16),
                         static_cast<char>(value >> 8), static_cast<char>(value)};
  out->append(bytes, 4);
}

uint32_t ReadBigEndian32(const char* bytes) {
  const auto* b = reinterpret_cast<const uint8_t*>(bytes);
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

std::string EncodeFrame(std::initializer_list<const google::protobuf::MessageLite*> parts) {
  // Sizes first, so that the frame is one allocation of its exact length and
  // each part serialises straight into it (a response of a few hundred
  // containers is hundreds of KB: growing the string copied it each time).
  size_t body = 0;
  for (const auto* part : parts) {
    const size_t size = part->ByteSizeLong();
    body += CodedOutputStream::VarintSize32(static_cast<uint32_t>(size)) + size;
  }
  std::string out;
  out.reserve(kFrameLengthBytes + body);
  AppendBigEndian32(static_cast<uint32_t>(body), &out);
  out.resize(kFrameLengthBytes + body);
  auto* cursor = reinterpret_cast<uint8_t*>(out.data() + kFrameLengthBytes);
  for (const auto* part : parts) {
    // ByteSizeLong() above cached every part's size.
    const int size = part->GetCachedSize();
    cursor = CodedOutputStream::WriteVarint32ToArray(static_cast<uint32_t>(size), cursor);
    cursor = part->SerializeWithCachedSizesToArray(cursor);
  }
  DCHECK_EQ(reinterpret_cast<char*>(cursor), out.data() + out.size());
  return out;
}

}  // namespace spindle::ipc
