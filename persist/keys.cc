#include "persist/keys.h"

namespace spindle::persist {

namespace {
constexpr uint64_t kSignFlip = uint64_t{1} << 63;

void AppendBigEndian(uint64_t v, std::string* out) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

uint64_t ReadBigEndian(std::string_view bytes) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}
}  // namespace

std::string AttemptKey(std::string_view app_id, std::string_view attempt_id) {
  std::string key(app_id);
  key.push_back('\0');
  key.append(attempt_id);
  return key;
}

std::string AttemptRangeBegin(std::string_view app_id) {
  std::string key(app_id);
  key.push_back('\0');
  return key;
}

std::string AttemptRangeEnd(std::string_view app_id) {
  std::string key(app_id);
  key.push_back('\1');
  return key;
}

Result<AttemptKeyParts> ParseAttemptKey(std::string_view key) {
  const size_t sep = key.find('\0');
  if (sep == std::string_view::npos || sep == 0 || sep + 1 == key.size()) {
    return Status::Corruption("malformed attempt key of " + std::to_string(key.size()) + " bytes");
  }
  return AttemptKeyParts{std::string(key.substr(0, sep)), std::string(key.substr(sep + 1))};
}

std::string MasterKeyKey(std::string_view family, int64_t key_id) {
  std::string key(family);
  key.push_back('\0');
  AppendBigEndian(static_cast<uint64_t>(key_id) ^ kSignFlip, &key);
  return key;
}

Result<MasterKeyParts> ParseMasterKeyKey(std::string_view key) {
  const size_t sep = key.find('\0');
  if (sep == std::string_view::npos || sep == 0 || key.size() - sep - 1 != 8) {
    return Status::Corruption("malformed master key key of " + std::to_string(key.size()) +
                              " bytes");
  }
  return MasterKeyParts{std::string(key.substr(0, sep)),
                        static_cast<int64_t>(ReadBigEndian(key.substr(sep + 1)) ^ kSignFlip)};
}

std::string EncodeInt64(int64_t value) {
  std::string out;
  AppendBigEndian(static_cast<uint64_t>(value), &out);
  return out;
}

Result<int64_t> DecodeInt64(std::string_view bytes) {
  if (bytes.size() != 8) {
    return Status::Corruption("int64 value of " + std::to_string(bytes.size()) + " bytes, not 8");
  }
  return static_cast<int64_t>(ReadBigEndian(bytes));
}

}  // namespace spindle::persist
