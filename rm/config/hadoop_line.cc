#include "rm/config/hadoop_line.h"

#include <algorithm>
#include <array>
#include <utility>

#include "base/strings/trim.h"
#include "rm/config/configuration.h"

namespace spindle::rm {

namespace {

constexpr std::array<HadoopLineTraits, 3> kTraits = {{
    {HadoopLine::k2_6, "2.6", "2.6.5", AmProtocolRules::kHadoop2, false, false, false},
    {HadoopLine::k2_7, "2.7", "2.7.7", AmProtocolRules::kHadoop2, false, false, false},
    {HadoopLine::k3_3, "3.3", "3.3.6", AmProtocolRules::kHadoop3, true, true, true},
}};

// A key's shipped default on each line, read from core-default.xml and
// yarn-default.xml at rel/release-2.6.5, rel/release-2.7.7 and
// rel/release-3.3.0 (checked unchanged on branch-3.3). Only keys Spindle
// reads; see HADOOP_LINES.md for where each is read.
struct LineDefault {
  std::string_view key;
  std::string_view file;
  std::string_view on_2_6;
  std::string_view on_2_7;
  std::string_view on_3_3;
};

constexpr std::string_view kCore = "core-default.xml";
constexpr std::string_view kYarn = "yarn-default.xml";
constexpr std::string_view kEnvWhitelist2 =
    "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,HADOOP_YARN_HOME";
constexpr std::string_view kEnvWhitelist3 =
    "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,CLASSPATH_PREPEND_DISTCACHE,"
    "HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ";
constexpr std::string_view kStorePath = "${hadoop.tmp.dir}/yarn/system/rmstore";

// Sorted by key (HadoopDefault searches it).
constexpr std::array<LineDefault, 9> kDefaults = {{
    {"hadoop.tmp.dir", kCore, "/tmp/hadoop-${user.name}", "/tmp/hadoop-${user.name}",
     "/tmp/hadoop-${user.name}"},
    // Not in 2.6's core-default.xml: CommonConfigurationKeys has 64 MiB.
    {"ipc.maximum.data.length", kCore, "67108864", "67108864", "134217728"},
    {"yarn.nodemanager.env-whitelist", kYarn, kEnvWhitelist2, kEnvWhitelist2, kEnvWhitelist3},
    {"yarn.nodemanager.local-dirs", kYarn, "${hadoop.tmp.dir}/nm-local-dir",
     "${hadoop.tmp.dir}/nm-local-dir", "${hadoop.tmp.dir}/nm-local-dir"},
    {"yarn.resourcemanager.fs.state-store.uri", kYarn, kStorePath, kStorePath, kStorePath},
    {"yarn.resourcemanager.leveldb-state-store.path", kYarn,
     // 2.6 has no leveldb store; its default store (FileSystemRMStateStore,
     // yarn.resourcemanager.fs.state-store.uri) lives at the same path.
     kStorePath, kStorePath, kStorePath},
    {"yarn.resourcemanager.max-completed-applications", kYarn, "10000", "10000", "1000"},
    {"yarn.resourcemanager.recovery.enabled", kYarn, "false", "false", "false"},
    {"yarn.scheduler.maximum-allocation-vcores", kYarn, "32", "32", "4"},
}};

}  // namespace

const HadoopLineTraits& TraitsOf(HadoopLine line) {
  for (const auto& traits : kTraits) {
    if (traits.line == line) return traits;
  }
  return kTraits.back();
}

std::optional<HadoopLine> ParseHadoopLine(std::string_view text) {
  text = TrimBlanks(text);
  if (text.empty()) return std::nullopt;
  for (const auto& traits : kTraits) {
    // The line ("2.7") or one of its releases ("2.7.7"), as spindle doctor
    // reads it (rm/config/key_catalog.h's HadoopLineIndex).
    if (text == traits.name ||
        (text.size() > traits.name.size() && text.substr(0, traits.name.size()) == traits.name &&
         text[traits.name.size()] == '.')) {
      return traits.line;
    }
  }
  return std::nullopt;
}

Result<HadoopLine> HadoopLineOf(const Configuration& conf) {
  const auto value = conf.GetTrimmed(kHadoopLineKey);
  if (!value.has_value()) return kDefaultHadoopLine;
  if (auto line = ParseHadoopLine(*value); line.has_value()) return *line;
  std::string supported;
  for (const auto& traits : kTraits) {
    supported.append(supported.empty() ? "" : ", ").append(traits.name);
  }
  return Status::InvalidArgument(conf.SourceOf(kHadoopLineKey) + ": " + kHadoopLineKey + " = '" +
                                 *value + "' is not a Hadoop line Spindle follows (" + supported +
                                 ")");
}

std::optional<ShippedDefault> HadoopDefault(HadoopLine line, std::string_view key) {
  auto it = std::lower_bound(kDefaults.begin(), kDefaults.end(), key,
                             [](const LineDefault& d, std::string_view k) { return d.key < k; });
  if (it == kDefaults.end() || it->key != key) return std::nullopt;
  switch (line) {
    case HadoopLine::k2_6:
      return ShippedDefault{it->on_2_6, it->file};
    case HadoopLine::k2_7:
      return ShippedDefault{it->on_2_7, it->file};
    case HadoopLine::k3_3:
      return ShippedDefault{it->on_3_3, it->file};
  }
  return std::nullopt;
}

std::vector<std::string_view> HadoopDefaultKeys() {
  std::vector<std::string_view> keys;
  for (const auto& d : kDefaults) keys.push_back(d.key);
  return keys;
}

std::string ShippedCapacitySchedulerXml() {
  // hadoop-yarn-server-resourcemanager/conf/capacity-scheduler.xml: the keys
  // Spindle reads, common to 2.6.5, 2.7.7 and 3.3.0 (the file also sets the
  // resource calculator, locality delay and queue-mapping override to their
  // code defaults, which Spindle does not read).
  constexpr std::pair<std::string_view, std::string_view> kShipped[] = {
      {"yarn.scheduler.capacity.maximum-applications", "10000"},
      {"yarn.scheduler.capacity.maximum-am-resource-percent", "0.1"},
      {"yarn.scheduler.capacity.root.queues", "default"},
      {"yarn.scheduler.capacity.root.default.capacity", "100"},
      {"yarn.scheduler.capacity.root.default.user-limit-factor", "1"},
      {"yarn.scheduler.capacity.root.default.maximum-capacity", "100"},
      {"yarn.scheduler.capacity.root.default.state", "RUNNING"},
      {"yarn.scheduler.capacity.root.default.acl_submit_applications", "*"},
      {"yarn.scheduler.capacity.root.default.acl_administer_queue", "*"},
  };
  std::string xml = "<?xml version=\"1.0\"?>\n<configuration>\n";
  for (const auto& [key, value] : kShipped) {
    xml.append("  <property><name>")
        .append(key)
        .append("</name><value>")
        .append(value)
        .append("</value></property>\n");
  }
  return xml + "</configuration>\n";
}

}  // namespace spindle::rm
