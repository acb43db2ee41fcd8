// Per-label queue capacities (rm/queues/label_capacities.h), with the
// numbers of Hadoop's own TestQueueParsing label cases.
#include "rm/queues/label_capacities.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "rm/queues/queue_tree.h"
#include "tests/rm/capacity_scheduler_conf.h"

namespace spindle::rm {
namespace {

using ::testing::HasSubstr;
using Properties = std::map<std::string, std::string>;

Result<QueueTree> ParseOnLine(const Properties& properties, const std::string& line) {
  Configuration conf = test_support::CapacitySchedulerConf(properties);
  conf.Set("spindle.compat.hadoop-version", line);
  return QueueTree::Parse(conf);
}

// TestQueueParsing.setupQueueConfigurationWithLabels (3.3): root red/blue
// 100; a (10, max 15; red 50 max 50, blue 50) with a1 (30, max 45; red 50,
// blue 100) and a2 (70, max 85; only red: 50, max 60); b (90; red 50, blue
// 50) with b1 (50, max 85; 50/50), b2 (30, max 35; 25/25), b3 (20, max 35;
// 25/25).
Properties WithLabels() {
  return {{"root.queues", "a,b"},
          {"root.accessible-node-labels.red.capacity", "100"},
          {"root.accessible-node-labels.blue.capacity", "100"},
          {"root.a.capacity", "10"},
          {"root.a.maximum-capacity", "15"},
          {"root.a.queues", "a1,a2"},
          {"root.a.accessible-node-labels", "red,blue"},
          {"root.a.accessible-node-labels.red.capacity", "50"},
          {"root.a.accessible-node-labels.red.maximum-capacity", "50"},
          {"root.a.accessible-node-labels.blue.capacity", "50"},
          {"root.a.a1.capacity", "30"},
          {"root.a.a1.maximum-capacity", "45"},
          {"root.a.a1.accessible-node-labels.red.capacity", "50"},
          {"root.a.a1.accessible-node-labels.blue.capacity", "100"},
          {"root.a.a2.capacity", "70"},
          {"root.a.a2.maximum-capacity", "85"},
          {"root.a.a2.accessible-node-labels", "red"},
          {"root.a.a2.accessible-node-labels.red.capacity", "50"},
          {"root.a.a2.accessible-node-labels.red.maximum-capacity", "60"},
          {"root.b.capacity", "90"},
          {"root.b.queues", "b1,b2,b3"},
          {"root.b.accessible-node-labels", "red,blue"},
          {"root.b.accessible-node-labels.red.capacity", "50"},
          {"root.b.accessible-node-labels.blue.capacity", "50"},
          {"root.b.b1.capacity", "50"},
          {"root.b.b1.maximum-capacity", "85"},
          {"root.b.b1.accessible-node-labels.red.capacity", "50"},
          {"root.b.b1.accessible-node-labels.blue.capacity", "50"},
          {"root.b.b2.capacity", "30"},
          {"root.b.b2.maximum-capacity", "35"},
          {"root.b.b2.accessible-node-labels.red.capacity", "25"},
          {"root.b.b2.accessible-node-labels.blue.capacity", "25"},
          {"root.b.b3.capacity", "20"},
          {"root.b.b3.maximum-capacity", "35"},
          {"root.b.b3.accessible-node-labels.red.capacity", "25"},
          {"root.b.b3.accessible-node-labels.blue.capacity", "25"}};
}

// TestQueueParsing.testQueueParsingWithLabels / checkQueueLabels.
TEST(LabelCapacitiesTest, AbsoluteCapacitiesPerLabelMultiplyDownTheTree) {
  for (const std::string line : {"2.6", "2.7", "3.3"}) {
    auto tree = ParseOnLine(WithLabels(), line);
    ASSERT_TRUE(tree.ok()) << line << ": " << tree.status().ToString();
    const CsQueue& a2 = *tree->Find("a2");
    EXPECT_NEAR(a2.capacity, 70, 1e-4);
    EXPECT_NEAR(a2.CapacityIn("red").capacity, 0.5, 1e-4) << line;
    EXPECT_NEAR(a2.absolute_capacity, 0.07, 1e-4);
    EXPECT_NEAR(a2.CapacityIn("red").absolute_capacity, 0.25, 1e-4) << line;
    EXPECT_NEAR(a2.absolute_maximum_capacity, 0.1275, 1e-4);
    EXPECT_NEAR(a2.CapacityIn("red").absolute_maximum_capacity, 0.3, 1e-4) << line;
    const CsQueue& b3 = *tree->Find("b3");
    EXPECT_NEAR(b3.absolute_capacity, 0.18, 1e-4);
    EXPECT_NEAR(b3.CapacityIn("red").absolute_capacity, 0.125, 1e-4) << line;
    EXPECT_NEAR(b3.absolute_maximum_capacity, 0.35, 1e-4);
    EXPECT_NEAR(b3.CapacityIn("red").absolute_maximum_capacity, 1, 1e-4) << line;
    // a2 may not access blue: no share of it.
    EXPECT_EQ(a2.CapacityIn("blue").absolute_maximum_capacity, 0) << line;
    // The default partition is the queue's own capacities.
    EXPECT_NEAR(b3.CapacityIn("").absolute_capacity, 0.18, 1e-4);
  }
}

// TestQueueParsing.testQueueParsingFailWhenSumOfChildrenLabeledCapacityNot100Percent
// (and ...WithWildCard: b may access "*", same refusal).
TEST(LabelCapacitiesTest, ChildrenMustSumTo100PerLabel) {
  for (const bool wildcard : {false, true}) {
    Properties props = WithLabels();
    props["root.b.b3.accessible-node-labels.red.capacity"] = "24";
    if (wildcard) props["root.b.accessible-node-labels"] = "*";
    for (const std::string line : {"2.6", "2.7", "3.3"}) {
      auto tree = ParseOnLine(props, line);
      ASSERT_FALSE(tree.ok()) << line;
      EXPECT_EQ(tree.status().code(), Status::Code::kInvalidArgument);
      EXPECT_THAT(tree.status().message(),
                  HasSubstr("Illegal capacity of 0.99 for children of queue b for label=red"))
          << line;
    }
  }
}

// A parent with no share of a label may not give its children any
// (ParentQueue.setChildQueues: capacityByLabel == 0 && sum > 0): root
// without its own red capacity refuses a child's.
TEST(LabelCapacitiesTest, RootNeedsItsOwnLabelCapacity) {
  const Properties props = {{"root.queues", "a"},
                            {"root.a.capacity", "100"},
                            {"root.a.accessible-node-labels", "red"},
                            {"root.a.accessible-node-labels.red.capacity", "100"}};
  for (const std::string line : {"2.6", "2.7", "3.3"}) {
    auto tree = ParseOnLine(props, line);
    ASSERT_FALSE(tree.ok()) << line;
    EXPECT_THAT(tree.status().message(),
                HasSubstr("Illegal capacity of 1.0 for children of queue root for label=red"));
  }
}

TEST(LabelCapacitiesTest, ValuesOutsideZeroToHundredAreRefusedWithTheLinesText) {
  Properties props = WithLabels();
  props["root.b.b3.accessible-node-labels.red.capacity"] = "120";
  auto tree = ParseOnLine(props, "3.3");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(),
              HasSubstr("Illegal capacity of 120.0 for node-label=red in queue=root.b.b3, valid "
                        "capacity should in range of [0, 100]."));
  props = WithLabels();
  props["root.b.b3.accessible-node-labels.red.maximum-capacity"] = "-1";
  tree = ParseOnLine(props, "2.6");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(),
              HasSubstr("Illegal capacity of -1.0 for label=red in queue=root.b.b3"));
}

// Capacity above maximum: each line's check and text.
TEST(LabelCapacitiesTest, CapacityAboveMaximumIsRefusedWithTheLinesText) {
  Properties props = WithLabels();
  props["root.a.a2.accessible-node-labels.red.maximum-capacity"] = "40";
  const std::map<std::string, std::string> expected = {
      {"2.6",
       "Illegal call to setMaxCapacity. Queue 'root.a.a2' has an absolute capacity (0.25) "
       "greater than its absolute maximumCapacity (0.2) of label=red"},
      {"2.7",
       "Illegal queue capacity setting, (capacity=0.5) > (maximum-capacity=0.4). When "
       "label=[red]"},
      {"3.3",
       "Illegal queue capacity setting (abs-capacity=0.25) > (abs-maximum-capacity=0.2) "
       "for queue=[root.a.a2],label=[red]"}};
  for (const auto& [line, text] : expected) {
    auto tree = ParseOnLine(props, line);
    ASSERT_FALSE(tree.ok()) << line;
    EXPECT_THAT(tree.status().message(), HasSubstr(text)) << line;
  }
}

// Where the lines differ in outcome: a queue that may access a label but
// has no keys for it. 2.6 (getMaximumNodeLabelCapacities) reads a maximum
// of 100% for every accessible label; 2.7 / 3.3 read only labels with keys
// under the queue, so the queue may not use the label at all.
TEST(LabelCapacitiesTest, AnUnconfiguredAccessibleLabelIsUsableOnlyOn26) {
  const Properties props = {{"root.queues", "a,b"},
                            {"root.accessible-node-labels.red.capacity", "100"},
                            {"root.a.capacity", "50"},
                            {"root.a.accessible-node-labels", "red"},
                            {"root.a.accessible-node-labels.red.capacity", "100"},
                            {"root.b.capacity", "50"},
                            {"root.b.accessible-node-labels", "red"}};
  const std::map<std::string, double> b_max = {{"2.6", 1.0}, {"2.7", 0.0}, {"3.3", 0.0}};
  for (const auto& [line, expected] : b_max) {
    auto tree = ParseOnLine(props, line);
    ASSERT_TRUE(tree.ok()) << line << ": " << tree.status().ToString();
    EXPECT_EQ(tree->Find("b")->CapacityIn("red").absolute_capacity, 0) << line;
    EXPECT_EQ(tree->Find("b")->CapacityIn("red").absolute_maximum_capacity, expected) << line;
    EXPECT_EQ(tree->Find("a")->CapacityIn("red").absolute_capacity, 1) << line;
    // What REST's per-partition answer shows as configured (3.3's
    // getConfiguredNodeLabels: keys under the queue; 2.6 every entry).
    EXPECT_TRUE(tree->Find("a")->CapacityIn("red").configured) << line;
    EXPECT_EQ(tree->Find("b")->CapacityIn("red").configured, line == "2.6") << line;
    EXPECT_TRUE(tree->Find("b")->CapacityIn("").configured) << line;
  }
}

// AbstractCSQueue.setupQueueConfigs: below a parent other than root, a
// queue's accessible labels are within its parent's.
TEST(LabelCapacitiesTest, AChildMayNotAccessMoreLabelsThanItsParent) {
  Properties props = WithLabels();
  props["root.a.accessible-node-labels"] = "red";
  props.erase("root.a.accessible-node-labels.blue.capacity");
  props.erase("root.a.a1.accessible-node-labels.blue.capacity");
  props["root.b.accessible-node-labels.blue.capacity"] = "100";
  props["root.a.a1.accessible-node-labels"] = "red,blue";
  auto tree = ParseOnLine(props, "3.3");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(),
              HasSubstr("Some labels of child queue is not a subset of parent queue, these "
                        "labels=[blue]"));
  props["root.a.a1.accessible-node-labels"] = "*";
  tree = ParseOnLine(props, "3.3");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(),
              HasSubstr("Parent's accessible queue is not ANY(*), but child's accessible queue "
                        "is *"));
}

TEST(LabelCapacitiesTest, LabelsNamedInTheFile) {
  const Configuration conf = test_support::CapacitySchedulerConf(WithLabels());
  EXPECT_EQ(LabelsNamedIn(conf), (std::set<std::string>{"blue", "red"}));
}

}  // namespace
}  // namespace spindle::rm
