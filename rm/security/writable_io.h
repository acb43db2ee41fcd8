// Hadoop's Writable primitives (org.apache.hadoop.io.WritableUtils, Text),
// as used by the Credentials format (WIRE.md 6.5):
//
//   VLong/VInt  -112 <= v <= 127: one byte v. Otherwise a first byte giving
//               sign and length (v >= 0: -112 - n; v < 0: -120 - n, and v is
//               replaced by ~v), then the n significant bytes, big-endian.
//               200 -> 8f c8; -200 -> 87 c7.
//   Text        VInt byte length, then the bytes (UTF-8 by convention; the
//               bytes are kept as they are).
//
// WritableReader reads from a buffer it does not own and reports any error
// as Corruption naming `what` and the byte offset; it never reads past the
// end. Like Java it accepts non-minimal VLong encodings.
//
// Thread-safety: WritableReader is not thread-safe; the writers are pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::rm {

void WriteVLong(int64_t value, std::string* out);
inline void WriteVInt(int32_t value, std::string* out) { WriteVLong(value, out); }
// VInt length, then the bytes.
void WriteText(std::string_view bytes, std::string* out);

class WritableReader {
 public:
  // `what` names the format in errors, e.g. "credentials".
  WritableReader(std::string_view data, std::string_view what) : data_(data), what_(what) {}

  size_t offset() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }

  Result<uint8_t> ReadByte();
  Result<int64_t> ReadVLong();
  // A VLong that must fit an int32 (Java: "value too long to fit in integer").
  Result<int32_t> ReadVInt();
  Result<std::string_view> ReadBytes(size_t n);
  // A non-negative VInt length, then that many bytes (Text, or a Writable
  // byte array). `field` names it in errors.
  Result<std::string_view> ReadLengthPrefixed(std::string_view field);

  // Corruption("<what>: <message> at offset <offset>").
  Status Error(std::string_view message, size_t offset) const;

 private:
  std::string_view data_;
  std::string_view what_;
  size_t pos_ = 0;
};

}  // namespace spindle::rm
