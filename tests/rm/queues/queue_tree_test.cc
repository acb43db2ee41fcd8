#include "rm/queues/queue_tree.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/rm/capacity_scheduler_conf.h"

namespace spindle::rm {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kFile[] = "capacity-scheduler.xml";

// A configuration holding `properties` (keys without the common prefix) as
// if read from capacity-scheduler.xml.
Configuration Conf(const std::map<std::string, std::string>& properties) {
  return test_support::CapacitySchedulerConf(properties);
}

QueueTree MustParse(const std::map<std::string, std::string>& properties) {
  auto tree = QueueTree::Parse(Conf(properties));
  EXPECT_TRUE(tree.ok()) << tree.status().ToString();
  return std::move(tree).value();
}

// The error Parse() gives for `properties`.
std::string ParseError(const std::map<std::string, std::string>& properties) {
  auto tree = QueueTree::Parse(Conf(properties));
  EXPECT_FALSE(tree.ok());
  if (tree.ok()) return "";
  EXPECT_EQ(tree.status().code(), Status::Code::kInvalidArgument);
  return tree.status().message();
}

// root.a (60: a1 50, a2 50, a2 max 80) and root.b (40, max 50).
std::map<std::string, std::string> Nested() {
  return {{"root.queues", "a, b"},           {"root.a.queues", "a1,a2"},
          {"root.a.capacity", "60"},         {"root.a.a1.capacity", "50"},
          {"root.a.a2.capacity", "50"},      {"root.a.a2.maximum-capacity", "80"},
          {"root.b.capacity", "40"},         {"root.b.maximum-capacity", "50"},
          {"root.b.ordering-policy", "fair"}};
}

std::vector<std::string> Paths(const QueueTree& tree) {
  std::vector<std::string> out;
  for (const auto& q : tree.queues()) out.push_back(q.path);
  return out;
}

TEST(QueueTreeTest, ParsesTheCapturedHadoopConf) {
  Configuration conf;
  ASSERT_TRUE(conf.AddResourceFile(std::string(SPINDLE_SHARED_DIR) +
                                   "/captures/hadoop-2.6.0/distributedshell/conf/"
                                   "capacity-scheduler.xml")
                  .ok());
  auto tree = QueueTree::Parse(conf);
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  EXPECT_THAT(Paths(*tree), ElementsAre("root", "root.default"));
  const CsQueue* def = tree->Find("default");
  ASSERT_NE(def, nullptr);
  EXPECT_EQ(def, tree->Find("root.default"));
  EXPECT_TRUE(def->is_leaf());
  EXPECT_DOUBLE_EQ(def->capacity, 100);
  EXPECT_DOUBLE_EQ(def->maximum_capacity, 100);
  EXPECT_DOUBLE_EQ(def->absolute_capacity, 1);
  EXPECT_EQ(def->state, QueueState::kRunning);
  EXPECT_DOUBLE_EQ(def->maximum_am_resource_fraction, 0.5);
  EXPECT_EQ(def->maximum_applications, 10000);
  EXPECT_EQ(def->configured_maximum_applications, -1);
  EXPECT_DOUBLE_EQ(def->user_limit_factor, 1);
  EXPECT_EQ(def->ordering, pool::QueueOrdering::kFifo);
  EXPECT_THAT(def->accessible_node_labels, ElementsAre("*"));
  // Hadoop's ACL defaults: root "*", below it " " (inherit from ancestors).
  EXPECT_TRUE(tree->root().submit_acl.allows_all());
  EXPECT_TRUE(tree->root().administer_acl.allows_all());
  EXPECT_EQ(def->submit_acl.ToString(), " ");
  EXPECT_TRUE(tree->CanSubmit(*def, "anyone", {}));
}

TEST(QueueTreeTest, ParsesTheSlsConf) {
  Configuration conf;
  ASSERT_TRUE(conf.AddResourceFile(std::string(SPINDLE_SHARED_DIR) +
                                   "/traces/hadoop-sls/capacity-scheduler.xml")
                  .ok());
  auto tree = QueueTree::Parse(conf);
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  EXPECT_THAT(Paths(*tree),
              ElementsAre("root", "root.sls_queue_1", "root.sls_queue_2", "root.sls_queue_3"));
  EXPECT_DOUBLE_EQ(tree->Find("sls_queue_1")->absolute_capacity, 0.25);
  EXPECT_DOUBLE_EQ(tree->Find("sls_queue_3")->absolute_capacity, 0.5);
  EXPECT_EQ(tree->Find("sls_queue_3")->maximum_applications, 5000);
  auto specs = tree->ToQueueSpecs(pool::Resource::Of(10240, 10));
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].name, "sls_queue_1");
  EXPECT_EQ(specs[0].min, pool::Resource::Of(2560, 2));  // 2.5 vcores round down
  EXPECT_EQ(specs[0].max, pool::Resource::Unlimited());
  EXPECT_DOUBLE_EQ(specs[0].weight, 0.25);
  EXPECT_EQ(specs[2].min, pool::Resource::Of(5120, 5));
}

TEST(QueueTreeTest, NestedTreeIsPreOrderWithAbsoluteCapacities) {
  QueueTree tree = MustParse(Nested());
  EXPECT_THAT(Paths(tree), ElementsAre("root", "root.a", "root.a.a1", "root.a.a2", "root.b"));
  const CsQueue* a2 = tree.Find("a2");
  ASSERT_NE(a2, nullptr);
  EXPECT_EQ(a2->path, "root.a.a2");
  EXPECT_EQ(tree.parent_of(*a2).path, "root.a");
  EXPECT_DOUBLE_EQ(a2->absolute_capacity, 0.3);
  EXPECT_DOUBLE_EQ(a2->absolute_maximum_capacity, 0.8);
  EXPECT_DOUBLE_EQ(tree.Find("root.b")->absolute_maximum_capacity, 0.5);
  EXPECT_EQ(tree.Find("b")->ordering, pool::QueueOrdering::kFair);
  EXPECT_FALSE(tree.Find("a")->is_leaf());
  EXPECT_EQ(tree.FindLeaf("a"), nullptr);
  EXPECT_EQ(tree.FindLeaf("root.a.a1"), tree.Find("a1"));
  EXPECT_EQ(tree.Find("nope"), nullptr);
  EXPECT_EQ(tree.Find("root.a1"), nullptr);
  std::vector<std::string> leaves;
  for (const CsQueue* q : tree.Leaves()) leaves.push_back(q->name);
  EXPECT_THAT(leaves, ElementsAre("a1", "a2", "b"));
}

TEST(QueueTreeTest, ShortNameOfALeafWinsOverAParent) {
  QueueTree tree = MustParse({{"root.queues", "x,y"},
                              {"root.x.queues", "z"},
                              {"root.x.capacity", "50"},
                              {"root.x.z.capacity", "100"},
                              {"root.y.queues", "x"},
                              {"root.y.capacity", "50"},
                              {"root.y.x.capacity", "100"}});
  EXPECT_EQ(tree.Find("x")->path, "root.y.x");
  EXPECT_EQ(tree.Find("root.x")->path, "root.x");
}

TEST(QueueTreeTest, HadoopDefaults) {
  QueueTree tree = MustParse({{"root.queues", "a,b,c"},
                              {"root.a.capacity", "100"},
                              {"root.a.maximum-capacity", "-1"},
                              {"root.b.state", "stopped"},
                              {"root.b.queues", "b1"},
                              {"maximum-applications", "200"},
                              {"user-limit-factor", "2"},
                              {"root.c.maximum-applications", "7"}});
  const CsQueue* a = tree.Find("a");
  EXPECT_DOUBLE_EQ(a->maximum_capacity, 100);
  EXPECT_EQ(a->maximum_applications, 200);
  EXPECT_DOUBLE_EQ(a->user_limit_factor, 2);
  EXPECT_DOUBLE_EQ(a->maximum_am_resource_fraction, 0.1);
  // Unset capacity is 0 (Hadoop 3); children of a 0 parent may sum to 0.
  EXPECT_DOUBLE_EQ(tree.Find("b")->capacity, 0);
  EXPECT_DOUBLE_EQ(tree.Find("b1")->capacity, 0);
  EXPECT_EQ(tree.Find("b1")->maximum_applications, 0);
  // State is inherited from the parent when unset.
  EXPECT_EQ(tree.Find("b1")->state, QueueState::kStopped);
  EXPECT_EQ(tree.Find("c")->state, QueueState::kRunning);
  EXPECT_EQ(tree.Find("c")->configured_maximum_applications, 7);
  EXPECT_EQ(tree.Find("c")->maximum_applications, 7);
  // Per user: maximum-applications x minimum-user-limit-percent (100) x
  // user-limit-factor, capped at the queue's.
  EXPECT_EQ(tree.Find("c")->minimum_user_limit_percent, 100);
  EXPECT_EQ(tree.Find("c")->maximum_applications_per_user, 7);
}

TEST(QueueTreeTest, ApplicationsPerUser) {
  QueueTree tree = MustParse({{"root.queues", "a,b"},
                              {"root.a.capacity", "50"},
                              {"root.b.capacity", "50"},
                              {"root.a.maximum-applications", "10"},
                              {"root.a.minimum-user-limit-percent", "25"},
                              {"root.a.user-limit-factor", "2"}});
  EXPECT_EQ(tree.Find("a")->maximum_applications_per_user, 5);     // 10 x 25% x 2
  EXPECT_EQ(tree.Find("b")->maximum_applications_per_user, 5000);  // 10000 x 50% x 100% x 1
  EXPECT_THAT(ParseError({{"root.queues", "a"},
                          {"root.a.capacity", "100"},
                          {"root.a.minimum-user-limit-percent", "0"}}),
              HasSubstr("yarn.scheduler.capacity.root.a.minimum-user-limit-percent"));
}

// TestApplicationLimits#testLimitsComputation: the per-user maximum is
// min(maxApplications, (int)(maxApplications x MULP/100 x ULF)) on 2.7 and
// 3.3 (LeafQueue.setupQueueConfigs); 2.6 leaves it uncapped. 10 apps, 50%,
// factor 5: 25 on 2.6, 10 on the others.
TEST(QueueTreeTest, ApplicationsPerUserCapDependsOnTheLine) {
  const std::map<std::string, std::string> properties = {
      {"root.queues", "a"},
      {"root.a.capacity", "100"},
      {"root.a.maximum-applications", "10"},
      {"root.a.minimum-user-limit-percent", "50"},
      {"root.a.user-limit-factor", "5"}};
  for (const auto& [line, expected] :
       std::map<std::string, int32_t>{{"2.6", 25}, {"2.7", 10}, {"3.3", 10}}) {
    Configuration conf = Conf(properties);
    conf.Set("spindle.compat.hadoop-version", line);
    auto tree = QueueTree::Parse(conf);
    ASSERT_TRUE(tree.ok()) << tree.status().ToString();
    EXPECT_EQ(tree->Find("a")->maximum_applications_per_user, expected) << line;
  }
}

Result<QueueTree> ParseOnLine(std::map<std::string, std::string> properties,
                              const std::string& line) {
  Configuration conf = Conf(properties);
  conf.Set("spindle.compat.hadoop-version", line);
  return QueueTree::Parse(conf);
}

// 2.6 / 2.7 have no ordering-policy (CapacityScheduler.applicationComparator
// orders by application id; the key is not read, whatever it says); 3.3
// reads it (CapacitySchedulerConfiguration.getAppOrderingPolicy) with its
// parameters under <path>.ordering-policy.
TEST(QueueTreeTest, OrderingPolicyDependsOnTheLine) {
  const std::map<std::string, std::string> properties = {
      {"root.queues", "a,b,c"},
      {"root.a.capacity", "40"},
      {"root.b.capacity", "30"},
      {"root.c.capacity", "30"},
      {"root.a.ordering-policy", "fair"},
      {"root.a.ordering-policy.fair.enable-size-based-weight", "TRUE"},
      {"root.b.ordering-policy", " fifo-with-partitions "},
      {"root.c.ordering-policy", "lifo"}};
  for (const std::string line : {"2.6", "2.7"}) {
    auto tree = ParseOnLine(properties, line);
    ASSERT_TRUE(tree.ok()) << tree.status().ToString();
    for (const char* leaf : {"a", "b", "c"}) {
      EXPECT_EQ(tree->Find(leaf)->ordering, pool::QueueOrdering::kApplicationId) << line;
      EXPECT_FALSE(tree->Find(leaf)->fair_size_based_weight);
    }
  }
  auto refused = ParseOnLine(properties, "3.3");
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("root.c.ordering-policy = 'lifo'"));
  auto props = properties;
  props.erase("root.c.ordering-policy");
  auto tree = ParseOnLine(props, "3.3");
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  EXPECT_EQ(tree->Find("a")->ordering, pool::QueueOrdering::kFair);
  EXPECT_TRUE(tree->Find("a")->fair_size_based_weight);  // Boolean.parseBoolean
  EXPECT_EQ(tree->Find("b")->ordering, pool::QueueOrdering::kFifo);
  EXPECT_EQ(tree->Find("c")->ordering, pool::QueueOrdering::kFifo);
  const auto specs = tree->ToQueueSpecs(pool::Resource::Of(10000, 10));
  EXPECT_EQ(specs[0].ordering, pool::QueueOrdering::kFair);
  EXPECT_TRUE(specs[0].fair_size_based_weight);
  EXPECT_FALSE(specs[1].fair_size_based_weight);
}

// 3.3 <path>.user-settings.<user>.weight: a child inherits its parent's
// weights and overrides them (AbstractCSQueue.getUserWeightsFromHierarchy);
// names that are not words are not read (getAllUserWeightsForQueue's \w+).
TEST(QueueTreeTest, UserWeightsAreInheritedAndOverridden) {
  auto props = Nested();
  props["root.a.a1.minimum-user-limit-percent"] = "25";  // weights up to 4
  props["root.a.a2.minimum-user-limit-percent"] = "50";  // up to 2
  props["root.a.user-settings.alice.weight"] = "1.5";
  props["root.a.user-settings.bob.weight"] = "0.5";
  props["root.a.a1.user-settings.bob.weight"] = "2";
  props["root.a.a1.user-settings.john.doe.weight"] = "2";
  auto tree = ParseOnLine(props, "3.3");
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  const auto& a1 = tree->Find("a1")->user_weights;
  EXPECT_EQ(a1.size(), 2u);
  EXPECT_EQ(a1.at("alice"), 1.5f);
  EXPECT_EQ(a1.at("bob"), 2.0f);
  EXPECT_EQ(tree->Find("a2")->user_weights.at("bob"), 0.5f);
  EXPECT_TRUE(tree->Find("b")->user_weights.empty());
  // Into the pool, as names for SchedulerPool::SetQueues to intern.
  const auto specs = tree->ToQueueSpecs(pool::Resource::Of(10000, 10));
  ASSERT_EQ(specs[0].user_limits.user_weights.size(), 2u);
  EXPECT_EQ(specs[0].user_limits.user_weights[0].user, "alice");
  EXPECT_EQ(specs[0].user_limits.user_weights[0].weight, 1.5);
  // 2.x has no user weights.
  auto old = ParseOnLine(props, "2.7");
  ASSERT_TRUE(old.ok());
  EXPECT_TRUE(old->Find("a1")->user_weights.empty());
}

// LeafQueue.setupQueueConfigs: a weight above 100 / MULP (more than the
// queue's concurrent users) or below 0 stops the queue.
TEST(QueueTreeTest, UserWeightsAreBoundedByTheMinimumUserLimit) {
  const std::map<std::string, std::string> properties = {
      {"root.queues", "a"},
      {"root.a.capacity", "100"},
      {"root.a.minimum-user-limit-percent", "33"},
      {"root.a.user-settings.alice.weight", "3.03"}};
  EXPECT_TRUE(ParseOnLine(properties, "3.3").ok());
  auto props = properties;
  props["root.a.user-settings.alice.weight"] = "3.1";
  auto refused = ParseOnLine(props, "3.3");
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(),
              HasSubstr("Weight (3.1) for user \"alice\" must be between 0 and 100 / 33 "
                        "(= 3.030303, the number of concurrent active users in root.a)"));
  props["root.a.user-settings.alice.weight"] = "-1";
  EXPECT_FALSE(ParseOnLine(props, "3.3").ok());
  props["root.a.user-settings.alice.weight"] = "heavy";
  EXPECT_FALSE(ParseOnLine(props, "3.3").ok());
  EXPECT_TRUE(ParseOnLine(props, "2.7").ok()) << "not read on 2.x";
  // An inherited weight is checked against each leaf; the error names the
  // key that set it.
  auto nested = Nested();
  nested["root.a.user-settings.alice.weight"] = "1.5";
  auto inherited = ParseOnLine(nested, "3.3");
  ASSERT_FALSE(inherited.ok());
  EXPECT_THAT(inherited.status().message(),
              HasSubstr("yarn.scheduler.capacity.root.a.user-settings.alice.weight = '1.5': "
                        "Weight (1.5) for user \"alice\" must be between 0 and 100 / 100 (= 1.0, "
                        "the number of concurrent active users in root.a.a1)"));
}

TEST(QueueTreeTest, AccessibleNodeLabelsAreInherited) {
  auto props = Nested();
  props["root.accessible-node-labels"] = "x";  // ignored for root: always "*"
  props["root.a.accessible-node-labels"] = "gpu, ssd";
  props["root.b.accessible-node-labels"] = "gpu,*";
  QueueTree tree = MustParse(props);
  EXPECT_THAT(tree.root().accessible_node_labels, ElementsAre("*"));
  EXPECT_THAT(tree.Find("a1")->accessible_node_labels, ElementsAre("gpu", "ssd"));
  EXPECT_THAT(tree.Find("b")->accessible_node_labels, ElementsAre("*"));
}

// AbstractCSQueue.setupQueueConfigs (Hadoop 3.3): a maximum lifetime is
// inherited unless a queue sets its own (0: none); an unset default is an
// ancestor's (if one was configured and it fits the queue's maximum), else
// the queue's maximum.
TEST(QueueTreeTest, ApplicationLifetimesAreInheritedAsCapacitySchedulerDoes) {
  QueueTree tree = MustParse({{"root.queues", "a,p"},
                              {"root.a.capacity", "50"},
                              {"root.p.capacity", "50"},
                              {"root.p.queues", "b,c,d"},
                              {"root.p.b.capacity", "40"},
                              {"root.p.c.capacity", "30"},
                              {"root.p.d.capacity", "30"},
                              {"root.p.maximum-application-lifetime", "1000"},
                              {"root.p.default-application-lifetime", "600"},
                              {"root.p.c.maximum-application-lifetime", "300"},
                              {"root.p.d.maximum-application-lifetime", "0"}});
  const CsQueue* a = tree.Find("a");
  EXPECT_EQ(a->maximum_application_lifetime, -1);
  EXPECT_EQ(a->default_application_lifetime, -1);
  EXPECT_EQ(CheckAndGetApplicationLifetime(*a, 0), -1);  // none
  EXPECT_EQ(CheckAndGetApplicationLifetime(*a, 99999), 99999);
  // b inherits both.
  const CsQueue* b = tree.Find("b");
  EXPECT_EQ(b->maximum_application_lifetime, 1000);
  EXPECT_EQ(b->default_application_lifetime, 600);
  EXPECT_EQ(CheckAndGetApplicationLifetime(*b, 0), 600);
  EXPECT_EQ(CheckAndGetApplicationLifetime(*b, 5000), 1000);
  EXPECT_EQ(CheckAndGetApplicationLifetime(*b, 50), 50);
  // c's own maximum is below p's default: the default becomes the maximum.
  const CsQueue* c = tree.Find("c");
  EXPECT_EQ(c->maximum_application_lifetime, 300);
  EXPECT_EQ(c->default_application_lifetime, 300);
  // d: 0 removes the maximum; then 600 <= 0 is false, so the default is
  // d's maximum (0), and a non-positive default is the maximum: 0, none.
  const CsQueue* d = tree.Find("d");
  EXPECT_EQ(d->maximum_application_lifetime, 0);
  EXPECT_EQ(d->default_application_lifetime, 0);
  EXPECT_EQ(CheckAndGetApplicationLifetime(*d, 0), 0);
  EXPECT_EQ(CheckAndGetApplicationLifetime(*d, 5000), 5000);
  // A maximum alone is also the default.
  QueueTree only_max = MustParse({{"root.queues", "q"},
                                  {"root.q.capacity", "100"},
                                  {"root.q.maximum-application-lifetime", "120"}});
  EXPECT_EQ(only_max.Find("q")->default_application_lifetime, 120);
  EXPECT_EQ(CheckAndGetApplicationLifetime(*only_max.Find("q"), 0), 120);
}

TEST(QueueTreeErrorsTest, DefaultLifetimeAboveTheMaximum) {
  EXPECT_THAT(ParseError({{"root.queues", "q"},
                          {"root.q.capacity", "100"},
                          {"root.q.maximum-application-lifetime", "100"},
                          {"root.q.default-application-lifetime", "200"}}),
              HasSubstr("Default lifetime 200 can't exceed maximum lifetime 100"));
}

TEST(QueueTreeErrorsTest, RootWithoutChildren) {
  EXPECT_THAT(ParseError({}), HasSubstr("Queue configuration missing child queue names for root"));
  EXPECT_THAT(ParseError({{"root.queues", " , "}}),
              HasSubstr("yarn.scheduler.capacity.root.queues"));
}

TEST(QueueTreeErrorsTest, CapacityNotANumberNamesFileKeyAndValue) {
  const std::string error = ParseError({{"root.queues", "a"}, {"root.a.capacity", "lots"}});
  EXPECT_THAT(error, HasSubstr(kFile));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.root.a.capacity"));
  EXPECT_THAT(error, HasSubstr("lots"));
}

TEST(QueueTreeErrorsTest, CapacityOutOfRange) {
  std::string error = ParseError({{"root.queues", "a"}, {"root.a.capacity", "150"}});
  EXPECT_THAT(error, HasSubstr("Illegal capacity of 150"));
  EXPECT_THAT(error,
              HasSubstr("capacity-scheduler.xml: yarn.scheduler.capacity.root.a.capacity = '150'"));
  EXPECT_THAT(ParseError({{"root.queues", "a"}, {"root.a.capacity", "-5"}}),
              HasSubstr("Illegal capacity of -5"));
  EXPECT_THAT(
      ParseError(
          {{"root.queues", "a"}, {"root.a.capacity", "100"}, {"root.a.maximum-capacity", "101"}}),
      HasSubstr("root.a.maximum-capacity = '101'"));
  EXPECT_THAT(
      ParseError(
          {{"root.queues", "a"}, {"root.a.capacity", "100"}, {"root.a.maximum-capacity", "-2"}}),
      HasSubstr("Illegal capacity of -2"));
}

TEST(QueueTreeErrorsTest, AbsoluteAndWeightCapacitiesAreRefused) {
  EXPECT_THAT(ParseError({{"root.queues", "a"}, {"root.a.capacity", "[memory=1024,vcores=1]"}}),
              HasSubstr("not supported"));
  EXPECT_THAT(ParseError({{"root.queues", "a"}, {"root.a.capacity", "2w"}}),
              HasSubstr("not supported"));
}

TEST(QueueTreeErrorsTest, CapacityAboveMaximum) {
  const std::string error = ParseError({{"root.queues", "a,b"},
                                        {"root.a.capacity", "60"},
                                        {"root.a.maximum-capacity", "50"},
                                        {"root.b.capacity", "40"}});
  EXPECT_THAT(error, HasSubstr("Queue 'root.a' has an absolute capacity (0.6) greater than its "
                               "absolute maximumCapacity (0.5)"));
  EXPECT_THAT(error, HasSubstr("root.a.maximum-capacity = '50'"));
  // Absolute values count: 50% of a parent capped at 40% is fine under 100%.
  MustParse({{"root.queues", "a,b"},
             {"root.a.capacity", "40"},
             {"root.a.maximum-capacity", "40"},
             {"root.a.queues", "x"},
             {"root.a.x.capacity", "100"},
             {"root.b.capacity", "60"}});
}

TEST(QueueTreeErrorsTest, ChildrenMustSumTo100) {
  std::string error =
      ParseError({{"root.queues", "a,b"}, {"root.a.capacity", "60"}, {"root.b.capacity", "50"}});
  EXPECT_THAT(error, HasSubstr("Illegal capacity of 110 for children of queue root"));
  EXPECT_THAT(error,
              HasSubstr("capacity-scheduler.xml: yarn.scheduler.capacity.root.a.capacity = '60'"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.root.b.capacity = '50'"));
  error = ParseError({{"root.queues", "a"},
                      {"root.a.capacity", "100"},
                      {"root.a.queues", "x,y"},
                      {"root.a.x.capacity", "30"}});
  EXPECT_THAT(error, HasSubstr("Illegal capacity of 30 for children of queue root.a"));
  // Within Hadoop's precision.
  MustParse({{"root.queues", "a,b,c"},
             {"root.a.capacity", "33.33"},
             {"root.b.capacity", "33.33"},
             {"root.c.capacity", "33.34"}});
  // A 0-capacity parent's children must sum to 0.
  error = ParseError({{"root.queues", "a,b"},
                      {"root.a.capacity", "100"},
                      {"root.b.queues", "x"},
                      {"root.b.x.capacity", "10"}});
  EXPECT_THAT(error, HasSubstr("for children of queue root.b (must sum to 0)"));
}

TEST(QueueTreeErrorsTest, LeafNamesMustBeDistinct) {
  const std::string error = ParseError({{"root.queues", "a,b"},
                                        {"root.a.capacity", "50"},
                                        {"root.a.queues", "x"},
                                        {"root.a.x.capacity", "100"},
                                        {"root.b.capacity", "50"},
                                        {"root.b.queues", "x"},
                                        {"root.b.x.capacity", "100"}});
  EXPECT_THAT(error, HasSubstr("Two leaf queues were named x (root.a.x and root.b.x)"));
  EXPECT_THAT(error, HasSubstr("yarn.scheduler.capacity.root.b.queues = 'x'"));
}

TEST(QueueTreeErrorsTest, QueueNames) {
  EXPECT_THAT(ParseError({{"root.queues", "a.b"}}), HasSubstr("illegal queue name 'a.b'"));
  EXPECT_THAT(ParseError({{"root.queues", "a b"}}), HasSubstr("illegal queue name 'a b'"));
  EXPECT_THAT(ParseError({{"root.queues", "a,a"}, {"root.a.capacity", "50"}}),
              HasSubstr("queue 'a' is listed twice"));
}

TEST(QueueTreeErrorsTest, States) {
  EXPECT_THAT(
      ParseError({{"root.queues", "a"}, {"root.a.capacity", "100"}, {"root.a.state", "DRAINED"}}),
      HasSubstr("root.a.state = 'DRAINED': not RUNNING or STOPPED"));
  EXPECT_THAT(ParseError({{"root.queues", "a"},
                          {"root.a.capacity", "100"},
                          {"root.a.state", "STOPPED"},
                          {"root.a.queues", "x"},
                          {"root.a.x.capacity", "100"},
                          {"root.a.x.state", "RUNNING"}}),
              HasSubstr("the parent queue root.a is STOPPED"));
}

TEST(QueueTreeErrorsTest, OtherKeys) {
  auto base = [](const std::string& key, const std::string& value) {
    return std::map<std::string, std::string>{
        {"root.queues", "a"}, {"root.a.capacity", "100"}, {key, value}};
  };
  EXPECT_THAT(ParseError(base("root.a.ordering-policy", "lifo")),
              HasSubstr("root.a.ordering-policy = 'lifo': Unable to construct ordering policy "
                        "for: lifo"));
  // The short names are case-sensitive (a class name otherwise, not found).
  EXPECT_THAT(ParseError(base("root.a.ordering-policy", "FAIR")),
              HasSubstr("Unable to construct ordering policy for: FAIR"));
  EXPECT_THAT(ParseError(base("root.a.maximum-am-resource-percent", "1.5")),
              HasSubstr("root.a.maximum-am-resource-percent = '1.5'"));
  EXPECT_THAT(ParseError(base("maximum-am-resource-percent", "-1")),
              HasSubstr("yarn.scheduler.capacity.maximum-am-resource-percent"));
  EXPECT_THAT(ParseError(base("root.a.maximum-applications", "ten")),
              HasSubstr("root.a.maximum-applications = 'ten' is not an integer"));
  EXPECT_THAT(ParseError(base("root.a.user-limit-factor", "x")),
              HasSubstr("root.a.user-limit-factor = 'x' is not a number"));
  // Fair by class name is fine.
  MustParse(base("root.a.ordering-policy",
                 "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy."
                 "FairOrderingPolicy"));
}

TEST(QueueTreeTest, AclsAreGrantedByTheQueueOrAnAncestor) {
  auto props = Nested();
  props["root.acl_submit_applications"] = " ";
  props["root.acl_administer_queue"] = "ops ";
  props["root.a.acl_submit_applications"] = "alice";
  props["root.a.a1.acl_submit_applications"] = " analysts";
  props["root.b.acl_administer_queue"] = "bob";
  QueueTree tree = MustParse(props);
  const CsQueue& a1 = *tree.Find("a1");
  const CsQueue& b = *tree.Find("b");
  // By user on the parent.
  EXPECT_TRUE(tree.HasAccess(a1, QueueAcl::kSubmitApplications, "alice", {}));
  // By group on the leaf.
  EXPECT_TRUE(tree.HasAccess(a1, QueueAcl::kSubmitApplications, "carol", {"staff", "analysts"}));
  EXPECT_FALSE(tree.HasAccess(a1, QueueAcl::kSubmitApplications, "carol", {"staff"}));
  EXPECT_FALSE(tree.HasAccess(b, QueueAcl::kSubmitApplications, "alice", {}));
  // Administer implies the right to submit.
  EXPECT_FALSE(tree.HasAccess(b, QueueAcl::kSubmitApplications, "bob", {}));
  EXPECT_TRUE(tree.CanSubmit(b, "bob", {}));
  EXPECT_TRUE(tree.CanSubmit(b, "ops", {}));
  EXPECT_FALSE(tree.CanSubmit(tree.root(), "alice", {}));
  EXPECT_TRUE(tree.HasAccess(a1, QueueAcl::kAdministerQueue, "ops", {}));
}

TEST(QueueTreeTest, ToQueueSpecs) {
  QueueTree tree = MustParse(Nested());
  auto specs = tree.ToQueueSpecs(pool::Resource::Of(10000, 100));
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].name, "a1");
  EXPECT_EQ(specs[0].min, pool::Resource::Of(3000, 30));
  EXPECT_EQ(specs[0].max, pool::Resource::Unlimited());  // 100% of a 100% parent
  EXPECT_DOUBLE_EQ(specs[0].weight, 0.3);
  EXPECT_EQ(specs[1].name, "a2");
  EXPECT_EQ(specs[1].max, pool::Resource::Of(8000, 80));
  EXPECT_EQ(specs[2].name, "b");
  EXPECT_EQ(specs[2].min, pool::Resource::Of(4000, 40));
  EXPECT_EQ(specs[2].max, pool::Resource::Of(5000, 50));
  EXPECT_EQ(specs[2].ordering, pool::QueueOrdering::kFair);
  // No nodes yet: zero minimums, and queues at 0% still get a positive weight.
  auto empty = MustParse({{"root.queues", "a,b"}, {"root.a.capacity", "100"}})
                   .ToQueueSpecs(pool::Resource());
  EXPECT_EQ(empty[0].min, pool::Resource());
  EXPECT_EQ(empty[0].max, pool::Resource::Unlimited());
  EXPECT_GT(empty[1].weight, 0);
  // The pool accepts them.
  pool::QueueLedger ledger;
  EXPECT_TRUE(ledger.SetQueues(specs).ok());
  EXPECT_TRUE(ledger.SetQueues(empty).ok());
}

// The user limits each leaf hands the pool, with the capacity each line's
// LeafQueue starts from. A queue of 8.5% of 16 GB, as TestLeafQueue's queue
// A: 2.x normalises 1392.64 MB up to 2 GB (testUserLimits, 2.7.7); 3.3's
// effective minimum resource truncates it to 1392 MB (testUserLimits, 3.3.0).
TEST(QueueTreeTest, ToQueueSpecsUserLimitsPerLine) {
  QueueTree tree = MustParse({{"root.queues", "a,b"},
                              {"root.a.capacity", "8.5"},
                              {"root.b.capacity", "91.5"},
                              {"root.a.minimum-user-limit-percent", "50"},
                              {"root.a.user-limit-factor", "2"}});
  const pool::Resource cluster = pool::Resource::Of(16384, 32);
  UserLimitContext users;
  users.line = HadoopLine::k2_7;
  auto specs = tree.ToQueueSpecs(cluster, users);
  ASSERT_EQ(specs.size(), 2u);
  const pool::UserLimitSpec& a = specs[0].user_limits;
  EXPECT_TRUE(a.enabled);
  EXPECT_EQ(a.minimum_user_limit_percent, 50);
  EXPECT_DOUBLE_EQ(a.user_limit_factor, 2);
  EXPECT_EQ(a.rules, pool::UserLimitRules::kHadoop2_7);
  EXPECT_EQ(a.capacity.memory_mb(), 2048);
  EXPECT_EQ(a.cluster, cluster);
  EXPECT_EQ(a.minimum_allocation, pool::Resource::Of(1024, 1));
  // Hadoop's defaults: MULP 100, ULF 1.
  EXPECT_EQ(specs[1].user_limits.minimum_user_limit_percent, 100);
  EXPECT_DOUBLE_EQ(specs[1].user_limits.user_limit_factor, 1);
  // The dominant calculator takes each dimension's ceiling: 2.72 -> 3 vcores.
  users.calculator = pool::LimitCalculator::kDominant;
  EXPECT_EQ(tree.ToQueueSpecs(cluster, users)[0].user_limits.capacity, pool::Resource::Of(2048, 3));
  users.line = HadoopLine::k2_6;
  EXPECT_EQ(tree.ToQueueSpecs(cluster, users)[0].user_limits.rules,
            pool::UserLimitRules::kHadoop2_6);
  users.line = HadoopLine::k3_3;
  specs = tree.ToQueueSpecs(cluster, users);
  EXPECT_EQ(specs[0].user_limits.rules, pool::UserLimitRules::kHadoop3_3);
  EXPECT_EQ(specs[0].user_limits.capacity, pool::Resource::Of(1392, 2));
  EXPECT_EQ(specs[0].user_limits.calculator, pool::LimitCalculator::kDominant);
}

TEST(QueueTreeReloadTest, AddingQueuesAndChangingCapacitiesIsFine) {
  QueueTree current = MustParse(Nested());
  auto props = Nested();
  props["root.queues"] = "a,b,c";
  props["root.b.capacity"] = "30";
  props["root.c.capacity"] = "10";
  auto next = QueueTree::Reload(current, Conf(props));
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_NE(next->Find("c"), nullptr);
  EXPECT_DOUBLE_EQ(next->Find("b")->capacity, 30);
  EXPECT_DOUBLE_EQ(current.Find("b")->capacity, 40);
}

TEST(QueueTreeReloadTest, QueuesCannotBeRemoved) {
  QueueTree current = MustParse(Nested());
  auto props = Nested();
  props["root.a.queues"] = "a1";
  props["root.a.a1.capacity"] = "100";
  auto next = QueueTree::Reload(current, Conf(props));
  ASSERT_FALSE(next.ok());
  EXPECT_THAT(next.status().message(), HasSubstr("root.a.a2 cannot be found during refresh!"));
}

TEST(QueueTreeReloadTest, QueuesCannotMove) {
  QueueTree current = MustParse(Nested());
  auto props = Nested();
  props["root.a.queues"] = "a1";
  props["root.a.a1.capacity"] = "100";
  props["root.b.queues"] = "a2";
  props["root.b.a2.capacity"] = "100";
  auto next = QueueTree::Reload(current, Conf(props));
  ASSERT_FALSE(next.ok());
  EXPECT_THAT(next.status().message(),
              HasSubstr("Queue a2 is moved from:root.a.a2 to:root.b.a2 after refresh"));
}

TEST(QueueTreeReloadTest, LeafCannotBecomeParentNorParentLeaf) {
  QueueTree current = MustParse(Nested());
  auto props = Nested();
  props["root.b.queues"] = "b1";
  props["root.b.b1.capacity"] = "100";
  auto next = QueueTree::Reload(current, Conf(props));
  ASSERT_FALSE(next.ok());
  EXPECT_THAT(next.status().message(), HasSubstr("Cannot turn leaf queue root.b into a parent"));

  QueueTree parented = MustParse(props);
  auto back = QueueTree::Reload(parented, Conf(Nested()));
  ASSERT_FALSE(back.ok());
  EXPECT_THAT(back.status().message(), HasSubstr("Cannot turn parent queue root.b into a leaf"));
  EXPECT_FALSE(parented.CheckReplaceableBy(current).ok());
  EXPECT_TRUE(current.CheckReplaceableBy(current).ok());
}

TEST(QueueTreeReloadTest, AnInvalidNewConfIsRefused) {
  QueueTree current = MustParse(Nested());
  auto props = Nested();
  props["root.b.capacity"] = "50";
  auto next = QueueTree::Reload(current, Conf(props));
  ASSERT_FALSE(next.ok());
  EXPECT_THAT(next.status().message(),
              HasSubstr("Illegal capacity of 110 for children of queue root"));
}

}  // namespace
}  // namespace spindle::rm
