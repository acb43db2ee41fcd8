// KeyCatalog: every configuration key Spindle knows, with what Spindle does
// with it. One row per key (or key pattern): whether Spindle honours it, its
// default in Spindle and in each Hadoop line (2.6, 2.7, 3.3), the values
// Spindle behaves as, and what a value Spindle does not honour changes for the
// operator. `spindle doctor` reports an operator's configuration against it;
// tests keep it complete (every key literal the sources read must have a row)
// and honest (every row that says Spindle reads a key must name a key the
// sources read).
//
// Patterns: a key with placeholders in angle brackets. `<queue-path>` stands
// for a CapacityScheduler queue path (one or more dot-separated names, the
// first "root"); any other `<name>` for exactly one name; a final `*` for one
// or more names. An exact row wins over a pattern; among patterns the one with
// the most literal names wins.
//
// Hadoop defaults are those of yarn-default.xml / core-default.xml (or of the
// Java constant where the XML lists none) at release-2.6.0, release-2.7.7 and
// release-3.3.0 for the 3.3 line, corrected where a later 3.3 release (up to
// 3.3.6) changed a default (the row says so).
//
// Thread-safety: immutable static data; use from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace spindle::rm {

// What Spindle does with a key, whatever the Hadoop line.
enum class KeySupport : uint8_t {
  kHonoured,     // read and applied as a Hadoop RM applies it
  kIgnored,      // a ResourceManager key Spindle does not read
  kUnsupported,  // a feature Spindle lacks; values other than matching_values are lost or refused
  kNotForRm,     // read by NodeManagers, clients or AMs, not by a ResourceManager (Java's neither)
};

// What Spindle does with a key against one Hadoop line (what the doctor prints).
enum class KeyStatus : uint8_t {
  kHonoured,
  kHonouredOtherDefault,  // honoured, but Spindle's default is not this line's
  kIgnored,
  kUnsupported,
  kNotForRm,
  kUnknown,  // not in the catalogue: Spindle ignores it
};
const char* KeyStatusName(KeyStatus status);

// Which Spindle commands read a key (bits).
enum KeyReader : uint8_t {
  kReadByNone = 0,
  kReadByRm = 1,     // spindle rm
  kReadByNm = 2,     // spindle nm
  kReadByShell = 4,  // spindle shell (a client)
};

// How Spindle parses the value; a value that does not parse makes the reader
// fail (spindle rm or nm refuses to start).
enum class ValueKind : uint8_t { kText, kInt, kBool, kDouble, kHostPort };

// How much a value Spindle does not honour matters to the swap.
enum class Impact : uint8_t {
  kNote,     // nothing the operator would notice
  kWarning,  // Spindle works, but not as this configuration asks
  kBlocker,  // Spindle refuses to start, or clients and nodes configured so cannot use it
};

// The Hadoop lines the catalogue knows, oldest first.
inline constexpr int kHadoopLineCount = 3;
inline constexpr std::array<const char*, kHadoopLineCount> kHadoopLineNames = {"2.6", "2.7", "3.3"};
inline constexpr int kNewestHadoopLine = kHadoopLineCount - 1;
// "2.6", "2.6.0", "2.7.7", "3.3.6" -> index into kHadoopLineNames; nullopt
// for a line the catalogue does not know.
std::optional<int> HadoopLineIndex(std::string_view version);

struct KeySpec {
  const char* pattern;
  KeySupport support;
  uint8_t readers;  // KeyReader bits
  ValueKind kind;
  // Spindle's default as Hadoop would write it; nullptr when Spindle does not read the key.
  const char* spindle_default;
  // Per line; nullptr when the line has no such key.
  std::array<const char*, kHadoopLineCount> hadoop_default;
  // What Spindle does with the key (or, for ignored keys, what that changes).
  const char* effect;
  // Values Spindle honours or behaves as anyway, '|'-separated,
  // case-insensitive, "*Suffix" matching a suffix; nullptr = any value.
  const char* matching_values = nullptr;
  // For a value outside matching_values (or any value of an ignored key).
  Impact impact = Impact::kWarning;
  bool refuses_start = false;  // spindle rm exits at start on such a value
  // What a value outside matching_values changes.
  const char* mismatch_effect = nullptr;
};

std::span<const KeySpec> KeyCatalog();

// The row for `key` (exact first, then the most specific pattern), or nullptr.
// `queue_path`, if given, receives what <queue-path> matched (else "").
const KeySpec* FindKeySpec(std::string_view key, std::string* queue_path = nullptr);

// Whether `key` matches `pattern` (see above); `queue_path` as for FindKeySpec.
bool KeyPatternMatches(std::string_view pattern, std::string_view key,
                       std::string* queue_path = nullptr);

// Whether Spindle honours (or behaves as) `value` for this row.
bool ValueMatches(const KeySpec& spec, std::string_view value);

// Spindle's default for the row's key when it stands in for `hadoop_line`
// (nullptr: Spindle does not read it): for a key whose default Spindle
// takes from the configured line (rm/config/hadoop_line.h's HadoopDefault),
// that line's default; otherwise spec.spindle_default.
const char* SpindleDefaultOn(const KeySpec& spec, int hadoop_line);

// The row's status against a Hadoop line, Spindle standing in for the same
// line.
KeyStatus StatusOn(const KeySpec& spec, int hadoop_line);
// The same when Spindle stands in for `spindle_line` (its configured
// spindle.compat.hadoop-version) while the cluster runs `hadoop_line`.
KeyStatus StatusOn(const KeySpec& spec, int hadoop_line, int spindle_line);

}  // namespace spindle::rm
