#include "base/json/json_stream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace spindle::json {
namespace {

// Writes `text` to `name` in a folder of the running test's own.
std::string WriteFile(const std::string& name, const std::string& text) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = ::testing::TempDir() + "/" + info->test_suite_name() + "_" + info->name();
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

using ::testing::HasSubstr;

std::vector<JsonValue> ReadAll(JsonStream* s) {
  std::vector<JsonValue> out;
  JsonValue v;
  while (true) {
    Result<bool> got = s->Next(&v);
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    if (!got.ok() || !*got) break;
    out.push_back(v);
  }
  return out;
}

Status FirstError(const std::string& text) {
  auto s = JsonStream::FromString("t.json", text);
  JsonValue v;
  while (true) {
    Result<bool> got = s->Next(&v);
    if (!got.ok()) return got.status();
    if (!*got) return Status::OK();
  }
}

TEST(JsonStreamTest, ConcatenatedObjects) {
  auto s = JsonStream::FromString("t.json", "{\"a\": 1}\n{\"a\": 2}{\"a\":3}\n");
  std::vector<JsonValue> v = ReadAll(s.get());
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].Find("a")->AsInt64(), 1);
  EXPECT_EQ(v[1].Find("a")->AsInt64(), 2);
  EXPECT_EQ(v[2].Find("a")->AsInt64(), 3);
  EXPECT_EQ(v[0].line(), 1);
  EXPECT_EQ(v[1].line(), 2);
}

TEST(JsonStreamTest, TopLevelArrayYieldsElements) {
  auto s = JsonStream::FromString("t.json", " [ {\"a\": 1},\n {\"a\": [2, 3]} ] \n");
  std::vector<JsonValue> v = ReadAll(s.get());
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(v[0].is_object());
  ASSERT_TRUE(v[1].Find("a")->is_array());
  EXPECT_EQ(v[1].Find("a")->elements().size(), 2u);
  EXPECT_EQ(v[1].line(), 2);
}

TEST(JsonStreamTest, EmptyInputsGiveNothing) {
  EXPECT_TRUE(ReadAll(JsonStream::FromString("t", "").get()).empty());
  EXPECT_TRUE(ReadAll(JsonStream::FromString("t", " \n\t ").get()).empty());
  EXPECT_TRUE(ReadAll(JsonStream::FromString("t", "[]").get()).empty());
}

TEST(JsonStreamTest, ScalarsAndNesting) {
  auto s = JsonStream::FromString(
      "t.json", "{\"n\": null, \"t\": true, \"f\": false, \"o\": {\"x\": {\"y\": [[], {}]}}}");
  std::vector<JsonValue> v = ReadAll(s.get());
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(v[0].Find("n")->is_null());
  EXPECT_TRUE(v[0].Find("t")->bool_value());
  EXPECT_FALSE(v[0].Find("f")->bool_value());
  const JsonValue* y = v[0].Find("o")->Find("x")->Find("y");
  ASSERT_NE(y, nullptr);
  ASSERT_EQ(y->elements().size(), 2u);
  EXPECT_TRUE(y->elements()[0].is_array());
  EXPECT_TRUE(y->elements()[1].is_object());
  EXPECT_EQ(v[0].Find("missing"), nullptr);
}

TEST(JsonStreamTest, Numbers) {
  auto s = JsonStream::FromString(
      "t.json",
      "[0, -7, 1371222054499, 9223372036854775807, 1.5, -2e3, 3E+2, 9223372036854775808]");
  std::vector<JsonValue> v = ReadAll(s.get());
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[0].AsInt64(), 0);
  EXPECT_EQ(v[1].AsInt64(), -7);
  EXPECT_EQ(v[2].AsInt64(), 1371222054499);
  EXPECT_EQ(v[3].AsInt64(), INT64_MAX);
  EXPECT_EQ(v[4].AsInt64(), std::nullopt);  // not an integer
  EXPECT_DOUBLE_EQ(*v[4].AsDouble(), 1.5);
  EXPECT_DOUBLE_EQ(*v[5].AsDouble(), -2000);
  EXPECT_DOUBLE_EQ(*v[6].AsDouble(), 300);
  EXPECT_EQ(v[7].AsInt64(), std::nullopt);  // overflows int64
  EXPECT_EQ(v[2].text(), "1371222054499");
}

TEST(JsonStreamTest, StringEscapes) {
  auto s = JsonStream::FromString(
      "t.json", R"(["a\"b\\c\/d\b\f\n\r\t", "\u0041\u00e9\u20ac", "\ud83d\ude00", "plain é"])");
  std::vector<JsonValue> v = ReadAll(s.get());
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].text(), "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ(v[1].text(), "A\xc3\xa9\xe2\x82\xac");
  EXPECT_EQ(v[2].text(), "\xf0\x9f\x98\x80");
  EXPECT_EQ(v[3].text(), "plain \xc3\xa9");
}

TEST(JsonStreamTest, BadTokensNameFileAndLine) {
  Status s = FirstError("{\"a\": 1}\n{\"a\":\n  tru}\n");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("t.json:3:"));

  EXPECT_THAT(FirstError("{\"a\": 1,}").message(), HasSubstr("t.json:1: bad JSON"));
  EXPECT_THAT(FirstError("{\"a\" 1}").message(), HasSubstr("':' after an object key"));
  EXPECT_THAT(FirstError("{a: 1}").message(), HasSubstr("an object key"));
  EXPECT_THAT(FirstError("[1, 2,]").message(), HasSubstr("t.json:1:"));
  EXPECT_THAT(FirstError("\n\n[1 2]").message(), HasSubstr("t.json:3:"));
  EXPECT_THAT(FirstError("{\"a\": 01}").message(), HasSubstr("leading zero"));
  EXPECT_THAT(FirstError("{\"a\": 1.}").message(), HasSubstr("digit after '.'"));
  EXPECT_THAT(FirstError("{\"a\": -}").message(), HasSubstr("a digit"));
  EXPECT_THAT(FirstError("{\"a\": 1x}").message(), HasSubstr("delimiter after a number"));
  EXPECT_THAT(FirstError("{\"a\": \"x\ty\"}").message(), HasSubstr("control character"));
  EXPECT_THAT(FirstError("{\n\"a\": \"x\ny\"}").message(),
              HasSubstr("t.json:2: bad JSON: control"));
  EXPECT_THAT(FirstError("{\"a\": \"\\q\"}").message(), HasSubstr("escape"));
  EXPECT_THAT(FirstError("{\"a\": \"\\ud800x\"}").message(), HasSubstr("surrogate"));
  EXPECT_THAT(FirstError("{\"a\": \"abc").message(), HasSubstr("unterminated string"));
  EXPECT_THAT(FirstError("{\"a\": 1").message(), HasSubstr("end of input"));
  EXPECT_THAT(FirstError("{\"a\": nul}").message(), HasSubstr("'null'"));
  EXPECT_THAT(FirstError("{\"a\": 1, \"a\": 2}").message(), HasSubstr("duplicate object key"));
  EXPECT_THAT(FirstError("[{}] {}").message(), HasSubstr("after the top-level array"));
  EXPECT_THAT(FirstError("[[[[1]]]]").message(), ::testing::Not(HasSubstr("deeper")));
}

TEST(JsonStreamTest, DepthLimit) {
  JsonStreamOptions o;
  o.max_depth = 3;
  auto s = JsonStream::FromString("t.json", "[[[[1]]]]", o);
  JsonValue v;
  Result<bool> got = s->Next(&v);
  ASSERT_FALSE(got.ok());
  EXPECT_THAT(got.status().message(), HasSubstr("deeper than 3"));
}

TEST(JsonStreamTest, ErrorIsSticky) {
  auto s = JsonStream::FromString("t.json", "{\"a\": 1} {x} {\"a\": 2}");
  JsonValue v;
  ASSERT_TRUE(*s->Next(&v));
  EXPECT_FALSE(s->Next(&v).ok());
  EXPECT_FALSE(s->Next(&v).ok());
}

TEST(JsonStreamTest, ReadsFileInSmallChunks) {
  std::string text;
  for (int i = 0; i < 200; ++i) {
    text +=
        "{\"id\": " + std::to_string(i) + ", \"s\": \"\\u00e9" + std::string(i % 7, 'x') + "\"}\n";
  }
  const std::string path = WriteFile("chunks.json", text);
  JsonStreamOptions o;
  o.chunk_bytes = 3;  // tokens straddle every chunk boundary
  Result<std::unique_ptr<JsonStream>> s = JsonStream::Open(path, o);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  std::vector<JsonValue> v = ReadAll(s->get());
  ASSERT_EQ(v.size(), 200u);
  EXPECT_EQ(v[199].Find("id")->AsInt64(), 199);
  EXPECT_EQ(v[199].line(), 200);
  EXPECT_EQ(v[13].Find("s")->text(), "\xc3\xa9xxxxxx");
}

TEST(JsonStreamTest, MissingFileIsNotFound) {
  Result<std::unique_ptr<JsonStream>> s = JsonStream::Open("/nonexistent/x.json");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.status().IsNotFound());
}

TEST(JsonStreamTest, ProgressCountsWhatWasConsumed) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "{\"k\": " + std::to_string(i) + "}\n";
  const std::string path = WriteFile("progress.json", text);
  JsonStreamOptions small;
  small.chunk_bytes = 16;
  auto stream = JsonStream::Open(path, small);
  ASSERT_TRUE(stream.ok());
  EXPECT_DOUBLE_EQ((*stream)->Progress(), 0.0);
  JsonValue v;
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(*(*stream)->Next(&v));
  EXPECT_NEAR((*stream)->Progress(), 0.5, 0.05);
  while (*(*stream)->Next(&v)) {
  }
  EXPECT_DOUBLE_EQ((*stream)->Progress(), 1.0);
}

}  // namespace
}  // namespace spindle::json
