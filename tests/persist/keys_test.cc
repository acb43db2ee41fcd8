#include "persist/keys.h"

#include <gtest/gtest.h>

#include <limits>

namespace spindle::persist {
namespace {

TEST(PersistKeysTest, AttemptKeyRoundTripsAndRangeCoversOnlyItsApp) {
  const std::string key = AttemptKey("application_1_1", "appattempt_1_1_000001");
  auto parts = ParseAttemptKey(key);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  EXPECT_EQ(parts->app_id, "application_1_1");
  EXPECT_EQ(parts->attempt_id, "appattempt_1_1_000001");
  // application_1_10's attempts must fall outside application_1_1's range.
  const std::string other = AttemptKey("application_1_10", "appattempt_1_10_000001");
  EXPECT_GE(key, AttemptRangeBegin("application_1_1"));
  EXPECT_LT(key, AttemptRangeEnd("application_1_1"));
  EXPECT_FALSE(other >= AttemptRangeBegin("application_1_1") &&
               other < AttemptRangeEnd("application_1_1"));
  EXPECT_FALSE(ParseAttemptKey("no-separator").ok());
  EXPECT_FALSE(ParseAttemptKey(std::string("app\0", 4)).ok());
}

TEST(PersistKeysTest, MasterKeyIdsSortNumericallyAndRoundTrip) {
  const int64_t ids[] = {std::numeric_limits<int64_t>::min(), -5, -1, 0, 1, 7,
                         std::numeric_limits<int64_t>::max()};
  for (size_t i = 0; i < std::size(ids); ++i) {
    auto parts = ParseMasterKeyKey(MasterKeyKey("amrm", ids[i]));
    ASSERT_TRUE(parts.ok());
    EXPECT_EQ(parts->family, "amrm");
    EXPECT_EQ(parts->key_id, ids[i]);
    if (i > 0) {
      EXPECT_LT(MasterKeyKey("amrm", ids[i - 1]), MasterKeyKey("amrm", ids[i]));
    }
  }
  EXPECT_FALSE(ParseMasterKeyKey("amrm").ok());
}

TEST(PersistKeysTest, Int64RoundTripsAndRejectsWrongLength) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1700000000000}}) {
    auto d = DecodeInt64(EncodeInt64(v));
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(*d, v);
  }
  EXPECT_EQ(DecodeInt64("1234567").status().code(), Status::Code::kCorruption);
}

}  // namespace
}  // namespace spindle::persist
