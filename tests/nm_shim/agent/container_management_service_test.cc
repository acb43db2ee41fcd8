#include "nm_shim/agent/container_management_service.h"

#include <gtest/gtest.h>

#include "base/crypto.h"
#include "rm/security/token_identifiers.h"
#include "tests/nm_shim/agent/test_tokens.h"

namespace spindle::nm {
namespace {

class ContainerManagementServiceTest : public ::testing::Test {
 protected:
  void Host() { service_.Host({{node_, &hosted_}}); }

  std::string Identifier() const {
    return rm::EncodeNmTokenIdentifier(testing::Attempt(1), node_, "alice", 11);
  }

  ManualClock clock_{TimePoint{}, testing::kRmIdentifier + 1000};
  const rm::NodeId node_{"127.1.0.1", 4000};
  NodeTokenKeys keys_;
  ContainerManager manager_{{node_, 600'000}, &keys_, &clock_};
  HostedNode hosted_{&keys_, &manager_};
  ContainerManagementService service_;
};

// Before its registration answer the node has no keys: the connection is
// told to retry, not that its NMToken is invalid.
TEST_F(ContainerManagementServiceTest, TokensBeforeTheNodeHasKeysAreRetriable) {
  Host();
  auto early = service_.RetrieveSecret(Identifier());
  ASSERT_FALSE(early.ok());
  EXPECT_EQ(early.status().java_class(), "org.apache.hadoop.ipc.RetriableException");

  keys_.Apply(NodeTokenKeys::Family::kContainerTokens, {7, "container-key-7"});
  keys_.Apply(NodeTokenKeys::Family::kNmTokens, {11, "nm-key-11"});
  auto secret = service_.RetrieveSecret(Identifier());
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  EXPECT_EQ(secret->password, HmacSha1("nm-key-11", Identifier()));

  // A key the node never had stays an invalid token.
  auto forged =
      service_.RetrieveSecret(rm::EncodeNmTokenIdentifier(testing::Attempt(1), node_, "alice", 12));
  ASSERT_FALSE(forged.ok());
  EXPECT_EQ(forged.status().java_class(),
            "org.apache.hadoop.security.token.SecretManager$InvalidToken");
}

// The agent's server listens before the agent hands its nodes over (a
// restarted agent is called by AMs at once): such a call is told to retry,
// even for a node whose keys are ready; after the hand-over a node the agent
// does not host is an invalid token.
TEST_F(ContainerManagementServiceTest, TokensBeforeTheNodesAreHostedAreRetriable) {
  keys_.Apply(NodeTokenKeys::Family::kContainerTokens, {7, "container-key-7"});
  keys_.Apply(NodeTokenKeys::Family::kNmTokens, {11, "nm-key-11"});
  auto early = service_.RetrieveSecret(Identifier());
  ASSERT_FALSE(early.ok());
  EXPECT_EQ(early.status().java_class(), "org.apache.hadoop.ipc.RetriableException");

  Host();
  auto secret = service_.RetrieveSecret(Identifier());
  ASSERT_TRUE(secret.ok()) << secret.status().ToString();
  auto elsewhere = service_.RetrieveSecret(
      rm::EncodeNmTokenIdentifier(testing::Attempt(1), {"127.1.0.2", 4000}, "alice", 11));
  ASSERT_FALSE(elsewhere.ok());
  EXPECT_EQ(elsewhere.status().java_class(),
            "org.apache.hadoop.security.token.SecretManager$InvalidToken");
  EXPECT_NE(elsewhere.status().message().find("which this agent does not host"), std::string::npos);
}

TEST_F(ContainerManagementServiceTest, NewContainersWaitForTheNodeToBeOpened) {
  const Status closed = manager_.CheckAcceptingNewContainers();
  EXPECT_EQ(closed.java_class(), "org.apache.hadoop.yarn.exceptions.NMNotYetReadyException");
  EXPECT_EQ(closed.message(),
            "Rejecting new containers as NodeManager has not yet connected with ResourceManager");
  manager_.set_accepting_new_containers(true);
  EXPECT_TRUE(manager_.CheckAcceptingNewContainers().ok());
  manager_.set_accepting_new_containers(false);
  EXPECT_FALSE(manager_.CheckAcceptingNewContainers().ok());
}

}  // namespace
}  // namespace spindle::nm
