// ClientToAmTokenSecretManager: one registered key per attempt, until the
// attempt is unregistered, and tokens the AM can check with that key (Java's
// ClientToAMTokenIdentifier bytes, HMAC-SHA1 password, YARN_CLIENT_TOKEN,
// empty service).
#include "rm/security/client_to_am_token_secret_manager.h"

#include <gtest/gtest.h>

#include "base/crypto.h"
#include "yarn_security_token.pb.h"

namespace spindle::rm {
namespace {

ApplicationAttemptId Attempt(int32_t app, int32_t attempt) {
  return ApplicationAttemptId{ApplicationId{1795905504226, app}, attempt};
}

TEST(ClientToAmTokenSecretManagerTest, NoTokenBeforeTheAttemptHasAKey) {
  ClientToAmTokenSecretManager manager;
  EXPECT_FALSE(manager.CreateToken(Attempt(1, 1), "alice@SPINDLE.TEST").has_value());
}

TEST(ClientToAmTokenSecretManagerTest, EachAttemptHasItsKeyUntilUnregistered) {
  ClientToAmTokenSecretManager manager;
  const std::string key = ClientToAmTokenSecretManager::CreateMasterKey();
  EXPECT_EQ(key.size(), ClientToAmTokenSecretManager::kKeyLength);
  EXPECT_NE(ClientToAmTokenSecretManager::CreateMasterKey(), key);
  EXPECT_FALSE(manager.MasterKey(Attempt(1, 1)).has_value()) << "created, not registered";
  manager.RegisterApplication(Attempt(1, 1), key);
  manager.RegisterApplication(Attempt(1, 2), ClientToAmTokenSecretManager::CreateMasterKey());
  EXPECT_EQ(manager.MasterKey(Attempt(1, 1)), key);
  EXPECT_NE(manager.MasterKey(Attempt(1, 2)), key);
  EXPECT_EQ(manager.size(), 2u);
  manager.UnregisterApplication(Attempt(1, 1));
  manager.UnregisterApplication(Attempt(3, 1));  // never registered: nothing
  EXPECT_FALSE(manager.CreateToken(Attempt(1, 1), "alice").has_value());
  EXPECT_TRUE(manager.CreateToken(Attempt(1, 2), "alice").has_value());
  EXPECT_EQ(manager.size(), 1u);
}

TEST(ClientToAmTokenSecretManagerTest, TheTokenIsWhatTheAmChecksWithItsKey) {
  ClientToAmTokenSecretManager manager;
  const ApplicationAttemptId attempt = Attempt(7, 2);
  const std::string key = ClientToAmTokenSecretManager::CreateMasterKey();
  manager.RegisterApplication(attempt, key);
  const std::optional<Token> token = manager.CreateToken(attempt, "alice@SPINDLE.TEST");
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->kind, "YARN_CLIENT_TOKEN");
  EXPECT_EQ(token->service, "");
  EXPECT_EQ(token->password, HmacSha1(key, token->identifier));
  hadoop::yarn::ClientToAMTokenIdentifierProto identifier;
  ASSERT_TRUE(identifier.ParseFromString(token->identifier));
  EXPECT_EQ(identifier.clientname(), "alice@SPINDLE.TEST");
  EXPECT_EQ(identifier.appattemptid().attemptid(), 2);
  EXPECT_EQ(identifier.appattemptid().application_id().id(), 7);
  EXPECT_EQ(identifier.appattemptid().application_id().cluster_timestamp(), 1795905504226);
  // Another client, another identifier and password under the same key.
  const std::optional<Token> bob = manager.CreateToken(attempt, "bob");
  ASSERT_TRUE(bob.has_value());
  EXPECT_NE(bob->identifier, token->identifier);
  EXPECT_EQ(bob->password, HmacSha1(key, bob->identifier));
}

}  // namespace
}  // namespace spindle::rm
