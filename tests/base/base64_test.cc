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

}  // namespace
}  // namespace spindle
