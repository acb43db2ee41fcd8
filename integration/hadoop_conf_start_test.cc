// `spindle rm` started as an operator starts it on a fresh machine: the built
// binary, a Hadoop configuration directory with no spindle.* key at all, and
// no /tmp/hadoop-* yet. Each such child runs in its own mount namespace with
// a fresh, empty tmpfs on /tmp (`unshare -m`, root only: CI runs as root), so
// what it derives from hadoop.tmp.dir = /tmp/hadoop-${user.name} is created
// from nothing and never touches the machine's /tmp; the test looks at the
// child's /tmp through /proc/<pid>/root. The child that starts on an empty
// configuration directory (every port at its Hadoop default) also gets its
// own network namespace (`unshare -n`), so 8032..8088 are free.
//
// Also: a missing --conf, a --conf that is a file, and `--format-state-store`
// on a store path whose parents do not exist yet.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/child_process.h"
#include "base/process_user.h"
#include "integration/wait_for.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_server_common_service_protos.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr char kClient[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kTracker[] = "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteSite(const fs::path& path, const std::map<std::string, std::string>& properties) {
  std::ofstream site(path);
  site << "<?xml version=\"1.0\"?>\n<configuration>\n";
  for (const auto& [k, v] : properties) {
    site << "  <property><name>" << k << "</name><value>" << v << "</value></property>\n";
  }
  site << "</configuration>\n";
}

std::map<std::string, uint16_t> ReadPorts(const fs::path& path) {
  std::map<std::string, uint16_t> ports;
  std::istringstream lines(ReadAll(path));
  std::string line;
  while (std::getline(lines, line)) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) ports[line.substr(0, eq)] = std::stoi(line.substr(eq + 1));
  }
  return ports;
}

// VersionUtil.compareVersions for dotted numbers (what a NodeManager with
// minimum.version = EqualToNM checks: rm >= nm).
int CompareVersions(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string p, q;
  while (true) {
    const bool more_x = static_cast<bool>(std::getline(x, p, '.'));
    const bool more_y = static_cast<bool>(std::getline(y, q, '.'));
    if (!more_x && !more_y) return 0;
    const long u = more_x ? std::stol(p) : 0;
    const long v = more_y ? std::stol(q) : 0;
    if (u != v) return u < v ? -1 : 1;
  }
}

class HadoopConfStartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Not under /tmp: the children see their own /tmp.
    work_ = fs::current_path() / ("hadoop-conf-start-test." + std::to_string(::getpid()));
    fs::remove_all(work_);
    fs::create_directories(work_ / "conf");
  }
  void TearDown() override {
    rm_.Stop(SIGTERM, 10s);
    if (!HasFailure() && std::getenv("SPINDLE_KEEP_TEST_DIRS") == nullptr) fs::remove_all(work_);
  }

  static bool CanUnshare() {
    return ::geteuid() == 0 && (fs::exists("/usr/bin/unshare") || fs::exists("/bin/unshare"));
  }

  // `spindle <args>` in a new mount namespace (and network namespace when
  // `own_network`) whose /tmp is an empty tmpfs; exits 97 before exec if the
  // fresh /tmp is not empty.
  ChildProcess SpawnIsolated(const std::vector<std::string>& args, bool own_network) {
    std::string command =
        "mount -t tmpfs spindle-test-tmp /tmp && [ -z \"$(ls -A /tmp)\" ] || exit 97; exec \"$0\"";
    for (size_t i = 0; i < args.size(); ++i) command += " \"$" + std::to_string(i + 1) + "\"";
    ChildOptions options;
    options.binary = fs::exists("/usr/bin/unshare") ? "/usr/bin/unshare" : "/bin/unshare";
    options.argv0 = "unshare";
    options.args = {own_network ? "-mn" : "-m", "/bin/sh", "-c", command, SPINDLE_BINARY};
    options.args.insert(options.args.end(), args.begin(), args.end());
    options.log_path = (work_ / "rm.log").string();
    auto child = ChildProcess::Spawn(options);
    EXPECT_TRUE(child.ok()) << child.status().ToString();
    return child.ok() ? std::move(*child) : ChildProcess();
  }

  // Runs `spindle <args>` to its end; its exit status, its output in *out.
  int Run(const std::vector<std::string>& args, std::string* out) {
    ChildOptions options;
    options.binary = SPINDLE_BINARY;
    options.args = args;
    const fs::path log = work_ / ("run." + std::to_string(++runs_) + ".log");
    options.log_path = log.string();
    auto child = ChildProcess::Spawn(options);
    if (!child.ok()) return -1;
    if (!child->WaitExit(60s)) return -2;
    *out = ReadAll(log);
    const int status = child->wait_status();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -3;
  }

  // Waits for the ports file, or for the child to die (then fails).
  std::map<std::string, uint16_t> AwaitPorts() {
    const fs::path ports = work_ / "rm.ports";
    const bool up = WaitFor([&] { return fs::exists(ports) || rm_.Exited(); }, 60s);
    EXPECT_TRUE(up && fs::exists(ports)) << "spindle rm did not start:\n"
                                         << ReadAll(work_ / "rm.log");
    return fs::exists(ports) ? ReadPorts(ports) : std::map<std::string, uint16_t>{};
  }

  fs::path work_;
  ChildProcess rm_;
  int runs_ = 0;
};

TEST_F(HadoopConfStartTest, StockYarnSiteStartsWithTheStoreUnderHadoopTmpDir) {
  if (!CanUnshare()) {
    GTEST_SKIP() << "needs root and unshare(1) for a private /tmp";
  }
  // Hadoop keys only: ports picked at run time, recovery on with the
  // store's shipped default path.
  std::map<std::string, std::string> site;
  for (const char* key : {"address", "scheduler.address", "resource-tracker.address",
                          "admin.address", "webapp.address"}) {
    site[std::string("yarn.resourcemanager.") + key] = "127.0.0.1:0";
  }
  site["yarn.resourcemanager.recovery.enabled"] = "true";
  WriteSite(work_ / "conf/yarn-site.xml", site);
  const fs::path host_store =
      fs::path("/tmp") / ("hadoop-" + ProcessUserName()) / "yarn/system/rmstore";
  const bool host_store_existed = fs::exists(host_store);

  rm_ = SpawnIsolated(
      {"rm", "--conf", (work_ / "conf").string(), "--ports-file", (work_ / "rm.ports").string()},
      /*own_network=*/false);
  auto ports = AwaitPorts();
  ASSERT_FALSE(ports.empty());
  const pid_t pid = rm_.pid();

  // A Hadoop 3.3.6 NodeManager registers; with minimum.version = EqualToNM
  // it compares the RM's version to its own.
  ipc::RpcClientOptions client_options;
  client_options.connect_timeout = 5s;
  client_options.call_timeout = 10s;
  ipc::RpcClient client(client_options);
  hadoop::yarn::RegisterNodeManagerRequestProto reg;
  reg.mutable_node_id()->set_host("node1.example");
  reg.mutable_node_id()->set_port(45454);
  reg.set_http_port(8042);
  reg.mutable_resource()->set_memory(4096);
  reg.mutable_resource()->set_virtual_cores(4);
  reg.set_nm_version("3.3.6");
  hadoop::yarn::RegisterNodeManagerResponseProto registered;
  const ipc::ConnectionSpec tracker{"127.0.0.1", ports.at("resource-tracker"), kTracker, "yarn",
                                    std::nullopt};
  Status s = client.Call(tracker, "registerNodeManager", reg, &registered);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(registered.nodeaction(), hadoop::yarn::NORMAL) << registered.diagnostics_message();
  EXPECT_EQ(registered.rm_version(), "3.3.6");
  EXPECT_GE(CompareVersions(registered.rm_version(), reg.nm_version()), 0);

  // A client sees the node.
  hadoop::yarn::GetClusterMetricsRequestProto metrics_request;
  hadoop::yarn::GetClusterMetricsResponseProto metrics;
  const ipc::ConnectionSpec clients{"127.0.0.1", ports.at("client"), kClient, "alice",
                                    std::nullopt};
  ASSERT_TRUE(client.Call(clients, "getClusterMetrics", metrics_request, &metrics).ok());
  EXPECT_EQ(metrics.cluster_metrics().num_node_managers(), 1);

  // The store is where Hadoop's leveldb store would be, in the child's /tmp.
  const fs::path child_tmp = fs::path("/proc") / std::to_string(pid) / "root/tmp";
  const fs::path store = child_tmp / ("hadoop-" + ProcessUserName()) / "yarn/system/rmstore";
  EXPECT_TRUE(fs::exists(store / "CURRENT")) << store;
  // ... and not in the machine's /tmp, if it was not there before.
  if (!host_store_existed) {
    EXPECT_FALSE(fs::exists(host_store)) << host_store;
  }

  rm_.Stop(SIGTERM, 10s);
  EXPECT_TRUE(WIFEXITED(rm_.wait_status()) && WEXITSTATUS(rm_.wait_status()) == 0)
      << ReadAll(work_ / "rm.log");
}

TEST_F(HadoopConfStartTest, EmptyConfDirStartsOnHadoopDefaults) {
  if (!CanUnshare()) {
    GTEST_SKIP() << "needs root and unshare(1) for private /tmp and ports";
  }
  rm_ = SpawnIsolated(
      {"rm", "--conf", (work_ / "conf").string(), "--ports-file", (work_ / "rm.ports").string()},
      /*own_network=*/true);
  auto ports = AwaitPorts();
  ASSERT_FALSE(ports.empty());
  EXPECT_EQ(ports["client"], 8032);
  EXPECT_EQ(ports["scheduler"], 8030);
  EXPECT_EQ(ports["resource-tracker"], 8031);
  EXPECT_EQ(ports["admin"], 8033);
  EXPECT_EQ(ports["web"], 8088);
  // Recovery is off by default (every Hadoop line): no store anywhere.
  const fs::path child_tmp = fs::path("/proc") / std::to_string(rm_.pid()) / "root/tmp";
  EXPECT_FALSE(fs::exists(child_tmp / ("hadoop-" + ProcessUserName()) / "yarn/system/rmstore"));
  rm_.Stop(SIGTERM, 10s);
  EXPECT_TRUE(WIFEXITED(rm_.wait_status()) && WEXITSTATUS(rm_.wait_status()) == 0)
      << ReadAll(work_ / "rm.log");
}

TEST_F(HadoopConfStartTest, MissingConfDirIsOneClearLineAndExit1) {
  const std::string missing = (work_ / "no-such-dir").string();
  for (const char* command : {"rm", "nm"}) {
    std::string out;
    EXPECT_EQ(Run({command, "--conf", missing}, &out), 1) << out;
    EXPECT_NE(out.find("spindle " + std::string(command) + ": configuration directory " + missing +
                       ": no such directory\n"),
              std::string::npos)
        << out;
  }
}

TEST_F(HadoopConfStartTest, ConfThatIsAFileIsOneClearLineAndExit1) {
  const fs::path file = work_ / "conf/yarn-site.xml";
  WriteSite(file, {});
  for (const char* command : {"rm", "nm"}) {
    std::string out;
    EXPECT_EQ(Run({command, "--conf", file.string()}, &out), 1) << out;
    EXPECT_NE(out.find("configuration directory " + file.string() + ": not a directory"),
              std::string::npos)
        << out;
  }
}

TEST_F(HadoopConfStartTest, FormatStateStoreCreatesAMissingPath) {
  // hadoop.tmp.dir names a directory whose parents do not exist yet.
  const fs::path tmp = work_ / "fresh/hadoop-tmp";
  WriteSite(work_ / "conf/core-site.xml", {{"hadoop.tmp.dir", tmp.string()}});
  std::string out;
  EXPECT_EQ(Run({"rm", "--conf", (work_ / "conf").string(), "--format-state-store"}, &out), 0)
      << out;
  EXPECT_NE(out.find("state store formatted"), std::string::npos) << out;
  EXPECT_EQ(out.find("No such file"), std::string::npos) << out;
  EXPECT_TRUE(fs::exists(tmp / "yarn/system/rmstore/CURRENT")) << out;
}

}  // namespace
}  // namespace spindle
