// The Hadoop line Spindle speaks when the configuration does not choose one.
#pragma once

namespace spindle {

// The configuration key that chooses the Hadoop line (2.6, 2.7, 3.3).
inline constexpr char kHadoopLineKey[] = "spindle.compat.hadoop-version";
// Its default: the newest line Spindle supports.
inline constexpr char kDefaultHadoopLine[] = "3.3";

}  // namespace spindle
