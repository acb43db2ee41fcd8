// The adapters between rm/security's secret managers and the IPC layer's
// SASL server: what a TOKEN/DIGEST-MD5 handshake on the AM port (AMRM tokens)
// and on the client port (RM delegation tokens) learns of a presented token.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <utility>

#include "am_protocol/tokens/amrm_token_secret_provider.h"
#include "am_protocol/tokens/rm_delegation_token_secret_provider.h"
#include "base/clock.h"
#include "rm/security/token_identifiers.h"
#include "wire/ipc/token_secret_provider.h"

namespace spindle::am_protocol {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;

const rm::ApplicationAttemptId kAttempt{rm::ApplicationId{1700000000000, 7}, 1};
const rm::ApplicationAttemptId kOtherAttempt{rm::ApplicationId{1700000000000, 8}, 2};
constexpr int64_t kWallStart = 1'700'000'000'000;

TEST(AmrmTokenSecretProviderTest, AnswersWithTheAttemptsPasswordAndRejectsOthers) {
  ManualClock clock;
  rm::KeyRollingOptions keys;
  keys.first_key_id = 500;
  auto created = rm::AmrmTokenSecretManager::Create(keys, &clock);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const std::unique_ptr<rm::AmrmTokenSecretManager> manager = std::move(created).value();
  const rm::Token token = manager->CreateToken(kAttempt);

  const AmrmTokenSecretProvider provider(manager.get());
  const ipc::TokenSecretProvider& seam = provider;
  auto secret = seam.RetrieveSecret(token.identifier);
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  EXPECT_EQ(secret->password, token.password);
  EXPECT_EQ(secret->user, kAttempt.ToString());

  // A well-formed identifier of an attempt the manager never registered.
  auto rejected = seam.RetrieveSecret(rm::EncodeAmrmTokenIdentifier(kOtherAttempt, 500));
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().java_class(), rm::kInvalidTokenClass);
  // Bytes that are no identifier at all.
  EXPECT_FALSE(seam.RetrieveSecret("not an identifier").ok());
}

class RmDelegationTokenSecretProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto created =
        rm::RmDelegationTokenSecretManager::Create(rm::RmDelegationTokenOptions{}, &clock_);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    manager_ = std::move(created).value();
  }

  ManualClock clock_{TimePoint{}, kWallStart};
  std::unique_ptr<rm::RmDelegationTokenSecretManager> manager_;
};

TEST_F(RmDelegationTokenSecretProviderTest, AnswersWithTheOwnerWhileTheTokenLives) {
  const rm::Token token = manager_->CreateToken("alice", "yarn", "");
  const RmDelegationTokenSecretProvider provider(manager_.get());
  const ipc::TokenSecretProvider& seam = provider;
  auto secret = seam.RetrieveSecret(token.identifier);
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  EXPECT_EQ(secret->password, token.password);
  EXPECT_EQ(secret->user, "alice");

  // Past its renew date (default renew interval: one day) it no longer
  // authenticates.
  clock_.Advance(hours(24) + milliseconds(1));
  auto expired = seam.RetrieveSecret(token.identifier);
  ASSERT_FALSE(expired.ok());
  EXPECT_EQ(expired.status().java_class(), rm::kInvalidTokenClass);
}

// A Kerberos caller's token is owned by its full principal (Hadoop's
// getDelegationToken takes the UGI's user name); TOKEN connections run as
// its short name, by auth_to_local, as UGI.getShortUserName gives it.
TEST_F(RmDelegationTokenSecretProviderTest, AKerberosOwnerAuthenticatesAsItsShortName) {
  const rm::Token token = manager_->CreateToken("alice@EXAMPLE.COM", "yarn", "");
  const RmDelegationTokenSecretProvider plain(manager_.get());
  auto secret =
      static_cast<const ipc::TokenSecretProvider&>(plain).RetrieveSecret(token.identifier);
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  EXPECT_EQ(secret->user, "alice");

  const RmDelegationTokenSecretProvider ruled(manager_.get(), [](const std::string& owner) {
    if (owner == "alice@EXAMPLE.COM") return Result<std::string>(std::string("ali"));
    return Result<std::string>(Status::InvalidArgument("No rules applied to " + owner));
  });
  secret = static_cast<const ipc::TokenSecretProvider&>(ruled).RetrieveSecret(token.identifier);
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  EXPECT_EQ(secret->user, "ali");
  EXPECT_EQ(secret->password, token.password);

  const rm::Token stranger = manager_->CreateToken("eve@ELSEWHERE", "yarn", "");
  auto refused =
      static_cast<const ipc::TokenSecretProvider&>(ruled).RetrieveSecret(stranger.identifier);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "Illegal principal name eve@ELSEWHERE: No rules applied to eve@ELSEWHERE");
}

TEST_F(RmDelegationTokenSecretProviderTest, RejectsACancelledToken) {
  const rm::Token token = manager_->CreateToken("alice", "yarn", "");
  ASSERT_TRUE(manager_->Cancel(token, "alice").ok());
  const RmDelegationTokenSecretProvider provider(manager_.get());
  auto rejected =
      static_cast<const ipc::TokenSecretProvider&>(provider).RetrieveSecret(token.identifier);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().java_class(), rm::kInvalidTokenClass);
}

}  // namespace
}  // namespace spindle::am_protocol
