#include "rm/recovery/fs/hadoop_checksum_file.h"

#include <zlib.h>

#include <cstdint>

namespace spindle::rm::fsstore {

namespace {

constexpr std::string_view kMagic("crc\0", 4);
constexpr size_t kHeaderBytes = 8;

void AppendUint32(std::string* out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(value >> shift));
}

uint32_t ReadUint32(std::string_view bytes) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<uint8_t>(bytes[i]);
  return value;
}

uint32_t Crc32(std::string_view chunk) {
  return static_cast<uint32_t>(::crc32(::crc32(0L, Z_NULL, 0),
                                       reinterpret_cast<const Bytef*>(chunk.data()),
                                       static_cast<uInt>(chunk.size())));
}

}  // namespace

std::string ChecksumFileName(std::string_view name) { return "." + std::string(name) + ".crc"; }

bool IsChecksumFileName(std::string_view name) {
  return name.size() >= 5 && name.front() == '.' && name.substr(name.size() - 4) == ".crc";
}

std::string EncodeChecksumFile(std::string_view data, int bytes_per_checksum) {
  const size_t chunk = static_cast<size_t>(bytes_per_checksum);
  std::string out(kMagic);
  AppendUint32(&out, static_cast<uint32_t>(bytes_per_checksum));
  for (size_t at = 0; at < data.size(); at += chunk)
    AppendUint32(&out, Crc32(data.substr(at, chunk)));
  return out;
}

Status VerifyChecksumFile(std::string_view data, std::string_view sums) {
  if (sums.size() < kHeaderBytes || sums.substr(0, 4) != kMagic) {
    return Status::Corruption("not a checksum file (no \"crc\\0\" header)");
  }
  const uint32_t chunk = ReadUint32(sums.substr(4));
  if (chunk == 0 || chunk > (1u << 30)) {
    return Status::Corruption("checksum file names " + std::to_string(chunk) +
                              " bytes per checksum");
  }
  const size_t chunks = (data.size() + chunk - 1) / chunk;
  if (sums.size() != kHeaderBytes + 4 * chunks) {
    return Status::Corruption("checksum file holds " +
                              std::to_string((sums.size() - kHeaderBytes) / 4) + " checksums for " +
                              std::to_string(chunks) + " chunks of data");
  }
  for (size_t i = 0; i < chunks; ++i) {
    if (Crc32(data.substr(i * chunk, chunk)) != ReadUint32(sums.substr(kHeaderBytes + 4 * i))) {
      return Status::Corruption("checksum error at byte " + std::to_string(i * chunk));
    }
  }
  return Status::OK();
}

}  // namespace spindle::rm::fsstore
