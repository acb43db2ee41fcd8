// A Configuration holding capacity-scheduler.xml properties, for the rm/
// unit tests that build queue trees: keys are given without the common
// "yarn.scheduler.capacity." prefix, as if read from capacity-scheduler.xml.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "rm/config/configuration.h"
#include "rm/queues/queue_tree.h"

namespace spindle::rm::test_support {

inline Configuration CapacitySchedulerConf(const std::map<std::string, std::string>& properties) {
  std::string xml = "<?xml version=\"1.0\"?>\n<configuration>\n";
  for (const auto& [key, value] : properties) {
    xml += "  <property><name>" + std::string(kCapacitySchedulerPrefix) + key + "</name><value>" +
           value + "</value></property>\n";
  }
  xml += "</configuration>\n";
  Configuration conf;
  EXPECT_TRUE(conf.AddResourceString(xml, "capacity-scheduler.xml").ok());
  return conf;
}

// The tree of `properties`; a parse error fails the test (and yields null).
inline std::shared_ptr<const QueueTree> ParsedTree(
    const std::map<std::string, std::string>& properties) {
  auto tree = QueueTree::Parse(CapacitySchedulerConf(properties));
  EXPECT_TRUE(tree.ok()) << tree.status().ToString();
  if (!tree.ok()) return nullptr;
  return std::make_shared<const QueueTree>(std::move(tree).value());
}

}  // namespace spindle::rm::test_support
