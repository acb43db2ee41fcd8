#include "rm/queues/queue_manager.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace spindle::rm {
namespace {

using ::testing::HasSubstr;

Configuration Conf(const std::string& root_queues, const std::string& extra = "") {
  Configuration conf;
  const std::string xml =
      "<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>" +
      root_queues + "</value></property>" + extra + "</configuration>";
  EXPECT_TRUE(conf.AddResourceString(xml, "capacity-scheduler.xml").ok());
  return conf;
}

std::string Capacity(const std::string& queue, const std::string& value) {
  return "<property><name>yarn.scheduler.capacity.root." + queue + ".capacity</name><value>" +
         value + "</value></property>";
}

TEST(QueueManagerTest, ReloadSwapsOnlyOnSuccess) {
  auto manager = QueueManager::Create(Conf("a", Capacity("a", "100")));
  ASSERT_TRUE(manager.ok()) << manager.status().ToString();
  std::shared_ptr<const QueueTree> before = (*manager)->Current();

  // Removing a queue is refused; the old tree stays current.
  auto refused = (*manager)->Reload(Conf("b", Capacity("b", "100")));
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("root.a cannot be found during refresh"));
  EXPECT_EQ((*manager)->Current(), before);

  // Adding one works; a snapshot taken before keeps its view.
  auto accepted = (*manager)->Reload(Conf("a,b", Capacity("a", "70") + Capacity("b", "30")));
  ASSERT_TRUE(accepted.ok()) << accepted.status().ToString();
  EXPECT_EQ((*manager)->Current(), *accepted);
  EXPECT_NE((*accepted)->Find("b"), nullptr);
  EXPECT_EQ(before->Find("b"), nullptr);
}

TEST(QueueManagerTest, CreateFailsOnABadConf) {
  EXPECT_FALSE(QueueManager::Create(Conf("a", Capacity("a", "90"))).ok());
}

}  // namespace
}  // namespace spindle::rm
