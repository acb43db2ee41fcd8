// The checksum files Hadoop's LocalFileSystem (a ChecksumFileSystem over the
// raw local file system; read at rel/release-3.3.0, the same since 2.x)
// keeps beside every file it writes through a file:// URI: ".<name>.crc",
// holding the 4 bytes "crc\0", the big-endian int bytes-per-checksum
// (file.bytes-per-checksum, 512 by default) and one big-endian CRC32 (zlib's
// polynomial) per chunk of that many bytes of the data.
//
// A Java RM reading a record through file:// verifies it against its .crc
// file when one exists and reads it unchecked when none does; it lists a
// directory without its .crc files, renames and deletes a file's .crc with
// it. So a FileSystemRMStateStore directory that a Java RM shares must never
// hold a .crc that does not match its file: Spindle writes one with every
// record (and so can verify the Java RM's files as that RM does).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace spindle::rm::fsstore {

inline constexpr int kDefaultBytesPerChecksum = 512;

// ".<name>.crc"
std::string ChecksumFileName(std::string_view name);
// True for a name ChecksumFileSystem treats as a checksum file (".*.crc").
bool IsChecksumFileName(std::string_view name);

// The checksum file of `data`.
std::string EncodeChecksumFile(std::string_view data,
                               int bytes_per_checksum = kDefaultBytesPerChecksum);

// OK when `sums` is a checksum file matching `data` (with the chunk size its
// header names); Corruption saying what does not match otherwise.
Status VerifyChecksumFile(std::string_view data, std::string_view sums);

}  // namespace spindle::rm::fsstore
