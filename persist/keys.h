// On-disk key layout of RocksDbStateStore (format version kFormatVersion).
// Changing any encoding here, or the set of column families, needs a new
// format version: a store written with another version refuses to open.
//
//   column family   key                                  value
//   default         "spindle.format_version"             decimal version, e.g. "1"
//   applications    app id                               record bytes
//   attempts        app id '\0' attempt id               record bytes
//   master_keys     family '\0' key id (8 bytes, below)  record bytes
//   cluster         ClusterFieldName(field)              8-byte big-endian int64
//   nodes           node id                              record bytes
//
// '\0' sorts first, so all attempts of one application form the contiguous
// range [app id '\0', app id '\1'): RemoveApplication deletes that range.
// Key ids are stored big-endian with the sign bit flipped so that they sort
// numerically, negative ids included.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::persist {

inline constexpr int kFormatVersion = 1;
inline constexpr std::string_view kFormatVersionKey = "spindle.format_version";

inline constexpr std::string_view kApplicationsFamily = "applications";
inline constexpr std::string_view kAttemptsFamily = "attempts";
inline constexpr std::string_view kMasterKeysFamily = "master_keys";
inline constexpr std::string_view kClusterFamily = "cluster";
inline constexpr std::string_view kNodesFamily = "nodes";

std::string AttemptKey(std::string_view app_id, std::string_view attempt_id);
// [begin, end) covering every AttemptKey of `app_id`.
std::string AttemptRangeBegin(std::string_view app_id);
std::string AttemptRangeEnd(std::string_view app_id);
struct AttemptKeyParts {
  std::string app_id;
  std::string attempt_id;
};
// Corruption if `key` has no separator or an empty part.
Result<AttemptKeyParts> ParseAttemptKey(std::string_view key);

std::string MasterKeyKey(std::string_view family, int64_t key_id);
struct MasterKeyParts {
  std::string family;
  int64_t key_id;
};
Result<MasterKeyParts> ParseMasterKeyKey(std::string_view key);

std::string EncodeInt64(int64_t value);
Result<int64_t> DecodeInt64(std::string_view bytes);

}  // namespace spindle::persist
