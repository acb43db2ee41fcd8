// Hadoop's ISO8601 times, as org.apache.hadoop.yarn.util.Times formats and
// parses them (Hadoop 3.3): the pattern "yyyy-MM-dd'T'HH:mm:ss.SSSZ" of a
// java.text.SimpleDateFormat in the JVM's time zone, e.g.
// "2026-11-27T09:30:00.000+0000". Application timeouts travel in this form
// (updateApplicationTimeouts, ApplicationTimeoutProto.expire_time).
//
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::client_service {

// `epoch_ms` in this process's local time zone (TZ), as a JVM started with
// the same TZ formats it.
std::string FormatIso8601(int64_t epoch_ms);
// `epoch_ms` at a fixed offset east of UTC, in seconds.
std::string FormatIso8601(int64_t epoch_ms, int32_t utc_offset_seconds);

// Epoch milliseconds of an ISO8601 time in Hadoop's pattern. As the lenient
// SimpleDateFormat does: each number is a run of digits (milliseconds are
// a count, "5" is 5 ms), out-of-range fields roll over (month 13 is the next
// January), and what follows the zone is ignored. The zone is RFC 822
// ("+0530", "-0800") or, as Java also reads it, "GMT"/"UTC" with an optional
// "+hh:mm" / "+hhmm" / "+hh". InvalidArgument for anything else.
Result<int64_t> ParseIso8601(std::string_view text);

}  // namespace spindle::client_service
