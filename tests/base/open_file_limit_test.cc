#include "base/open_file_limit.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

namespace spindle {
namespace {

TEST(OpenFileLimitTest, RaisesTheSoftLimitToTheHardOne) {
  rlimit original{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &original), 0);
  if (original.rlim_max != RLIM_INFINITY && original.rlim_max < 64) {
    GTEST_SKIP() << "hard open-file limit " << original.rlim_max << " leaves nothing to lower";
  }
  rlimit lowered = original;
  lowered.rlim_cur = 32;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &lowered), 0);

  auto raised = RaiseOpenFileLimit("test");
  ASSERT_TRUE(raised.ok()) << raised.status().ToString();
  EXPECT_EQ(raised->before, 32);
  const int64_t hard =
      original.rlim_max == RLIM_INFINITY ? -1 : static_cast<int64_t>(original.rlim_max);
  EXPECT_EQ(raised->hard, hard);
  EXPECT_EQ(raised->after, hard);
  rlimit now{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &now), 0);
  EXPECT_EQ(now.rlim_cur, original.rlim_max);

  // Already at the hard limit: nothing to do.
  auto again = RaiseOpenFileLimit("test");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->before, again->after);
  EXPECT_EQ(again->after, hard);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &original), 0);
}

}  // namespace
}  // namespace spindle
