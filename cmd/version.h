// `spindle --version`: Spindle's own version, the git revision the binary was
// built from (captured by CMake at build time, "unknown" outside a checkout)
// and the Hadoop line it speaks by default.
#pragma once

#include <string>

namespace spindle {

inline constexpr char kSpindleVersion[] = "0.1.0";

// `git describe --always --dirty` of the source tree at build time.
const char* GitRevision();

// The Hadoop line Spindle speaks when the configuration does not choose one:
// the newest of rm/config/key_catalog.h's kHadoopLineNames ("3.3").
const char* DefaultHadoopLine();
// The configuration key that chooses the line.
extern const char kHadoopLineKey[];

// Three lines:
//   spindle 0.1.0
//   git revision: 771264d
//   Hadoop line: 3.3 (default; spindle.compat.hadoop-version)
std::string VersionText();

}  // namespace spindle
