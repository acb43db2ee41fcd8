#include "base/strings/trim.h"

#include <gtest/gtest.h>

#include <string>

namespace spindle {
namespace {

TEST(TrimBlanksTest, DropsSpaceTabCrAndLfAtBothEndsOnly) {
  EXPECT_EQ(TrimBlanks(" \t\r\nalice bob\n\r\t "), "alice bob");
  EXPECT_EQ(TrimBlanks("alice"), "alice");
  EXPECT_EQ(TrimBlanks("\vx\f"), "\vx\f");  // not among Hadoop's list blanks here
}

TEST(TrimBlanksTest, AllBlankOrEmptyIsEmpty) {
  EXPECT_EQ(TrimBlanks(""), "");
  EXPECT_EQ(TrimBlanks(" \t\r\n "), "");
}

TEST(TrimBlanksTest, ViewsTheGivenCharacters) {
  const std::string text = "  a,b  ";
  const std::string_view trimmed = TrimBlanks(text);
  EXPECT_EQ(trimmed.data(), text.data() + 2);
  EXPECT_EQ(trimmed.size(), 3u);
}

}  // namespace
}  // namespace spindle
