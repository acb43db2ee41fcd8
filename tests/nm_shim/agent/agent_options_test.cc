#include "nm_shim/agent/agent_options.h"

#include <gtest/gtest.h>

namespace spindle::nm {
namespace {

TEST(AgentOptionsTest, HadoopDefaults) {
  rm::Configuration conf;
  conf.Set("hadoop.tmp.dir", "/var/tmp/h");
  auto o = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->resource_tracker.host, "0.0.0.0");
  EXPECT_EQ(o->resource_tracker.port, 8031);
  EXPECT_EQ(o->nm_address.host, "0.0.0.0");
  EXPECT_EQ(o->nm_address.port, 0);
  EXPECT_FALSE(o->node_host.empty());
  EXPECT_NE(o->node_host, "0.0.0.0") << "the wildcard becomes this machine's name";
  EXPECT_EQ(o->http_port, 8042);
  EXPECT_EQ(o->memory_mb, 8192);
  EXPECT_EQ(o->vcores, 8);
  EXPECT_EQ(o->local_dirs, std::vector<std::string>{"/var/tmp/h/nm-local-dir"});
  EXPECT_EQ(o->log_dirs, std::vector<std::string>{"/var/tmp/h/nm-logs"});
  EXPECT_EQ(o->user_home_dir, "/home/");
  // The newest line's yarn-default.xml (3.3); 2.x below.
  EXPECT_EQ(o->env_whitelist,
            (std::vector<std::string>{"JAVA_HOME", "HADOOP_COMMON_HOME", "HADOOP_HDFS_HOME",
                                      "HADOOP_CONF_DIR", "CLASSPATH_PREPEND_DISTCACHE",
                                      "HADOOP_YARN_HOME", "HADOOP_HOME", "PATH", "LANG", "TZ"}));
  EXPECT_EQ(o->nm_version, "3.3.6");
  EXPECT_TRUE(o->unregister_on_stop) << "3.3's ResourceTracker has unRegisterNodeManager";
  EXPECT_EQ(o->admin_env.at("MALLOC_ARENA_MAX"), "$MALLOC_ARENA_MAX");
  EXPECT_EQ(o->sigkill_delay_ms, 250);
  EXPECT_EQ(o->monitor_interval_ms, 3000);
  EXPECT_TRUE(o->pmem_check_enabled);
  EXPECT_TRUE(o->log_container_debug_info);
  EXPECT_TRUE(o->Environment().log_container_debug_info);
}

TEST(AgentOptionsTest, HaListsEveryRmIdsResourceTracker) {
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.ha.enabled", "true");
  conf.Set("yarn.resourcemanager.ha.rm-ids", "rm1, rm2");
  conf.Set("yarn.resourcemanager.hostname.rm1", "h1");
  conf.Set("yarn.resourcemanager.resource-tracker.address.rm2", "h2:9031");
  auto o = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  ASSERT_EQ(o->resource_trackers_ha.size(), 2u);
  EXPECT_EQ(o->resource_trackers_ha[0].ToString(), "h1:8031");
  EXPECT_EQ(o->resource_trackers_ha[1].ToString(), "h2:9031");
  conf.Set("yarn.resourcemanager.ha.rm-ids", "rm1,rm3");
  EXPECT_FALSE(AgentOptionsFromConfiguration(conf).ok()) << "rm3 has no address";
  EXPECT_TRUE(AgentOptionsFromConfiguration(rm::Configuration())->resource_trackers_ha.empty());
}

TEST(AgentOptionsTest, HadoopLineChoosesVersionAndWhitelist) {
  rm::Configuration conf;
  conf.Set("spindle.compat.hadoop-version", "2.7");
  auto o = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->nm_version, "2.7.7");
  EXPECT_FALSE(o->unregister_on_stop) << "unRegisterNodeManager came with 2.8 (YARN-41)";
  EXPECT_EQ(o->env_whitelist,
            (std::vector<std::string>{"JAVA_HOME", "HADOOP_COMMON_HOME", "HADOOP_HDFS_HOME",
                                      "HADOOP_CONF_DIR", "HADOOP_YARN_HOME"}));
  conf.Set("spindle.compat.hadoop-version", "2.6");
  EXPECT_EQ(AgentOptionsFromConfiguration(conf)->nm_version, "2.6.5");
  EXPECT_FALSE(AgentOptionsFromConfiguration(conf)->unregister_on_stop);
  conf.Set("spindle.compat.hadoop-version", "3");
  auto bad = AgentOptionsFromConfiguration(conf);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("spindle.compat.hadoop-version = '3'"), std::string::npos);
}

TEST(AgentOptionsTest, LocalDirsDefaultUnderTheUsersHadoopTmpDir) {
  rm::Configuration conf;
  conf.SetSystemProperty("user.name", "alice");
  auto o = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->local_dirs, std::vector<std::string>{"/tmp/hadoop-alice/nm-local-dir"});
  EXPECT_EQ(o->log_dirs, std::vector<std::string>{"/tmp/hadoop-alice/nm-logs"});
}

TEST(AgentOptionsTest, EveryKnob) {
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.hostname", "rm.example");
  conf.Set("yarn.nodemanager.hostname", "10.1.2.3");
  conf.Set("yarn.nodemanager.webapp.address", "${yarn.nodemanager.hostname}:18042");
  conf.Set("yarn.nodemanager.resource.memory-mb", "4096");
  conf.Set("yarn.nodemanager.resource.cpu-vcores", "3");
  conf.Set("yarn.nodemanager.local-dirs", "/a, file:///b");
  conf.Set("yarn.nodemanager.log-dirs", "/logs");
  conf.Set("yarn.nodemanager.user-home-dir", "/users/");
  conf.Set("yarn.nodemanager.env-whitelist", "JAVA_HOME,PATH");
  conf.Set("yarn.nodemanager.admin-env", "A=1,B=x=y");
  conf.Set("yarn.nodemanager.sleep-delay-before-sigkill.ms", "0");
  conf.Set("yarn.nodemanager.container-monitor.interval-ms", "500");
  conf.Set("yarn.nodemanager.pmem-check-enabled", "false");
  auto o = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->resource_tracker.host, "rm.example");
  EXPECT_EQ(o->resource_tracker.port, 8031);
  EXPECT_EQ(o->nm_address.host, "10.1.2.3");
  EXPECT_EQ(o->node_host, "10.1.2.3");
  EXPECT_EQ(o->http_port, 18042);
  EXPECT_EQ(o->memory_mb, 4096);
  EXPECT_EQ(o->vcores, 3);
  EXPECT_EQ(o->local_dirs, (std::vector<std::string>{"/a", "/b"}));
  EXPECT_EQ(o->log_dirs, std::vector<std::string>{"/logs"});
  EXPECT_EQ(o->user_home_dir, "/users/");
  EXPECT_EQ(o->env_whitelist, (std::vector<std::string>{"JAVA_HOME", "PATH"}));
  EXPECT_EQ(o->admin_env.at("A"), "1");
  EXPECT_EQ(o->admin_env.at("B"), "x=y");
  EXPECT_EQ(o->sigkill_delay_ms, 0);
  EXPECT_EQ(o->monitor_interval_ms, 500);
  EXPECT_FALSE(o->pmem_check_enabled);
  const NodeEnvironment env = o->Environment();
  EXPECT_EQ(env.nm_host, "10.1.2.3");
  EXPECT_EQ(env.nm_http_port, 18042);
  EXPECT_EQ(env.local_dirs, o->local_dirs);
}

// The web server binds yarn.nodemanager.webapp.address, its host replaced
// by yarn.nodemanager.bind-host when set (WebAppUtils.getWebAppBindURL).
TEST(AgentOptionsTest, WebBindAddress) {
  rm::Configuration conf;
  auto defaults = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();
  EXPECT_EQ(defaults->web.bind_host, "0.0.0.0");
  EXPECT_EQ(defaults->web.port, 8042);
  conf.Set("yarn.nodemanager.hostname", "10.1.2.3");
  conf.Set("yarn.nodemanager.webapp.address", "${yarn.nodemanager.hostname}:0");
  conf.Set("hadoop.http.max.threads", "3");
  auto o = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->web.bind_host, "10.1.2.3");
  EXPECT_EQ(o->web.port, 0);
  EXPECT_EQ(o->web.worker_threads, 3);
  conf.Set("yarn.nodemanager.bind-host", "0.0.0.0");
  o = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->web.bind_host, "0.0.0.0");
  EXPECT_EQ(o->http_port, 0);
  conf.Set("yarn.nodemanager.log-container-debug-info.enabled", "false");
  o = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(o.ok());
  EXPECT_FALSE(o->Environment().log_container_debug_info);
}

TEST(AgentOptionsTest, ExplicitAddressesAndDetection) {
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.resource-tracker.address", "127.0.0.1:9031");
  conf.Set("yarn.nodemanager.address", "127.0.0.1:45454");
  conf.Set("yarn.nodemanager.resource.memory-mb", "-1");
  conf.Set("yarn.nodemanager.resource.cpu-vcores", "-1");
  auto o = AgentOptionsFromConfiguration(conf);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->resource_tracker.port, 9031);
  EXPECT_EQ(o->nm_address.port, 45454);
  EXPECT_EQ(o->node_host, "127.0.0.1");
  EXPECT_EQ(o->memory_mb, DetectMemoryMb().value());
  EXPECT_GT(o->memory_mb, 0);
  EXPECT_EQ(o->vcores, DetectVcores());
}

TEST(AgentOptionsTest, BadValuesNameTheKeyAndValue) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"yarn.resourcemanager.resource-tracker.address", "no-port"},
      {"yarn.resourcemanager.resource-tracker.address", "host:0"},
      {"yarn.nodemanager.address", "host:70000"},
      {"yarn.nodemanager.webapp.address", ":8042"},
      {"yarn.nodemanager.resource.memory-mb", "0"},
      {"yarn.nodemanager.resource.memory-mb", "lots"},
      {"yarn.nodemanager.resource.cpu-vcores", "-2"},
      {"yarn.nodemanager.local-dirs", "relative/dir"},
      {"yarn.nodemanager.log-dirs", "hdfs://nn/logs"},
      {"yarn.nodemanager.admin-env", "NOEQUALS"},
      {"yarn.nodemanager.sleep-delay-before-sigkill.ms", "-1"},
      {"yarn.nodemanager.container-monitor.interval-ms", "0"},
      {"yarn.nodemanager.pmem-check-enabled", "maybe"},
      {"spindle.nm.simulate.default-duration-ms", "-5"},
  };
  for (const auto& [key, value] : bad) {
    rm::Configuration conf;
    conf.Set(key, value);
    auto o = AgentOptionsFromConfiguration(conf);
    ASSERT_FALSE(o.ok()) << key << "=" << value;
    EXPECT_NE(o.status().message().find(key), std::string::npos) << o.status().message();
    EXPECT_NE(o.status().message().find(value), std::string::npos) << o.status().message();
  }
}

}  // namespace
}  // namespace spindle::nm
