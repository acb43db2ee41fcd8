#include "replay/trace/hadoop/json_fields.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "base/json/json_stream.h"

namespace spindle::replay::hadoop {
namespace {

using ::testing::HasSubstr;

TEST(JsonFieldsTest, TypedAccessAndErrors) {
  auto s = JsonStream::FromString(
      "f.json", "{\"i\": 12, \"si\": \"34\", \"d\": 1.5, \"s\": \"x\", \"n\": null,\n \"a\": []}");
  JsonValue v;
  ASSERT_TRUE(*s->Next(&v));
  const std::string file = "f.json";
  JsonFields f(file, v, "job.");
  EXPECT_EQ(*f.Int("i"), 12);
  EXPECT_EQ(*f.Int("si"), 34);  // SLS parses integers from strings too
  EXPECT_DOUBLE_EQ(*f.Double("d"), 1.5);
  EXPECT_EQ(*f.String("s"), "x");
  EXPECT_FALSE(f.OptionalInt("n")->has_value());  // null is absent
  EXPECT_FALSE(f.OptionalString("zz")->has_value());
  EXPECT_THAT(f.Int("d").status().message(),
              HasSubstr("f.json:1: field job.d: expected an integer, got number 1.5"));
  EXPECT_THAT(f.Int("s").status().message(), HasSubstr("expected an integer"));
  EXPECT_THAT(f.String("i").status().message(), HasSubstr("expected a string"));
  EXPECT_THAT(f.Int("zz").status().message(), HasSubstr("field job.zz: missing"));
  EXPECT_THAT(f.Object("a").status().message(), HasSubstr("f.json:2: field job.a"));
  EXPECT_TRUE(f.Array("a").ok());
}

}  // namespace
}  // namespace spindle::replay::hadoop
