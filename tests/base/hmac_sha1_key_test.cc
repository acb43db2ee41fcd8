#include "base/hmac_sha1_key.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "base/crypto.h"

namespace spindle {
namespace {

TEST(HmacSha1KeyTest, Rfc2202Vectors) {
  // Test case 1: a 20-byte key.
  EXPECT_EQ(HexEncode(HmacSha1Key(std::string(20, '\x0b')).Sign("Hi There")),
            "b617318655057264e28bc0b6fb378c8ef146be00");
  // Test case 2: a key shorter than the block.
  EXPECT_EQ(HexEncode(HmacSha1Key("Jefe").Sign("what do ya want for nothing?")),
            "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
  // Test case 6: an 80-byte key, longer than the block, is hashed first.
  EXPECT_EQ(HexEncode(HmacSha1Key(std::string(80, '\xaa'))
                          .Sign("Test Using Larger Than Block-Size Key - Hash Key First")),
            "aa4ae5e15272d00e95705637ce8a3b55ed402112");
}

TEST(HmacSha1KeyTest, SameAsOneShotForEveryKeyAndMessageLength) {
  // Key lengths around the 64-byte block, messages around it too, and one
  // key signing many messages in a row (the state must not carry over).
  for (size_t key_length : {0u, 1u, 8u, 63u, 64u, 65u, 200u}) {
    const std::string key = SecureRandomBytes(key_length);
    const HmacSha1Key keyed(key);
    for (size_t data_length : {0u, 1u, 55u, 56u, 64u, 119u, 1000u}) {
      const std::string data = SecureRandomBytes(data_length);
      EXPECT_EQ(keyed.Sign(data), HmacSha1(key, data))
          << "key " << key_length << " bytes, data " << data_length << " bytes";
    }
  }
}

TEST(HmacSha1KeyTest, SignsFromManyThreadsAtOnce) {
  const std::string key = SecureRandomBytes(8);
  const HmacSha1Key keyed(key);
  std::vector<std::string> messages;
  for (int i = 0; i < 64; ++i) messages.push_back("token identifier " + std::to_string(i));
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round) {
        for (const std::string& m : messages) {
          if (keyed.Sign(m) != HmacSha1(key, m)) ++mismatches[t];
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace spindle
