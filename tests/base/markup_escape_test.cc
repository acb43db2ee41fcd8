#include "base/markup_escape.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

TEST(MarkupEscapeTest, EachModeEscapesWhatItsPlaceNeeds) {
  const std::string text = "a<b & c>'d'\"e\"";
  EXPECT_EQ(EscapeMarkup(text, MarkupEscape::kText), "a&lt;b &amp; c&gt;'d'\"e\"");
  EXPECT_EQ(EscapeMarkup(text, MarkupEscape::kAttribute), "a&lt;b &amp; c&gt;'d'&quot;e&quot;");
  EXPECT_EQ(EscapeMarkup(text), "a&lt;b &amp; c&gt;&#39;d&#39;&quot;e&quot;");
  EXPECT_EQ(EscapeMarkup("plain \xc3\xa9"), "plain \xc3\xa9");
  EXPECT_EQ(EscapeMarkup(""), "");
}

}  // namespace
}  // namespace spindle
