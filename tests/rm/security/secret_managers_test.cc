#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "base/crypto.h"
#include "rm/config/configuration.h"
#include "rm/security/amrm_token_secret_manager.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/nm_token_secret_manager.h"
#include "rm/security/security_config.h"
#include "yarn_security_token.pb.h"

namespace spindle::rm {
namespace {

using std::chrono::hours;
using std::chrono::minutes;

const ApplicationAttemptId kAttempt{ApplicationId{1700000000000, 7}, 1};
const ApplicationAttemptId kOtherAttempt{ApplicationId{1700000000000, 8}, 2};

KeyRollingOptions Keys(int32_t first_key_id) {
  KeyRollingOptions keys;
  keys.first_key_id = first_key_id;
  return keys;  // 24 h rolling, 15 min activation
}

class AmrmTokenSecretManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto manager = AmrmTokenSecretManager::Create(Keys(500), &clock_);
    ASSERT_TRUE(manager.ok()) << manager.status().ToString();
    manager_ = std::move(manager).value();
  }
  void Roll() {
    clock_.Advance(hours(24));
    ASSERT_EQ(manager_->Advance().rolled, 1);
  }
  void Activate() {
    clock_.Advance(minutes(15));
    ASSERT_EQ(manager_->Advance().activated, 1);
  }
  static void ExpectInvalidToken(const Result<AmrmTokenSecret>& result,
                                 const std::string& message) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().java_class(),
              "org.apache.hadoop.security.token.SecretManager$InvalidToken");
    EXPECT_EQ(result.status().message(), message);
    EXPECT_TRUE(result.status().IsUnauthorized());
  }

  ManualClock clock_;
  std::unique_ptr<AmrmTokenSecretManager> manager_;
};

TEST_F(AmrmTokenSecretManagerTest, TokenOfARegisteredAttemptVerifies) {
  const Token token = manager_->CreateToken(kAttempt);
  EXPECT_EQ(token.kind, "YARN_AM_RM_TOKEN");
  EXPECT_EQ(token.service, "");
  EXPECT_EQ(token.password.size(), 20u);
  EXPECT_TRUE(manager_->IsAttemptRegistered(kAttempt));
  auto secret = manager_->RetrieveSecret(token.identifier);
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  EXPECT_EQ(secret->password, token.password);
  EXPECT_EQ(secret->user, "appattempt_1700000000000_0007_000001");
  EXPECT_EQ(token.password, HmacSha1(manager_->Keys().current.bytes, token.identifier));
}

TEST_F(AmrmTokenSecretManagerTest, RejectsUnknownAndFinishedAttempts) {
  const Token token = manager_->CreateToken(kAttempt);
  // Right key, attempt never registered.
  ExpectInvalidToken(manager_->RetrieveSecret(EncodeAmrmTokenIdentifier(kOtherAttempt, 500)),
                     "appattempt_1700000000000_0008_000002 not found in AMRMTokenSecretManager.");
  manager_->AttemptFinished(kAttempt);
  EXPECT_FALSE(manager_->IsAttemptRegistered(kAttempt));
  ExpectInvalidToken(manager_->RetrieveSecret(token.identifier),
                     "appattempt_1700000000000_0007_000001 not found in AMRMTokenSecretManager.");
  // Recovery after an RM restart registers it again.
  manager_->AddRecoveredAttempt(kAttempt);
  EXPECT_TRUE(manager_->RetrieveSecret(token.identifier).ok());
}

TEST_F(AmrmTokenSecretManagerTest, RejectsUnknownKeysAndGarbage) {
  (void)manager_->CreateToken(kAttempt);
  ExpectInvalidToken(manager_->RetrieveSecret(EncodeAmrmTokenIdentifier(kAttempt, 499)),
                     "Invalid AMRMToken from appattempt_1700000000000_0007_000001");
  ExpectInvalidToken(manager_->RetrieveSecret("\x0a\x05garbage"),
                     "Can't de-serialize tokenIdentifier");
  ExpectInvalidToken(manager_->RetrieveSecret(""), "null not found in AMRMTokenSecretManager.");
}

TEST_F(AmrmTokenSecretManagerTest, FollowsJavasKeyRollOver) {
  const Token old_token = manager_->CreateToken(kAttempt);
  EXPECT_FALSE(manager_->NeedsNewToken(500));
  Roll();
  // A next key exists: new tokens use it at once, old ones still verify, and
  // allocate must re-issue the AM's token.
  EXPECT_TRUE(manager_->NeedsNewToken(500));
  const Token new_token = manager_->CreateToken(kAttempt);
  EXPECT_NE(new_token.identifier, old_token.identifier);
  EXPECT_EQ(new_token.identifier, EncodeAmrmTokenIdentifier(kAttempt, 501));
  EXPECT_FALSE(manager_->NeedsNewToken(501));
  EXPECT_TRUE(manager_->RetrieveSecret(old_token.identifier).ok());
  EXPECT_TRUE(manager_->RetrieveSecret(new_token.identifier).ok());
  Activate();
  // The old current key is forgotten, as in Java.
  ExpectInvalidToken(manager_->RetrieveSecret(old_token.identifier),
                     "Invalid AMRMToken from appattempt_1700000000000_0007_000001");
  auto secret = manager_->RetrieveSecret(new_token.identifier);
  ASSERT_TRUE(secret.ok());
  EXPECT_EQ(secret->password, new_token.password);
  EXPECT_FALSE(manager_->NeedsNewToken(501));
}

TEST_F(AmrmTokenSecretManagerTest, ConcurrentLookupsCreationsAndRolls) {
  const Token token = manager_->CreateToken(kAttempt);
  // The roller crosses the roll at 24 h, not the activation at 24 h 15: every
  // token made during the test stays valid, under key 500 or 501.
  clock_.Advance(hours(23) + minutes(50));
  std::vector<std::thread> threads;
  threads.reserve(5);
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        const ApplicationAttemptId attempt{ApplicationId{1, t * 1000 + i}, 1};
        const Token mine = manager_->CreateToken(attempt);
        if (!manager_->RetrieveSecret(mine.identifier).ok()) ++failures;
        manager_->AttemptFinished(attempt);
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; i < 20; ++i) {
      clock_.Advance(minutes(1));
      (void)manager_->Advance();
      (void)manager_->RetrieveSecret(token.identifier);
    }
  });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_TRUE(manager_->NeedsNewToken(500));
  EXPECT_TRUE(manager_->RetrieveSecret(token.identifier).ok());
}

TEST(ContainerTokenSecretManagerTest, StampsExpiryKeyAndRmIdentifier) {
  ManualClock clock(TimePoint{}, /*wall_base_millis=*/1700000100000);
  ContainerTokenSecretManager::Options options;
  options.keys = Keys(-3);
  options.rm_identifier = 1700000000000;
  auto manager = ContainerTokenSecretManager::Create(options, &clock);
  ASSERT_TRUE(manager.ok()) << manager.status().ToString();

  ContainerTokenRequest request;
  request.container_id = ContainerId{kAttempt, 2};
  request.node_id = NodeId{"node-1", 45454};
  request.nm_service = "10.0.0.1:45454";
  request.app_submitter = "alice";
  request.resource.set_memory(2048);
  request.resource.set_virtual_cores(2);
  request.priority = 20;
  request.creation_time_ms = 1700000099000;
  const Token token = (*manager)->CreateContainerToken(request);
  EXPECT_EQ(token.kind, "ContainerToken");
  EXPECT_EQ(token.service, "10.0.0.1:45454");
  hadoop::yarn::ContainerTokenIdentifierProto proto;
  ASSERT_TRUE(proto.ParseFromString(token.identifier));
  EXPECT_EQ(proto.expirytimestamp(), 1700000100000 + 600000);
  EXPECT_EQ(proto.masterkeyid(), -3);
  EXPECT_EQ(proto.rmidentifier(), 1700000000000);
  EXPECT_EQ(proto.nmhostaddr(), "node-1:45454");
  EXPECT_EQ(proto.containertype(), hadoop::yarn::TASK);  // 3.x layout by default
  EXPECT_EQ(token.password, HmacSha1((*manager)->CurrentKey().bytes, token.identifier));

  // After a roll the current key still signs; the next key goes to NMs.
  clock.Advance(hours(24));
  ASSERT_EQ((*manager)->Advance().rolled, 1);
  ASSERT_TRUE(proto.ParseFromString((*manager)->CreateContainerToken(request).identifier));
  EXPECT_EQ(proto.masterkeyid(), -3);
  EXPECT_EQ(proto.expirytimestamp(), 1700000100000 + int64_t{24} * 3600 * 1000 + 600000);
  ASSERT_TRUE((*manager)->KeyForHeartbeat(-3).has_value());
  EXPECT_EQ((*manager)->KeyForHeartbeat(-3)->key_id, -2);
  EXPECT_FALSE((*manager)->KeyForHeartbeat(-2).has_value());
  clock.Advance(minutes(15));
  ASSERT_EQ((*manager)->Advance().activated, 1);
  ASSERT_TRUE(proto.ParseFromString((*manager)->CreateContainerToken(request).identifier));
  EXPECT_EQ(proto.masterkeyid(), -2);
  EXPECT_EQ((*manager)->CurrentKey().key_id, -2);
}

TEST(ContainerTokenSecretManagerTest, RejectsBadOptions) {
  ManualClock clock;
  ContainerTokenSecretManager::Options options;
  options.token_expiry_ms = 0;
  EXPECT_FALSE(ContainerTokenSecretManager::Create(options, &clock).ok());
}

TEST(NmTokenSecretManagerTest, OneTokenPerNodeUntilTheKeyChanges) {
  ManualClock clock;
  auto made = NmTokenSecretManager::Create(Keys(40), &clock);
  ASSERT_TRUE(made.ok());
  NmTokenSecretManager& manager = **made;
  const NodeId node1{"node-1", 45454};
  const NodeId node2{"node-2", 45454};
  const std::vector<NmTokenSecretManager::NodeAddress> nodes = {
      {node1, "10.0.0.1:45454"}, {node2, "10.0.0.2:45454"}, {node1, "10.0.0.1:45454"}};

  // Unregistered attempts get nothing.
  EXPECT_TRUE(manager.CreateTokensForNewNodes(kAttempt, "alice", nodes).empty());
  manager.RegisterAttempt(kAttempt);
  auto tokens = manager.CreateTokensForNewNodes(kAttempt, "alice", nodes);
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].node, node1);
  EXPECT_EQ(tokens[0].token.service, "10.0.0.1:45454");
  EXPECT_EQ(tokens[0].token.kind, "NMToken");
  EXPECT_EQ(tokens[0].token.identifier, EncodeNmTokenIdentifier(kAttempt, node1, "alice", 40));
  EXPECT_EQ(tokens[1].node, node2);
  EXPECT_TRUE(manager.HasTokenFor(kAttempt, node2));
  EXPECT_TRUE(manager.CreateTokensForNewNodes(kAttempt, "alice", nodes).empty());

  // A node that reconnects gets a fresh token.
  manager.RemoveNode(node2);
  tokens = manager.CreateTokensForNewNodes(kAttempt, "alice", nodes);
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].node, node2);

  // A roll alone changes nothing for AMs; an activation re-issues everything.
  clock.Advance(hours(24));
  ASSERT_EQ(manager.Advance().rolled, 1);
  EXPECT_TRUE(manager.CreateTokensForNewNodes(kAttempt, "alice", nodes).empty());
  EXPECT_EQ(manager.KeyForHeartbeat(40)->key_id, 41);
  clock.Advance(minutes(15));
  ASSERT_EQ(manager.Advance().activated, 1);
  tokens = manager.CreateTokensForNewNodes(kAttempt, "alice", nodes);
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].token.identifier, EncodeNmTokenIdentifier(kAttempt, node1, "alice", 41));
  EXPECT_EQ(tokens[0].token.password,
            HmacSha1(manager.CurrentKey().bytes, tokens[0].token.identifier));

  manager.UnregisterAttempt(kAttempt);
  EXPECT_FALSE(manager.IsAttemptRegistered(kAttempt));
  EXPECT_TRUE(manager.CreateTokensForNewNodes(kAttempt, "alice", nodes).empty());
}

TEST(SecurityConfigTest, DefaultsAreJavas) {
  Configuration conf;
  auto amrm = KeyRollingOptionsFromConfiguration(conf, KeyFamily::kAmrmTokens);
  ASSERT_TRUE(amrm.ok()) << amrm.status().ToString();
  EXPECT_EQ(amrm->family, KeyFamily::kAmrmTokens);
  EXPECT_EQ(amrm->rolling_interval, std::chrono::seconds(86400));
  EXPECT_EQ(amrm->activation_delay, std::chrono::milliseconds(900000));
  auto container = ContainerTokenOptionsFromConfiguration(conf, 1234);
  ASSERT_TRUE(container.ok()) << container.status().ToString();
  EXPECT_EQ(container->token_expiry_ms, 600000);
  EXPECT_EQ(container->rm_identifier, 1234);
  EXPECT_EQ(container->keys.family, KeyFamily::kContainerTokens);
}

TEST(SecurityConfigTest, ReadsHadoopKeys) {
  Configuration conf;
  conf.Set("yarn.resourcemanager.nm-tokens.master-key-rolling-interval-secs", "3600");
  conf.Set("yarn.nm.liveness-monitor.expiry-interval-ms", "60000");
  conf.Set("yarn.am.liveness-monitor.expiry-interval-ms", "1000");
  conf.Set("yarn.resourcemanager.rm.container-allocation.expiry-interval-ms", "30000");
  auto nm = KeyRollingOptionsFromConfiguration(conf, KeyFamily::kNmTokens);
  ASSERT_TRUE(nm.ok()) << nm.status().ToString();
  EXPECT_EQ(nm->rolling_interval, std::chrono::seconds(3600));
  EXPECT_EQ(nm->activation_delay, std::chrono::milliseconds(90000));
  auto amrm = KeyRollingOptionsFromConfiguration(conf, KeyFamily::kAmrmTokens);
  ASSERT_TRUE(amrm.ok());
  EXPECT_EQ(amrm->activation_delay, std::chrono::milliseconds(1500));
  auto container = ContainerTokenOptionsFromConfiguration(conf, 0);
  ASSERT_TRUE(container.ok());
  EXPECT_EQ(container->token_expiry_ms, 30000);
}

TEST(SecurityConfigTest, RejectsWhatJavaRejects) {
  Configuration conf;
  conf.Set("yarn.resourcemanager.container-tokens.master-key-rolling-interval-secs", "1800");
  auto bad = KeyRollingOptionsFromConfiguration(conf, KeyFamily::kContainerTokens);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("should be more than 3 X"), std::string::npos);

  Configuration not_a_number;
  not_a_number.Set("yarn.resourcemanager.am-rm-tokens.master-key-rolling-interval-secs", "soon");
  EXPECT_FALSE(KeyRollingOptionsFromConfiguration(not_a_number, KeyFamily::kAmrmTokens).ok());

  Configuration negative;
  negative.Set("yarn.resourcemanager.rm.container-allocation.expiry-interval-ms", "-1");
  EXPECT_FALSE(ContainerTokenOptionsFromConfiguration(negative, 0).ok());
}

}  // namespace
}  // namespace spindle::rm
