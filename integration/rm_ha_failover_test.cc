// An HA pair of real `spindle rm` processes on 127.0.0.1 (rm-ids rm1 and rm2,
// each with `yarn.resourcemanager.ha.id` set, every port picked at run time)
// electing their active through a real ZooKeeper (MiniZooKeeper) as Hadoop's
// embedded ActiveStandbyElector does:
//  - exactly one becomes active; the other answers StandbyException on its
//    client port;
//  - the active is SIGKILLed (SPINDLE_HA_KILLS times, default 3): the standby
//    becomes active within zk-timeout-ms plus a margin (its session must
//    expire on the server first), and the time from the kill to the first
//    answer of the new active is measured and printed (min/median/max);
//  - the killed one, started again, joins as standby.
// Each RM runs without a state store here (recovery off): what a shared
// ZooKeeper store adds (applications surviving the failover) is for the
// store's own test.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/child_process.h"
#include "integration/cell_support.h"
#include "integration/ha_probe.h"
#include "integration/wait_for.h"
#include "rm/yarn_exceptions.h"
#include "tests/support/mini_zookeeper.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

constexpr int kZkTimeoutMs = 2000;

using Answer = cell::HaAnswer;

class RmHaFailoverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string missing = testing::MiniZooKeeper::MissingComponent();
    if (!missing.empty()) GTEST_SKIP() << "ZooKeeper server not installed: " << missing;
    work_ = ::testing::TempDir() + "/rm-ha-failover-test-" + std::to_string(getpid());
    std::filesystem::remove_all(work_);
    std::filesystem::create_directories(work_ + "/zk");
    testing::MiniZooKeeperOptions zk_options;
    zk_options.work_dir = work_ + "/zk";
    auto zk = testing::MiniZooKeeper::Start(zk_options);
    ASSERT_TRUE(zk.ok()) << zk.status().ToString();
    zk_ = std::move(*zk);
    for (const char* id : {"rm1", "rm2"}) {
      std::filesystem::create_directories(work_ + "/" + id + "-conf");
      cell::WriteSite(work_ + "/" + id + "-conf/yarn-site.xml", Site(id));
    }
    ipc::RpcClientOptions options;
    options.connect_timeout = 1s;
    options.call_timeout = 2s;
    client_ = std::make_unique<ipc::RpcClient>(options);
  }

  void TearDown() override {
    for (auto& [id, rm] : rms_) rm.process.Stop(SIGTERM, 5s);
    client_.reset();
    zk_.reset();
    if (HasFailure() || std::getenv("SPINDLE_KEEP_TEST_DIRS") != nullptr) {
      std::printf("[ ha       ] test files kept in %s\n", work_.c_str());
    } else {
      std::filesystem::remove_all(work_);
    }
  }

  std::map<std::string, std::string> Site(const std::string& id) const {
    std::map<std::string, std::string> p;
    p["yarn.resourcemanager.ha.enabled"] = "true";
    p["yarn.resourcemanager.ha.rm-ids"] = "rm1,rm2";
    p["yarn.resourcemanager.ha.id"] = id;
    p["yarn.resourcemanager.cluster-id"] = "ha-test";
    p["hadoop.zk.address"] = zk_->connect_string();
    p["yarn.resourcemanager.zk-timeout-ms"] = std::to_string(kZkTimeoutMs);
    for (const char* rm_id : {"rm1", "rm2"}) {
      for (const char* key : cell::kRmAddressKeys) {
        p[std::string(key) + "." + rm_id] = "127.0.0.1:0";
      }
    }
    p["yarn.resourcemanager.recovery.enabled"] = "false";
    p["spindle.scheduler.count"] = "1";
    p["spindle.scheduler.partitions"] = "1";
    return p;
  }

  struct Rm {
    ChildProcess process;
    uint16_t client_port = 0;
    int run = 0;
  };

  std::string Log(const std::string& id, int run) const {
    return work_ + "/" + id + "." + std::to_string(run) + ".log";
  }

  // Starts `spindle rm` as `id` and waits until it listens.
  void StartRm(const std::string& id) {
    Rm& rm = rms_[id];
    ++rm.run;
    const std::string ports = work_ + "/" + id + ".ports." + std::to_string(rm.run);
    rm.process = cell::StartListeningRm(SPINDLE_BINARY, work_ + "/" + id + "-conf", ports,
                                        Log(id, rm.run), 60s);
    ASSERT_TRUE(rm.process.running()) << "spindle rm " << id << " did not start:\n"
                                      << cell::Tail(Log(id, rm.run), 30);
    for (const auto& line : cell::Lines(ports)) {
      if (line.rfind("client=", 0) == 0)
        rm.client_port = static_cast<uint16_t>(std::atoi(line.c_str() + 7));
    }
    ASSERT_NE(rm.client_port, 0);
  }

  Answer Ask(const std::string& id) { return cell::AskHaState(*client_, rms_[id].client_port); }

  std::string work_;
  std::unique_ptr<testing::MiniZooKeeper> zk_;
  std::unique_ptr<ipc::RpcClient> client_;
  std::map<std::string, Rm> rms_;
};

TEST_F(RmHaFailoverTest, OneActiveAndTheStandbyTakesOverWhenTheActiveIsKilled) {
  ASSERT_NO_FATAL_FAILURE(StartRm("rm1"));
  ASSERT_NO_FATAL_FAILURE(StartRm("rm2"));
  std::string active;
  ASSERT_TRUE(WaitFor(
      [&] {
        const Answer a1 = Ask("rm1");
        const Answer a2 = Ask("rm2");
        if (a1 == Answer::kActive && a2 == Answer::kStandby) active = "rm1";
        if (a2 == Answer::kActive && a1 == Answer::kStandby) active = "rm2";
        return !active.empty();
      },
      30s))
      << "no single active RM:\n"
      << cell::Tail(Log("rm1", 1), 20) << cell::Tail(Log("rm2", 1), 20);
  std::printf("[ ha       ] %s active, the other standby\n", active.c_str());

  const char* kills_env = std::getenv("SPINDLE_HA_KILLS");
  const int kills = kills_env != nullptr ? std::max(1, std::atoi(kills_env)) : 3;
  std::vector<int64_t> failover_ms;
  for (int k = 0; k < kills; ++k) {
    const std::string standby = active == "rm1" ? "rm2" : "rm1";
    ASSERT_EQ(Ask(standby), Answer::kStandby);
    rms_[active].process.Kill();
    ASSERT_TRUE(rms_[active].process.WaitExit(5s));
    const auto killed_at = SteadyClock::now();
    // The server expires the dead RM's session after zk-timeout-ms; the
    // standby's watch then fires and it activates. The margin covers a JVM
    // server and activation on a loaded CI machine.
    const bool took_over = WaitFor([&] { return Ask(standby) == Answer::kActive; },
                                   std::chrono::milliseconds(kZkTimeoutMs) + 20s);
    const int64_t ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - killed_at)
            .count();
    ASSERT_TRUE(took_over) << standby << " did not become active:\n"
                           << cell::Tail(Log(standby, rms_[standby].run), 30);
    failover_ms.push_back(ms);
    std::printf("[ ha       ] kill %d: %s killed, %s active after %lld ms\n", k + 1, active.c_str(),
                standby.c_str(), static_cast<long long>(ms));
    // The killed one comes back as standby.
    const std::string restarted = active;
    ASSERT_NO_FATAL_FAILURE(StartRm(restarted));
    ASSERT_TRUE(WaitFor([&] { return Ask(restarted) == Answer::kStandby; }, 30s))
        << restarted << " did not come back standby:\n"
        << cell::Tail(Log(restarted, rms_[restarted].run), 30);
    EXPECT_EQ(Ask(standby), Answer::kActive);
    active = standby;
  }
  std::sort(failover_ms.begin(), failover_ms.end());
  std::printf(
      "[ ha       ] failover (SIGKILL to serving), zk-timeout-ms %d, %zu kills: min %lld "
      "ms, median %lld ms, max %lld ms\n",
      kZkTimeoutMs, failover_ms.size(), static_cast<long long>(failover_ms.front()),
      static_cast<long long>(failover_ms[failover_ms.size() / 2]),
      static_cast<long long>(failover_ms.back()));
}

TEST_F(RmHaFailoverTest, AGracefulStopHandsOverAtOnce) {
  ASSERT_NO_FATAL_FAILURE(StartRm("rm1"));
  ASSERT_TRUE(WaitFor([&] { return Ask("rm1") == Answer::kActive; }, 30s))
      << cell::Tail(Log("rm1", 1), 30);
  ASSERT_NO_FATAL_FAILURE(StartRm("rm2"));
  ASSERT_TRUE(WaitFor([&] { return Ask("rm2") == Answer::kStandby; }, 30s));
  // SIGTERM: the RM quits the election (its session closed, its breadcrumb
  // deleted), so the standby need not wait for a session to expire.
  const auto stopped_at = SteadyClock::now();
  rms_["rm1"].process.Stop(SIGTERM, 10s);
  ASSERT_TRUE(WaitFor([&] { return Ask("rm2") == Answer::kActive; }, 20s))
      << cell::Tail(Log("rm2", 1), 30);
  std::printf("[ ha       ] graceful stop: rm2 active %lld ms after rm1's SIGTERM\n",
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                         SteadyClock::now() - stopped_at)
                                         .count()));
}

}  // namespace
}  // namespace spindle
