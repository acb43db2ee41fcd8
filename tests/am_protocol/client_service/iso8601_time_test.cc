// Hadoop's ISO8601 times (Times.formatISO8601 / parseISO8601ToLocalTimeInMillis,
// pattern yyyy-MM-dd'T'HH:mm:ss.SSSZ).
#include "am_protocol/client_service/iso8601_time.h"

#include <gtest/gtest.h>

namespace spindle::client_service {
namespace {

// 2017-01-02T03:04:05.006Z
constexpr int64_t kT = 1483326245006;

TEST(Iso8601TimeTest, FormatsAsSimpleDateFormatDoes) {
  EXPECT_EQ(FormatIso8601(kT, 0), "2017-01-02T03:04:05.006+0000");
  EXPECT_EQ(FormatIso8601(kT, 5 * 3600 + 1800), "2017-01-02T08:34:05.006+0530");
  EXPECT_EQ(FormatIso8601(kT, -8 * 3600), "2017-01-01T19:04:05.006-0800");
  EXPECT_EQ(FormatIso8601(0, 0), "1970-01-01T00:00:00.000+0000");
  // Leap day.
  EXPECT_EQ(FormatIso8601(951782400000, 0), "2000-02-29T00:00:00.000+0000");
}

TEST(Iso8601TimeTest, ParsesWhatItFormatsInAnyZone) {
  for (int32_t offset : {0, 3600, -3600, 5 * 3600 + 1800, -(9 * 3600 + 2700)}) {
    EXPECT_EQ(*ParseIso8601(FormatIso8601(kT, offset)), kT) << offset;
  }
  EXPECT_EQ(*ParseIso8601(FormatIso8601(kT)), kT);  // the local zone
}

TEST(Iso8601TimeTest, ParsesLikeTheLenientSimpleDateFormat) {
  // General time zones.
  EXPECT_EQ(*ParseIso8601("2017-01-02T03:04:05.006GMT"), kT);
  EXPECT_EQ(*ParseIso8601("2017-01-02T04:04:05.006GMT+01:00"), kT);
  EXPECT_EQ(*ParseIso8601("2017-01-02T04:04:05.006UTC+01"), kT);
  // Milliseconds are a number, not a fraction.
  EXPECT_EQ(*ParseIso8601("2017-01-02T03:04:05.6+0000"), kT);
  EXPECT_EQ(*ParseIso8601("2017-01-02T03:04:05.0060+0000"), kT - 6 + 60);
  // Out-of-range fields roll over; trailing text is ignored.
  EXPECT_EQ(*ParseIso8601("2016-13-02T03:04:05.006+0000"), kT);
  EXPECT_EQ(*ParseIso8601("2017-01-01T27:04:05.006+0000"), kT);
  EXPECT_EQ(*ParseIso8601("2017-01-02T03:04:05.006+0000 and more"), kT);
}

TEST(Iso8601TimeTest, RefusesWhatJavaCannotParse) {
  EXPECT_FALSE(ParseIso8601("").ok());
  EXPECT_FALSE(ParseIso8601("tomorrow").ok());
  EXPECT_FALSE(ParseIso8601("2017-01-02T03:04:05+0000").ok());      // no millis
  EXPECT_FALSE(ParseIso8601("2017-01-02 03:04:05.006+0000").ok());  // no 'T'
  EXPECT_FALSE(ParseIso8601("2017-01-02T03:04:05.006").ok());       // no zone
}

}  // namespace
}  // namespace spindle::client_service
