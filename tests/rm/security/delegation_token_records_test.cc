#include "rm/security/delegation_token_records.h"

#include <gtest/gtest.h>

#include "base/crypto.h"

namespace spindle::rm {
namespace {

constexpr int64_t kWallStart = 1'700'000'000'000;  // 2023-11-14T22:13:20Z
constexpr int64_t kDayMs = 86'400'000;

std::string Hex(std::string_view hex) {
  std::string compact;
  for (char c : hex) {
    if (c != ' ') compact.push_back(c);
  }
  std::string out;
  EXPECT_TRUE(HexDecode(compact, &out)) << hex;
  return out;
}

void ExpectCorruption(const Status& status, std::string_view what) {
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), Status::Code::kCorruption) << status.ToString();
  EXPECT_NE(status.message().find(what), std::string::npos) << status.ToString();
}

DelegationKeyRecord SampleKey() {
  return DelegationKeyRecord{2, kWallStart, Hex("0001020304050607")};
}

// Hadoop's DelegationKey.write(): WritableUtils.writeVInt(keyId),
// writeVLong(expiryDate), writeVInt(keyBytes.length), then the bytes.
constexpr char kGoldenKey[] =
    "02"               // keyId = 2
    "8a 018bcfe56800"  // expiryDate = 1700000000000: -112 - 6 bytes, big-endian
    "08"               // 8 key bytes
    "0001020304050607";

TEST(DelegationKeyRecordTest, EncodesHadoopsDelegationKeyWritable) {
  EXPECT_EQ(HexEncode(EncodeDelegationKeyRecord(SampleKey())), HexEncode(Hex(kGoldenKey)));
  auto back = DecodeDelegationKeyRecord(Hex(kGoldenKey));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, SampleKey());
}

TEST(DelegationKeyRecordTest, MultiByteAndNegativeValues) {
  // keyId 200 = 8f c8 (WritableUtils' example); expiry -200 = 87 c7.
  const DelegationKeyRecord key{200, -200, "k"};
  EXPECT_EQ(HexEncode(EncodeDelegationKeyRecord(key)), "8fc887c7016b");
  for (const DelegationKeyRecord& k :
       {key, DelegationKeyRecord{INT32_MIN, INT64_MAX, std::string(300, '\xff')},
        DelegationKeyRecord{INT32_MAX, INT64_MIN, std::string("\0\x01", 2)}}) {
    auto back = DecodeDelegationKeyRecord(EncodeDelegationKeyRecord(k));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, k);
  }
}

TEST(DelegationKeyRecordTest, BadBytesAreCorruptionNamingTheProblem) {
  ExpectCorruption(DecodeDelegationKeyRecord("").status(), "delegation key: truncated VLong");
  ExpectCorruption(DecodeDelegationKeyRecord(Hex("02 8a 018b")).status(),
                   "delegation key: truncated VLong at offset 1");
  // Java writes length -1 for a key without bytes.
  ExpectCorruption(DecodeDelegationKeyRecord(Hex("02 00 ff")).status(),
                   "key 2 has no key bytes at offset 2");
  ExpectCorruption(DecodeDelegationKeyRecord(Hex("02 00 fe")).status(),
                   "negative length -2 of the key bytes");
  ExpectCorruption(DecodeDelegationKeyRecord(Hex("02 00 08 0001")).status(),
                   "need 8 bytes, 2 left");
  ExpectCorruption(DecodeDelegationKeyRecord(Hex(kGoldenKey) + "x").status(),
                   "1 trailing bytes at offset 17");
  // keyId must fit an int.
  ExpectCorruption(DecodeDelegationKeyRecord(Hex("8b 0100000000 00 01 6b")).status(),
                   "does not fit an int");
}

DelegationTokenRecord SampleToken() {
  DelegationTokenRecord token;
  token.identifier.owner = "alice";
  token.identifier.renewer = "yarn";
  token.identifier.issue_date_ms = kWallStart;
  token.identifier.max_date_ms = kWallStart + 7 * kDayMs;
  token.identifier.sequence_number = 1;
  token.identifier.master_key_id = 2;
  token.renew_date_ms = kWallStart + kDayMs;
  return token;
}

// RMDelegationTokenIdentifierDataProto: field 1 (length-delimited) holds the
// YARNDelegationTokenIdentifierProto with all seven fields (33 bytes, the
// bytes of the token's identifier), field 2 (varint) the renew date
// 1700086400000.
constexpr char kGoldenToken[] =
    "0a 21"
    "0a 05 616c696365 12 04 7961726e 1a 00 20 80d095ffbc31 28 80d8c79fbf31 30 01 38 02"
    "10 8088afa8bd31";

TEST(DelegationTokenRecordTest, EncodesTheDataProtoWithTheIdentifiersBytes) {
  const std::string bytes = EncodeDelegationTokenRecord(SampleToken());
  EXPECT_EQ(HexEncode(bytes), HexEncode(Hex(kGoldenToken)));
  // The nested message is byte for byte the token's identifier.
  EXPECT_EQ(bytes.substr(2, 33), EncodeRmDelegationTokenIdentifier(SampleToken().identifier));
  auto back = DecodeDelegationTokenRecord(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, SampleToken());
}

TEST(DelegationTokenRecordTest, DecodesTheSparseFormOfNewerRms) {
  // A 2.7+ RM leaves the empty realUser out of the identifier.
  const std::string sparse =
      Hex("0a 1f 0a 05 616c696365 12 04 7961726e 20 80d095ffbc31 28 80d8c79fbf31 30 01 38 02"
          "10 8088afa8bd31");
  auto decoded = DecodeDelegationTokenRecord(sparse);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, SampleToken());
}

TEST(DelegationTokenRecordTest, RoundTripsUnusualValues) {
  DelegationTokenRecord token;
  token.identifier.owner = "oozie/host@EXAMPLE.COM";
  token.identifier.real_user = "hue";
  token.identifier.issue_date_ms = -1;
  token.identifier.max_date_ms = INT64_MAX;
  token.identifier.sequence_number = INT32_MIN;
  token.identifier.master_key_id = -7;
  token.renew_date_ms = INT64_MIN;
  auto back = DecodeDelegationTokenRecord(EncodeDelegationTokenRecord(token));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, token);
}

TEST(DelegationTokenRecordTest, BadBytesAreCorruptionNamingTheProblem) {
  ExpectCorruption(
      DecodeDelegationTokenRecord(std::string("\x00\x01garbage", 9)).status(),
      "delegation token record: not an RMDelegationTokenIdentifierDataProto (9 bytes)");
  ExpectCorruption(DecodeDelegationTokenRecord(Hex("0a 21 0a 05")).status(),
                   "not an RMDelegationTokenIdentifierDataProto");
  ExpectCorruption(DecodeDelegationTokenRecord("").status(),
                   "delegation token record: no token_identifier");
  ExpectCorruption(DecodeDelegationTokenRecord(Hex("10 8088afa8bd31")).status(),
                   "no token_identifier");
  ExpectCorruption(DecodeDelegationTokenRecord(Hex("0a 00")).status(),
                   "delegation token record: no renewDate");
}

}  // namespace
}  // namespace spindle::rm
