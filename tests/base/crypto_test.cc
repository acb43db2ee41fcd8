#include "base/crypto.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

TEST(CryptoTest, Sha1KnownVectors) {  // FIPS 180 examples
  EXPECT_EQ(HexEncode(Sha1("")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(HexEncode(Sha1("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
}

TEST(CryptoTest, Md5KnownVectors) {
  EXPECT_EQ(HexEncode(Md5("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(HexEncode(Md5("abc")), "900150983cd24fb0d6963f7d28e17f72");
}

TEST(CryptoTest, HmacSha1Rfc2202) {
  // RFC 2202 test case 2.
  EXPECT_EQ(HexEncode(HmacSha1("Jefe", "what do ya want for nothing?")),
            "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
}

TEST(CryptoTest, HexRoundTripAndRejects) {
  std::string out;
  ASSERT_TRUE(HexDecode("00ff10Ab", &out));
  EXPECT_EQ(HexEncode(out), "00ff10ab");
  EXPECT_FALSE(HexDecode("abc", &out));
  EXPECT_FALSE(HexDecode("zz", &out));
}

TEST(CryptoTest, RandomBytesDiffer) {
  EXPECT_EQ(SecureRandomBytes(16).size(), 16u);
  EXPECT_NE(SecureRandomBytes(16), SecureRandomBytes(16));
}

}  // namespace
}  // namespace spindle
