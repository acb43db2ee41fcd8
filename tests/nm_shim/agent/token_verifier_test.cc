#include "nm_shim/agent/token_verifier.h"

#include <gtest/gtest.h>

#include "base/crypto.h"
#include "rm/security/token_identifiers.h"
#include "tests/nm_shim/agent/test_tokens.h"

namespace spindle::nm {
namespace {

constexpr int64_t kNow = 1'700'000'100'000;
constexpr int64_t kRm = testing::kRmIdentifier;

class TokenVerifierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    keys_.Apply(NodeTokenKeys::Family::kContainerTokens, {7, "container-key-7"});
    keys_.Apply(NodeTokenKeys::Family::kNmTokens, {11, "nm-key-11"});
    keys_.set_rm_identifier(kRm);
  }

  rm::ApplicationAttemptId Attempt(int32_t app) const { return testing::Attempt(app); }
  hadoop::common::TokenProto ContainerToken(int32_t app, const std::string& key, int32_t key_id,
                                            const rm::NodeId& node, int64_t expiry,
                                            int64_t rm_identifier = kRm) const {
    return testing::ContainerToken(app, 2, key, key_id, node, expiry, rm_identifier);
  }

  const rm::NodeId node_{"127.0.0.1", 4000};
  NodeTokenKeys keys_;
};

TEST_F(TokenVerifierTest, GoodTokenVerifies) {
  auto v = VerifyContainerToken(ContainerToken(1, "container-key-7", 7, node_, kNow + 1000), node_,
                                keys_, Attempt(1), kNow);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(v->container, (rm::ContainerId{Attempt(1), 2}));
  EXPECT_EQ(v->identifier.appsubmitter(), "alice");
  EXPECT_EQ(v->identifier.resource().memory(), 512);
}

TEST_F(TokenVerifierTest, PreviousKeyStillVerifiesAfterARoll) {
  keys_.Apply(NodeTokenKeys::Family::kContainerTokens, {8, "container-key-8"});
  EXPECT_TRUE(VerifyContainerToken(ContainerToken(1, "container-key-7", 7, node_, kNow + 1), node_,
                                   keys_, Attempt(1), kNow)
                  .ok());
  EXPECT_TRUE(VerifyContainerToken(ContainerToken(1, "container-key-8", 8, node_, kNow + 1), node_,
                                   keys_, Attempt(1), kNow)
                  .ok());
  keys_.Apply(NodeTokenKeys::Family::kContainerTokens, {9, "container-key-9"});
  auto old = VerifyContainerToken(ContainerToken(1, "container-key-7", 7, node_, kNow + 1), node_,
                                  keys_, Attempt(1), kNow);
  EXPECT_EQ(old.status().java_class(), java::kInvalidToken) << "two rolls later key 7 is gone";
}

TEST_F(TokenVerifierTest, Matrix) {
  struct Case {
    const char* name;
    hadoop::common::TokenProto token;
    rm::ApplicationAttemptId caller;
    const char* java_class;
    const char* message;
  };
  hadoop::common::TokenProto garbage;
  garbage.set_identifier("\xff\xff\xff");
  garbage.set_password("x");
  const std::vector<Case> cases = {
      {"wrong key bytes", ContainerToken(1, "forged", 7, node_, kNow + 1000), Attempt(1),
       java::kInvalidToken, "Invalid container token"},
      {"unknown key id", ContainerToken(1, "container-key-7", 99, node_, kNow + 1000), Attempt(1),
       java::kInvalidToken, "illegally generated"},
      {"expired", ContainerToken(1, "container-key-7", 7, node_, kNow - 1), Attempt(1),
       java::kYarnException, "This token is expired"},
      {"another node", ContainerToken(1, "container-key-7", 7, {"127.0.0.2", 4000}, kNow + 1000),
       Attempt(1), java::kInvalidToken, "not valid for current Node manager"},
      {"NMToken of another app", ContainerToken(1, "container-key-7", 7, node_, kNow + 1000),
       Attempt(2), java::kYarnException, "was used for starting container"},
      {"previous RM", ContainerToken(1, "container-key-7", 7, node_, kNow + 1000, kRm - 1),
       Attempt(1), java::kInvalidContainer, "allocated by a previous RM"},
      {"not an identifier", garbage, Attempt(1), java::kInvalidToken, "Invalid container token"},
  };
  for (const auto& c : cases) {
    auto v = VerifyContainerToken(c.token, node_, keys_, c.caller, kNow);
    ASSERT_FALSE(v.ok()) << c.name;
    EXPECT_EQ(v.status().java_class(), c.java_class) << c.name;
    EXPECT_NE(v.status().message().find(c.message), std::string::npos)
        << c.name << ": " << v.status().message();
  }
}

TEST_F(TokenVerifierTest, NmTokens) {
  const std::string id = rm::EncodeNmTokenIdentifier(Attempt(1), node_, "alice", 11);
  auto info = VerifyNmToken(id, node_, keys_);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->attempt, Attempt(1));
  EXPECT_EQ(info->app_submitter, "alice");
  EXPECT_EQ(info->password, HmacSha1("nm-key-11", id));

  auto unknown =
      VerifyNmToken(rm::EncodeNmTokenIdentifier(Attempt(1), node_, "alice", 12), node_, keys_);
  EXPECT_EQ(unknown.status().java_class(), java::kInvalidToken);
  auto elsewhere = VerifyNmToken(id, {"127.0.0.1", 4001}, keys_);
  EXPECT_EQ(elsewhere.status().java_class(), java::kInvalidToken);
  EXPECT_FALSE(VerifyNmToken("\x01\x02garbage", node_, keys_).ok());
}

TEST(NodeTokenKeysTest, CurrentAndPrevious) {
  NodeTokenKeys keys;
  EXPECT_FALSE(keys.Ready());
  keys.Apply(NodeTokenKeys::Family::kNmTokens, {1, "a"});
  EXPECT_FALSE(keys.Ready());
  keys.Apply(NodeTokenKeys::Family::kContainerTokens, {5, "c"});
  EXPECT_TRUE(keys.Ready());
  keys.Apply(NodeTokenKeys::Family::kNmTokens, {1, "a"});  // same id: no roll
  keys.Apply(NodeTokenKeys::Family::kNmTokens, {2, "b"});
  EXPECT_EQ(keys.Find(NodeTokenKeys::Family::kNmTokens, 1), "a");
  EXPECT_EQ(keys.Find(NodeTokenKeys::Family::kNmTokens, 2), "b");
  EXPECT_EQ(keys.Current(NodeTokenKeys::Family::kNmTokens)->key_id, 2);
  keys.Apply(NodeTokenKeys::Family::kNmTokens, {3, "d"});
  EXPECT_FALSE(keys.Find(NodeTokenKeys::Family::kNmTokens, 1).has_value());
  EXPECT_FALSE(keys.Find(NodeTokenKeys::Family::kContainerTokens, 2).has_value())
      << "families are separate";
}

}  // namespace
}  // namespace spindle::nm
