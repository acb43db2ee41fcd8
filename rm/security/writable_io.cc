#include "rm/security/writable_io.h"

namespace spindle::rm {

void WriteVLong(int64_t value, std::string* out) {
  if (value >= -112 && value <= 127) {
    out->push_back(static_cast<char>(value));
    return;
  }
  int first = -112;
  uint64_t magnitude = static_cast<uint64_t>(value);
  if (value < 0) {
    magnitude = ~magnitude;  // one's complement, as Java's v ^ -1L
    first = -120;
  }
  int length = 0;
  for (uint64_t rest = magnitude; rest != 0; rest >>= 8) ++length;
  out->push_back(static_cast<char>(first - length));
  for (int i = length - 1; i >= 0; --i) {
    out->push_back(static_cast<char>((magnitude >> (8 * i)) & 0xff));
  }
}

void WriteText(std::string_view bytes, std::string* out) {
  WriteVInt(static_cast<int32_t>(bytes.size()), out);
  out->append(bytes);
}

Status WritableReader::Error(std::string_view message, size_t offset) const {
  return Status::Corruption(std::string(what_) + ": " + std::string(message) + " at offset " +
                            std::to_string(offset));
}

Result<uint8_t> WritableReader::ReadByte() {
  if (remaining() < 1) return Error("unexpected end of data", pos_);
  return static_cast<uint8_t>(data_[pos_++]);
}

Result<int64_t> WritableReader::ReadVLong() {
  const size_t start = pos_;
  if (remaining() < 1) return Error("truncated VLong", start);
  const int8_t first = static_cast<int8_t>(data_[pos_]);
  if (first >= -112) {
    ++pos_;
    return int64_t{first};
  }
  const bool negative = first < -120;
  const size_t length = negative ? static_cast<size_t>(-120 - first)   // 1..8
                                 : static_cast<size_t>(-112 - first);  // 1..8
  if (remaining() < 1 + length) return Error("truncated VLong", start);
  uint64_t magnitude = 0;
  for (size_t i = 1; i <= length; ++i) {
    magnitude = (magnitude << 8) | static_cast<uint8_t>(data_[pos_ + i]);
  }
  pos_ += 1 + length;
  return static_cast<int64_t>(negative ? ~magnitude : magnitude);
}

Result<int32_t> WritableReader::ReadVInt() {
  const size_t start = pos_;
  ASSIGN_OR_RETURN(const int64_t value, ReadVLong());
  if (value > INT32_MAX || value < INT32_MIN) {
    return Error("VInt " + std::to_string(value) + " does not fit an int", start);
  }
  return static_cast<int32_t>(value);
}

Result<std::string_view> WritableReader::ReadBytes(size_t n) {
  if (remaining() < n) {
    return Error("need " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left",
                 pos_);
  }
  std::string_view bytes = data_.substr(pos_, n);
  pos_ += n;
  return bytes;
}

Result<std::string_view> WritableReader::ReadLengthPrefixed(std::string_view field) {
  const size_t start = pos_;
  ASSIGN_OR_RETURN(const int32_t length, ReadVInt());
  if (length < 0) {
    return Error("negative length " + std::to_string(length) + " of " + std::string(field), start);
  }
  if (remaining() < static_cast<size_t>(length)) {
    return Error(std::string(field) + " of " + std::to_string(length) +
                     " bytes overruns the data (" + std::to_string(remaining()) + " left)",
                 start);
  }
  return ReadBytes(static_cast<size_t>(length));
}

}  // namespace spindle::rm
