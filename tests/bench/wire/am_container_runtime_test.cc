#include "bench/wire/am_container_runtime.h"

#include <gtest/gtest.h>

#include <vector>

#include "rm/security/credentials.h"
#include "rm/security/token.h"

namespace spindle::bench::wire {
namespace {

using std::chrono::milliseconds;

class RecordingHost final : public AmHost {
 public:
  void LaunchAm(const rm::ContainerId& container, const ipc::ClientToken& amrm,
                std::function<void(int32_t)> exit) override {
    launched.push_back(container);
    tokens.push_back(amrm);
    exits.push_back(std::move(exit));
  }
  void AmContainerKilled(const rm::ContainerId& container) override { killed.push_back(container); }
  std::vector<rm::ContainerId> launched;
  std::vector<ipc::ClientToken> tokens;
  std::vector<std::function<void(int32_t)>> exits;
  std::vector<rm::ContainerId> killed;
};

std::string CredentialsWith(const std::string& kind) {
  rm::Credentials credentials;
  credentials.AddToken("some-alias", rm::Token{"identifier-bytes", "password-bytes", kind, ""});
  return credentials.Serialize();
}

class AmContainerRuntimeTest : public ::testing::Test {
 protected:
  AmContainerRuntimeTest()
      : runtime_(
            &host_, &loop_,
            nm::ContainerListener{[this](const rm::ContainerId& id) { running_.push_back(id); },
                                  [this](const nm::ContainerExit& e) { exits_.push_back(e); }},
            nm::SimulatedRuntimeOptions{/*default_duration_ms=*/1000}) {}

  static rm::ContainerId Id(int64_t seq) { return {{{7, 3}, 1}, seq}; }
  static nm::ContainerLaunchSpec Spec(int64_t seq, std::string credentials) {
    nm::ContainerLaunchSpec spec;
    spec.container = Id(seq);
    spec.commands = {"sleep", "3600"};
    spec.credentials = std::move(credentials);
    return spec;
  }
  void AdvanceMs(int64_t ms) {
    clock_.Advance(milliseconds(ms));
    loop_.RunDue();
  }

  ManualClock clock_;
  nm::EventLoop loop_{&clock_};
  RecordingHost host_;
  std::vector<rm::ContainerId> running_;
  std::vector<nm::ContainerExit> exits_;
  AmContainerRuntime runtime_;
};

TEST(FindAmrmTokenTest, FindsTheTokenByKind) {
  auto token = FindAmrmToken(CredentialsWith(rm::kAmrmTokenKind));
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  EXPECT_EQ(token->identifier, "identifier-bytes");
  EXPECT_EQ(token->password, "password-bytes");
  EXPECT_EQ(token->kind, rm::kAmrmTokenKind);
  EXPECT_TRUE(FindAmrmToken(CredentialsWith("HDFS_DELEGATION_TOKEN")).status().IsNotFound());
  EXPECT_FALSE(FindAmrmToken("not credentials").ok());
}

TEST_F(AmContainerRuntimeTest, AmContainerRunsUntilItsAmExits) {
  runtime_.Launch(Spec(1, CredentialsWith(rm::kAmrmTokenKind)));
  ASSERT_EQ(host_.launched.size(), 1u);
  EXPECT_EQ(host_.launched[0], Id(1));
  EXPECT_EQ(host_.tokens[0].identifier, "identifier-bytes");
  loop_.RunDue();
  EXPECT_EQ(running_, std::vector<rm::ContainerId>{Id(1)});
  // Past any simulated duration: still running, the AM decides.
  AdvanceMs(10 * 3600 * 1000);
  EXPECT_TRUE(exits_.empty());
  EXPECT_EQ(runtime_.live_ams(), 1u);
  host_.exits[0](0);
  host_.exits[0](0);  // a second exit changes nothing
  loop_.RunDue();
  ASSERT_EQ(exits_.size(), 1u);
  EXPECT_EQ(exits_[0].container, Id(1));
  EXPECT_EQ(exits_[0].exit_status, 0);
  EXPECT_EQ(runtime_.live_ams(), 0u);
}

TEST_F(AmContainerRuntimeTest, FailedAmFailsItsContainer) {
  runtime_.Launch(Spec(1, CredentialsWith(rm::kAmrmTokenKind)));
  host_.exits[0](1);
  loop_.RunDue();
  ASSERT_EQ(exits_.size(), 1u);
  EXPECT_EQ(exits_[0].exit_status, 1);
}

TEST_F(AmContainerRuntimeTest, OtherContainersOnlyHoldTheirDuration) {
  runtime_.Launch(Spec(2, ""));
  runtime_.Launch(Spec(3, CredentialsWith("HDFS_DELEGATION_TOKEN")));
  EXPECT_TRUE(host_.launched.empty());
  AdvanceMs(0);
  EXPECT_EQ(running_.size(), 2u);
  AdvanceMs(3600 * 1000);
  ASSERT_EQ(exits_.size(), 2u);
  EXPECT_EQ(exits_[0].exit_status, 0);
}

TEST_F(AmContainerRuntimeTest, KillEndsTheAmAndItsContainer) {
  runtime_.Launch(Spec(1, CredentialsWith(rm::kAmrmTokenKind)));
  runtime_.Kill(Id(1), nm::kExitKilledByResourceManager, "killed");
  loop_.RunDue();
  EXPECT_EQ(host_.killed, std::vector<rm::ContainerId>{Id(1)});
  ASSERT_EQ(exits_.size(), 1u);
  EXPECT_EQ(exits_[0].exit_status, nm::kExitKilledByResourceManager);
  // The AM's late exit is ignored.
  host_.exits[0](0);
  loop_.RunDue();
  EXPECT_EQ(exits_.size(), 1u);
}

TEST_F(AmContainerRuntimeTest, ShutdownKillsLiveAmsAndRefusesNewOnes) {
  runtime_.Launch(Spec(1, CredentialsWith(rm::kAmrmTokenKind)));
  runtime_.Shutdown();
  EXPECT_EQ(host_.killed, std::vector<rm::ContainerId>{Id(1)});
  ASSERT_EQ(exits_.size(), 1u);
  runtime_.Launch(Spec(4, CredentialsWith(rm::kAmrmTokenKind)));
  loop_.RunDue();
  EXPECT_EQ(host_.launched.size(), 1u);
  ASSERT_EQ(exits_.size(), 2u);
  EXPECT_EQ(exits_[1].container, Id(4));
  EXPECT_EQ(exits_[1].exit_status, nm::kExitAborted);
}

}  // namespace
}  // namespace spindle::bench::wire
