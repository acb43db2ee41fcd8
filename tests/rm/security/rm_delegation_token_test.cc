#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "base/crypto.h"
#include "rm/config/configuration.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "rm/security/security_config.h"
#include "rm/security/token_identifiers.h"

namespace spindle::rm {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;

constexpr int64_t kWallStart = 1'700'000'000'000;  // 2023-11-14T22:13:20Z
constexpr int64_t kDayMs = 86'400'000;
constexpr char kInvalidToken[] = "org.apache.hadoop.security.token.SecretManager$InvalidToken";
constexpr char kAccessControl[] = "org.apache.hadoop.security.AccessControlException";

std::string Hex(std::string_view hex) {
  std::string compact;
  for (char c : hex) {
    if (c != ' ') compact.push_back(c);
  }
  std::string out;
  EXPECT_TRUE(HexDecode(compact, &out)) << hex;
  return out;
}

RmDelegationTokenIdentifier SampleIdentifier() {
  RmDelegationTokenIdentifier id;
  id.owner = "alice";
  id.renewer = "yarn";
  id.issue_date_ms = kWallStart;
  id.max_date_ms = kWallStart + 7 * kDayMs;
  id.sequence_number = 1;
  id.master_key_id = 2;
  return id;
}

// YARNDelegationTokenIdentifierProto, hand-encoded: tag (field << 3 | wire
// type), then a length and bytes (strings, type 2) or a varint (type 0).
// 1700000000000 = varint 80 d0 95 ff bc 31; 1700604800000 = 80 d8 c7 9f bf 31.
constexpr char kGoldenAllFields[] =
    "0a 05 616c696365"  // owner = "alice"
    "12 04 7961726e"    // renewer = "yarn"
    "1a 00"             // realUser = "" (written: the 2.6 RM's form)
    "20 80d095ffbc31"   // issueDate
    "28 80d8c79fbf31"   // maxDate
    "30 01"             // sequenceNumber = 1
    "38 02";            // masterKeyId = 2
// What a 2.7+/3.x RM writes for the same identifier: default-valued fields
// (the empty realUser) left out.
constexpr char kGoldenNonDefaultFields[] =
    "0a 05 616c696365 12 04 7961726e 20 80d095ffbc31 28 80d8c79fbf31 30 01 38 02";

TEST(RmDelegationTokenIdentifierTest, EncodesTheProtoWithEveryFieldInFieldOrder) {
  EXPECT_EQ(HexEncode(EncodeRmDelegationTokenIdentifier(SampleIdentifier())),
            HexEncode(Hex(kGoldenAllFields)));
}

TEST(RmDelegationTokenIdentifierTest, DecodesBothRmLayoutsAlike) {
  auto all = DecodeRmDelegationTokenIdentifier(Hex(kGoldenAllFields));
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(*all, SampleIdentifier());
  auto sparse = DecodeRmDelegationTokenIdentifier(Hex(kGoldenNonDefaultFields));
  ASSERT_TRUE(sparse.ok()) << sparse.status().ToString();
  EXPECT_EQ(*sparse, SampleIdentifier());
}

TEST(RmDelegationTokenIdentifierTest, RoundTripsUnusualValues) {
  RmDelegationTokenIdentifier id;
  id.owner = "oozie";
  id.renewer = "";
  id.real_user = "hue";
  id.issue_date_ms = -1;
  id.max_date_ms = INT64_MAX;
  id.sequence_number = INT32_MIN;
  id.master_key_id = -7;
  auto back = DecodeRmDelegationTokenIdentifier(EncodeRmDelegationTokenIdentifier(id));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, id);
}

TEST(RmDelegationTokenIdentifierTest, TheGenericWritableLayoutIsNotTheWireFormat) {
  // AbstractDelegationTokenIdentifier.writeImpl of the same identifier:
  // version 0, Text owner/renewer/realUser, VLong dates, VInt numbers. No
  // 2.6+ reader parses it (they all mergeFrom the proto); a 0x00 tag is
  // invalid protobuf, so it is refused here too rather than misread.
  const std::string writable =
      Hex("00 05 616c696365 04 7961726e 00"
          "8a 018bcfe56800 8a 018bf3f1ec00 01 02");
  EXPECT_FALSE(DecodeRmDelegationTokenIdentifier(writable).ok());
}

TEST(RmDelegationTokenIdentifierTest, ToStringIsJavas) {
  EXPECT_EQ(SampleIdentifier().ToString(),
            "owner=alice, renewer=yarn, realUser=, issueDate=1700000000000, "
            "maxDate=1700604800000, sequenceNumber=1, masterKeyId=2");
}

class RmDelegationTokenSecretManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto manager = RmDelegationTokenSecretManager::Create(RmDelegationTokenOptions{}, &clock_);
    ASSERT_TRUE(manager.ok()) << manager.status().ToString();
    manager_ = std::move(manager).value();
  }
  static RmDelegationTokenIdentifier Decode(const Token& token) {
    auto id = DecodeRmDelegationTokenIdentifier(token.identifier);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : RmDelegationTokenIdentifier{};
  }
  static void ExpectError(const Status& status, const char* java_class,
                          const std::string& message) {
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.java_class(), java_class);
    EXPECT_EQ(status.message(), message);
    EXPECT_TRUE(status.IsUnauthorized());
  }

  ManualClock clock_{TimePoint{}, kWallStart};
  std::unique_ptr<RmDelegationTokenSecretManager> manager_;
};

TEST_F(RmDelegationTokenSecretManagerTest, IssuesSignedTokensWithJavasFields) {
  const Token first = manager_->CreateToken("alice", "yarn", "");
  EXPECT_EQ(first.kind, "RM_DELEGATION_TOKEN");
  EXPECT_EQ(first.service, "");  // Java: new Token(id, secretManager)
  RmDelegationTokenIdentifier expected = SampleIdentifier();
  expected.master_key_id = 1;  // the first key
  EXPECT_EQ(Decode(first), expected);
  EXPECT_EQ(first.identifier, EncodeRmDelegationTokenIdentifier(expected));
  EXPECT_EQ(first.password.size(), 20u);  // HMAC-SHA1

  clock_.Advance(milliseconds(5));
  const Token second = manager_->CreateToken("bob", "rm/host.example.com@EXAMPLE.COM", "oozie");
  const RmDelegationTokenIdentifier id = Decode(second);
  EXPECT_EQ(id.sequence_number, 2);
  EXPECT_EQ(id.owner, "bob");
  EXPECT_EQ(id.renewer, "rm");  // short name, as Java's setRenewer
  EXPECT_EQ(id.real_user, "oozie");
  EXPECT_EQ(id.issue_date_ms, kWallStart + 5);
  EXPECT_NE(second.password, first.password);
  EXPECT_EQ(manager_->TokenCount(), 2u);

  auto secret = manager_->RetrieveSecret(second.identifier);
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  EXPECT_EQ(secret->password, second.password);
  EXPECT_EQ(secret->user, "bob");
}

TEST_F(RmDelegationTokenSecretManagerTest, RenewExtendsByTheRenewIntervalForTheRenewer) {
  const Token token = manager_->CreateToken("alice", "yarn", "");
  clock_.Advance(hours(20));
  auto expiry = manager_->Renew(token, "yarn");
  ASSERT_TRUE(expiry.ok()) << expiry.status().ToString();
  EXPECT_EQ(*expiry, kWallStart + 20 * 3'600'000 + kDayMs);
  // Renewed: still valid past the first renew date.
  clock_.Advance(hours(10));
  EXPECT_TRUE(manager_->RetrieveSecret(token.identifier).ok());
}

TEST_F(RmDelegationTokenSecretManagerTest, RenewByANonRenewerIsRefused) {
  const Token token = manager_->CreateToken("alice", "yarn", "");
  ExpectError(manager_->Renew(token, "alice").status(), kAccessControl,
              "alice tries to renew a token with renewer yarn");
  const Token no_renewer = manager_->CreateToken("alice", "", "");
  ExpectError(manager_->Renew(no_renewer, "alice").status(), kAccessControl,
              "alice tried to renew a token without a renewer");
}

TEST_F(RmDelegationTokenSecretManagerTest, RenewWithAWrongPasswordIsRefused) {
  Token token = manager_->CreateToken("alice", "yarn", "");
  token.password[0] = static_cast<char>(token.password[0] ^ 1);
  ExpectError(manager_->Renew(token, "yarn").status(), kAccessControl,
              "yarn is trying to renew a token with wrong password");
}

TEST_F(RmDelegationTokenSecretManagerTest, RenewNearMaxLifetimeCapsAtMaxDate) {
  const Token token = manager_->CreateToken("alice", "yarn", "");
  const int64_t max_date = Decode(token).max_date_ms;
  // Keep it alive daily (Advance() runs the removal scan and key rolls).
  for (int day = 0; day < 6; ++day) {
    clock_.Advance(hours(24) - milliseconds(1));
    manager_->Advance();
    ASSERT_TRUE(manager_->Renew(token, "yarn").ok()) << "day " << day;
  }
  clock_.Advance(hours(12));
  auto expiry = manager_->Renew(token, "yarn");
  ASSERT_TRUE(expiry.ok()) << expiry.status().ToString();
  EXPECT_EQ(*expiry, max_date);
  // Past maxDate renewal is over.
  clock_.Advance(hours(12) + milliseconds(10));
  ExpectError(manager_->Renew(token, "yarn").status(), kInvalidToken,
              "yarn tried to renew an expired token");
}

TEST_F(RmDelegationTokenSecretManagerTest, ExpiredTokensAreRefusedThenForgotten) {
  const Token token = manager_->CreateToken("alice", "yarn", "");
  const std::string described = "token (" + Decode(token).ToString() + ")";
  clock_.Advance(hours(24) + milliseconds(1));
  ExpectError(manager_->RetrieveSecret(token.identifier).status(), kInvalidToken,
              described + " is expired");
  manager_->Advance();  // the removal scan is due (1 h)
  EXPECT_EQ(manager_->TokenCount(), 0u);
  ExpectError(manager_->RetrieveSecret(token.identifier).status(), kInvalidToken,
              described + " can't be found in cache");
  ExpectError(manager_->Renew(token, "yarn").status(), kInvalidToken,
              "Renewal request for unknown token");
}

TEST_F(RmDelegationTokenSecretManagerTest, RemovalScanRunsOnItsInterval) {
  const Token token = manager_->CreateToken("alice", "yarn", "");
  clock_.Advance(hours(24) - std::chrono::minutes(30));
  manager_->Advance();  // a scan: the token is still valid
  EXPECT_EQ(manager_->TokenCount(), 1u);
  clock_.Advance(std::chrono::minutes(30) + milliseconds(1));
  manager_->Advance();  // expired, but the last scan was 30 min ago
  EXPECT_EQ(manager_->TokenCount(), 1u);
  EXPECT_FALSE(manager_->RetrieveSecret(token.identifier).ok());
  clock_.Advance(std::chrono::minutes(31));
  manager_->Advance();  // 1 h since the last scan
  EXPECT_EQ(manager_->TokenCount(), 0u);
}

TEST_F(RmDelegationTokenSecretManagerTest, CancelByOwnerOrRenewerOnly) {
  const Token token = manager_->CreateToken("alice", "yarn", "");
  ExpectError(manager_->Cancel(token, "mallory").status(), kAccessControl,
              "mallory is not authorized to cancel the token");
  auto cancelled = manager_->Cancel(token, "alice");
  ASSERT_TRUE(cancelled.ok()) << cancelled.status().ToString();
  EXPECT_EQ(cancelled->owner, "alice");
  ExpectError(manager_->Cancel(token, "alice").status(), kInvalidToken, "Token not found");
  ExpectError(manager_->Renew(token, "yarn").status(), kInvalidToken,
              "Renewal request for unknown token");

  const Token other = manager_->CreateToken("alice", "yarn", "");
  // The renewer's short name is compared: a principal of the renewer may.
  EXPECT_TRUE(manager_->Cancel(other, "yarn/rm.example.com@EXAMPLE.COM").ok());
  EXPECT_EQ(manager_->TokenCount(), 0u);
}

TEST_F(RmDelegationTokenSecretManagerTest, GarbageIdentifiersAreRefused) {
  Token token;
  token.identifier = std::string("\x00\x01garbage", 9);  // tag 0: invalid
  token.kind = kRmDelegationTokenKind;
  EXPECT_FALSE(manager_->Renew(token, "yarn").ok());
  EXPECT_FALSE(manager_->Cancel(token, "yarn").ok());
  ExpectError(manager_->RetrieveSecret(token.identifier).status(), kInvalidToken,
              "Can't de-serialize tokenIdentifier");
}

TEST_F(RmDelegationTokenSecretManagerTest, KeyRollKeepsOldKeysWhileTheirTokensLive) {
  const Token old_token = manager_->CreateToken("alice", "yarn", "");
  EXPECT_EQ(manager_->CurrentKeyId(), 1);
  clock_.Advance(hours(24));
  EXPECT_FALSE(manager_->Advance());  // due strictly after the interval, as Java
  EXPECT_TRUE(manager_->Renew(old_token, "yarn").ok());
  clock_.Advance(milliseconds(1));
  EXPECT_TRUE(manager_->Advance());
  EXPECT_EQ(manager_->CurrentKeyId(), 2);
  EXPECT_EQ(manager_->KeyCount(), 2u);
  // New tokens use the new key; the old token still renews under key 1.
  const Token new_token = manager_->CreateToken("bob", "yarn", "");
  EXPECT_EQ(Decode(new_token).master_key_id, 2);
  EXPECT_TRUE(manager_->Renew(old_token, "yarn").ok());
  EXPECT_TRUE(manager_->Renew(new_token, "yarn").ok());

  // Daily rolls. Key 1, retired at 1 d + 1 ms, expires 7 days later
  // (8 d + 1 ms) and is dropped at the first roll after that; the current key
  // never is.
  for (int day = 2; day <= 7; ++day) {
    clock_.Advance(hours(24) + milliseconds(1));
    ASSERT_TRUE(manager_->Advance());
  }
  EXPECT_EQ(manager_->CurrentKeyId(), 8);
  EXPECT_EQ(manager_->KeyCount(), 8u);  // keys 1..8
  clock_.Advance(hours(24) + milliseconds(1));
  ASSERT_TRUE(manager_->Advance());
  EXPECT_EQ(manager_->CurrentKeyId(), 9);
  EXPECT_EQ(manager_->KeyCount(), 8u);  // keys 2..9: key 1 gone
}

TEST_F(RmDelegationTokenSecretManagerTest, ConcurrentIssuesGetDistinctSequenceNumbers) {
  std::vector<std::thread> threads;
  std::vector<std::vector<int32_t>> seen(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([this, t, &seen] {
      for (int i = 0; i < 100; ++i) {
        const Token token = manager_->CreateToken("u" + std::to_string(t), "yarn", "");
        seen[t].push_back(Decode(token).sequence_number);
        if (i % 10 == 0) manager_->Advance();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<int32_t> all;
  for (const auto& s : seen) all.insert(s.begin(), s.end());
  EXPECT_EQ(all.size(), 400u);
  EXPECT_EQ(*all.begin(), 1);
  EXPECT_EQ(*all.rbegin(), 400);
}

TEST(RmDelegationTokenOptionsTest, ReadsJavasKeysAndDefaults) {
  Configuration conf;
  auto defaults = RmDelegationTokenOptionsFromConfiguration(conf);
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();
  EXPECT_EQ(defaults->key_update_interval, hours(24));
  EXPECT_EQ(defaults->renew_interval, hours(24));
  EXPECT_EQ(defaults->max_lifetime, hours(24 * 7));
  EXPECT_EQ(defaults->removal_scan_interval, hours(1));

  conf.Set("yarn.resourcemanager.delegation.key.update-interval", "60000");
  conf.Set("yarn.resourcemanager.delegation.token.renew-interval", "120000");
  conf.Set("yarn.resourcemanager.delegation.token.max-lifetime", "3600000");
  auto set = RmDelegationTokenOptionsFromConfiguration(conf);
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  EXPECT_EQ(set->key_update_interval, milliseconds(60000));
  EXPECT_EQ(set->renew_interval, milliseconds(120000));
  EXPECT_EQ(set->max_lifetime, milliseconds(3600000));

  conf.Set("yarn.resourcemanager.delegation.token.max-lifetime", "0");
  auto bad = RmDelegationTokenOptionsFromConfiguration(conf);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("yarn.resourcemanager.delegation.token.max-lifetime"),
            std::string::npos);
}

TEST(RmDelegationTokenOptionsTest, ShortNames) {
  EXPECT_EQ(RmDelegationTokenSecretManager::ShortName("yarn"), "yarn");
  EXPECT_EQ(RmDelegationTokenSecretManager::ShortName("yarn@EXAMPLE.COM"), "yarn");
  EXPECT_EQ(RmDelegationTokenSecretManager::ShortName("rm/host@EXAMPLE.COM"), "rm");
}

}  // namespace
}  // namespace spindle::rm
