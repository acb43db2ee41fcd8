#include "base/base64.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

TEST(Base64Test, Rfc4648Vectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
}

TEST(Base64Test, RoundTripsAllByteValues) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (size_t len = 0; len <= bytes.size(); len += 17) {
    auto decoded = Base64Decode(Base64Encode(bytes.substr(0, len)));
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(*decoded, bytes.substr(0, len));
  }
}

TEST(Base64Test, RejectsMalformedInput) {
  EXPECT_FALSE(Base64Decode("Zg=").ok());       // length
  EXPECT_FALSE(Base64Decode("Z===").ok());      // padding too early
  EXPECT_FALSE(Base64Decode("Zg==Zg==").ok());  // padding before the end
  EXPECT_FALSE(Base64Decode("Zm9*").ok());      // alphabet
  EXPECT_FALSE(Base64Decode("Zm=v").ok());      // data after padding
}

TEST(Base64Test, LenientTakesUrlSafeAlphabetAndMissingPadding) {
  const std::string bytes("\xfb\xff\xbf\x01", 4);  // "+/+/AQ==" in the standard alphabet
  EXPECT_EQ(Base64Encode(bytes), "+/+/AQ==");
  // Token.encodeToUrlString's form: URL-safe, unpadded.
  EXPECT_EQ(Base64UrlEncode(bytes), "-_-_AQ");
  EXPECT_EQ(Base64UrlEncode("ab"), "YWI");
  EXPECT_EQ(Base64UrlEncode(""), "");
  EXPECT_EQ(*Base64DecodeLenient("-_-_AQ"), bytes);
  EXPECT_EQ(*Base64DecodeLenient("+/+/AQ=="), bytes);
  EXPECT_EQ(*Base64DecodeLenient(""), "");
  EXPECT_FALSE(Base64DecodeLenient("Zm9*").ok());
  EXPECT_FALSE(Base64DecodeLenient("Z").ok());  // one character is no byte
}

}  // namespace
}  // namespace spindle
