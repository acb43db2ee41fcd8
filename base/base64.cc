#include "base/base64.h"

#include <array>
#include <cstdint>

namespace spindle {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int16_t, 256> MakeReverse() {
  std::array<int16_t, 256> table{};
  for (auto& v : table) v = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int16_t>(i);
  return table;
}
constexpr std::array<int16_t, 256> kReverse = MakeReverse();
}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = (uint32_t{static_cast<uint8_t>(bytes[i])} << 16) |
                 (uint32_t{static_cast<uint8_t>(bytes[i + 1])} << 8) |
                 uint32_t{static_cast<uint8_t>(bytes[i + 2])};
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = uint32_t{static_cast<uint8_t>(bytes[i])} << 16;
    if (rest == 2) v |= uint32_t{static_cast<uint8_t>(bytes[i + 1])} << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::string Base64UrlEncode(std::string_view bytes) {
  std::string out = Base64Encode(bytes);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return Status::InvalidArgument("base64 length is not a multiple of 4");
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    int vals[4];
    int pad = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = text[i + j];
      if (c == '=') {
        // Padding only in the last quantum, only in its last two places, and
        // never followed by a data character.
        if (i + 4 != text.size() || j < 2)
          return Status::InvalidArgument("misplaced base64 padding");
        vals[j] = 0;
        ++pad;
        continue;
      }
      if (pad > 0) return Status::InvalidArgument("base64 data after padding");
      vals[j] = kReverse[static_cast<uint8_t>(c)];
      if (vals[j] < 0) return Status::InvalidArgument("invalid base64 character");
    }
    const uint32_t v = (uint32_t(vals[0]) << 18) | (uint32_t(vals[1]) << 12) |
                       (uint32_t(vals[2]) << 6) | uint32_t(vals[3]);
    out.push_back(static_cast<char>((v >> 16) & 0xff));
    if (pad < 2) out.push_back(static_cast<char>((v >> 8) & 0xff));
    if (pad < 1) out.push_back(static_cast<char>(v & 0xff));
  }
  return out;
}

Result<std::string> Base64DecodeLenient(std::string_view text) {
  std::string standard(text);
  for (char& c : standard) {
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  while (standard.size() % 4 != 0) standard.push_back('=');
  return Base64Decode(standard);
}

}  // namespace spindle
