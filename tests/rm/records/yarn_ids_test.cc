#include "rm/records/yarn_ids.h"

#include <gtest/gtest.h>

#include <unordered_set>

namespace spindle::rm {
namespace {

TEST(YarnIdsTest, StringFormsMatchHadoop) {
  const ApplicationId app{1795352768286, 1};
  EXPECT_EQ(app.ToString(), "application_1795352768286_0001");
  EXPECT_EQ((ApplicationId{1, 12345}).ToString(), "application_1_12345");
  const ApplicationAttemptId attempt{app, 1};
  EXPECT_EQ(attempt.ToString(), "appattempt_1795352768286_0001_000001");
  ContainerId container{attempt, 2};
  EXPECT_EQ(container.ToString(), "container_1795352768286_0001_01_000002");
  container.id = (int64_t{3} << ContainerId::kEpochShift) | 7;
  EXPECT_EQ(container.ToString(), "container_e03_1795352768286_0001_01_000007");
  EXPECT_EQ((NodeId{"localhost", 45454}).ToString(), "localhost:45454");
}

TEST(YarnIdsTest, ParseRoundTrips) {
  for (const char* text : {"application_1795352768286_0001", "application_1_12345"}) {
    auto id = ApplicationId::Parse(text);
    ASSERT_TRUE(id.ok()) << text;
    EXPECT_EQ(id->ToString(), text);
  }
  auto attempt = ApplicationAttemptId::Parse("appattempt_1795352768286_0001_000002");
  ASSERT_TRUE(attempt.ok());
  EXPECT_EQ(attempt->attempt, 2);
  for (const char* text :
       {"container_1795352768286_0001_01_000002", "container_e03_1795352768286_0001_01_000007"}) {
    auto id = ContainerId::Parse(text);
    ASSERT_TRUE(id.ok()) << text;
    EXPECT_EQ(id->ToString(), text);
  }
  auto node = NodeId::Parse("host.example.com:8041");
  ASSERT_TRUE(node.ok());
  EXPECT_EQ(node->host, "host.example.com");
  EXPECT_EQ(node->port, 8041);
}

TEST(YarnIdsTest, ParseRejectsMalformedText) {
  for (const char* text : {"", "application_", "application_1", "app_1_2", "application_x_1",
                           "application_1_2_3", "application_-1_2"}) {
    EXPECT_FALSE(ApplicationId::Parse(text).ok()) << text;
  }
  EXPECT_FALSE(ApplicationAttemptId::Parse("appattempt_1_2").ok());
  EXPECT_FALSE(ContainerId::Parse("container_1_2_3").ok());
  EXPECT_FALSE(ContainerId::Parse("container_ex_1_2_3_4").ok());
  EXPECT_FALSE(NodeId::Parse("nohost").ok());
  EXPECT_FALSE(NodeId::Parse(":80").ok());
  EXPECT_FALSE(NodeId::Parse("h:99999").ok());
  auto bad = ApplicationId::Parse("application_1_0002x");
  EXPECT_EQ(bad.status().message(), "Invalid ApplicationId prefix or format: application_1_0002x");
}

TEST(YarnIdsTest, HashAndOrder) {
  std::unordered_set<ContainerId> set;
  const ApplicationAttemptId attempt{{5, 1}, 1};
  set.insert(ContainerId{attempt, 1});
  set.insert(ContainerId{attempt, 1});
  set.insert(ContainerId{attempt, 2});
  EXPECT_EQ(set.size(), 2u);
  EXPECT_LT((ApplicationId{5, 1}), (ApplicationId{5, 2}));
}

}  // namespace
}  // namespace spindle::rm
