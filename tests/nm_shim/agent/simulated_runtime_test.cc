#include "nm_shim/agent/simulated/simulated_runtime.h"

#include <gtest/gtest.h>

#include "nm_shim/agent/event_loop.h"

namespace spindle::nm {
namespace {

using std::chrono::milliseconds;

class SimulatedRuntimeTest : public ::testing::Test {
 protected:
  SimulatedRuntimeTest()
      : runtime_({/*default_duration_ms=*/5000}, &loop_,
                 ContainerListener{[this](const rm::ContainerId& id) { running_.push_back(id); },
                                   [this](const ContainerExit& e) { exits_.push_back(e); }}) {}

  static rm::ContainerId Id(int64_t seq) { return {{{1, 1}, 1}, seq}; }
  static ContainerLaunchSpec Spec(int64_t seq, std::map<std::string, std::string> env,
                                  std::vector<std::string> commands) {
    ContainerLaunchSpec spec;
    spec.container = Id(seq);
    spec.environment = std::move(env);
    spec.commands = std::move(commands);
    return spec;
  }
  void AdvanceMs(int64_t ms) {
    clock_.Advance(milliseconds(ms));
    loop_.RunDue();
  }

  ManualClock clock_;
  EventLoop loop_{&clock_};
  std::vector<rm::ContainerId> running_;
  std::vector<ContainerExit> exits_;
  SimulatedRuntime runtime_;
};

TEST(SimulatedDurationTest, FromEnvironmentOrSleepCommand) {
  auto spec = [](std::map<std::string, std::string> env, std::vector<std::string> cmd) {
    ContainerLaunchSpec s;
    s.environment = std::move(env);
    s.commands = std::move(cmd);
    return s;
  };
  EXPECT_EQ(SimulatedDurationMs(spec({{"SPINDLE_SIM_DURATION_MS", "1234"}}, {"sleep 9"})), 1234);
  EXPECT_EQ(SimulatedDurationMs(spec({}, {"sleep 2.5 1><LOG_DIR>/stdout"})), 2500);
  EXPECT_EQ(SimulatedDurationMs(spec({}, {"exec", "/bin/sleep", "3"})), 3000);
  EXPECT_EQ(SimulatedDurationMs(spec({{"SPINDLE_SIM_DURATION_MS", "soon"}}, {"sleep", "1"})), 1000)
      << "a bad variable falls through to the command";
  EXPECT_FALSE(SimulatedDurationMs(spec({}, {"echo hi"})).has_value());
  EXPECT_FALSE(SimulatedDurationMs(spec({}, {"sleep forever"})).has_value());
  EXPECT_FALSE(SimulatedDurationMs(spec({}, {})).has_value());
}

TEST_F(SimulatedRuntimeTest, ContainersRunForTheirDurationOnTheManualClock) {
  runtime_.Launch(Spec(1, {{"SPINDLE_SIM_DURATION_MS", "200"}}, {}));
  runtime_.Launch(Spec(2, {}, {"sleep 1"}));
  runtime_.Launch(Spec(3, {}, {"true"}));  // default 5 s
  loop_.RunDue();
  EXPECT_EQ(running_.size(), 3u);
  EXPECT_TRUE(exits_.empty());
  AdvanceMs(199);
  EXPECT_TRUE(exits_.empty());
  AdvanceMs(1);
  ASSERT_EQ(exits_.size(), 1u);
  EXPECT_EQ(exits_[0].container, Id(1));
  EXPECT_EQ(exits_[0].exit_status, kExitSuccess);
  AdvanceMs(800);
  ASSERT_EQ(exits_.size(), 2u);
  EXPECT_EQ(exits_[1].container, Id(2));
  AdvanceMs(3999);
  EXPECT_EQ(exits_.size(), 2u);
  AdvanceMs(1);
  ASSERT_EQ(exits_.size(), 3u);
  EXPECT_EQ(runtime_.live_containers(), 0u);
}

TEST_F(SimulatedRuntimeTest, KillEndsAContainerOnceWithTheGivenStatus) {
  runtime_.Launch(Spec(1, {}, {"sleep 10"}));
  loop_.RunDue();
  runtime_.Kill(Id(1), kExitKilledByAppMaster, "Container killed by the ApplicationMaster.");
  runtime_.Kill(Id(1), kExitKilledByResourceManager, "again");
  runtime_.Kill(Id(7), kExitKilledByResourceManager, "unknown");
  loop_.RunDue();
  ASSERT_EQ(exits_.size(), 1u);
  EXPECT_EQ(exits_[0].exit_status, kExitKilledByAppMaster);
  AdvanceMs(20000);
  EXPECT_EQ(exits_.size(), 1u) << "its timer was cancelled";
}

TEST_F(SimulatedRuntimeTest, ShutdownKillsWhatIsLeft) {
  runtime_.Launch(Spec(1, {}, {"sleep 10"}));
  runtime_.Launch(Spec(2, {}, {"sleep 10"}));
  loop_.RunDue();
  runtime_.Shutdown();
  ASSERT_EQ(exits_.size(), 2u);
  EXPECT_EQ(exits_[0].exit_status, kExitKilledByResourceManager);
  runtime_.Launch(Spec(3, {}, {"sleep 1"}));
  loop_.RunDue();
  ASSERT_EQ(exits_.size(), 3u);
  EXPECT_EQ(exits_[2].exit_status, kExitAborted);
}

TEST(EventLoopTest, RunsDueTasksInDeadlineOrderAndHonoursCancel) {
  ManualClock clock;
  EventLoop loop(&clock);
  std::vector<int> ran;
  loop.RunAfter(milliseconds(20), [&] { ran.push_back(2); });
  const auto cancelled = loop.RunAfter(milliseconds(15), [&] { ran.push_back(99); });
  loop.RunAfter(milliseconds(10), [&] {
    ran.push_back(1);
    loop.Post([&] { ran.push_back(11); });
  });
  loop.Cancel(cancelled);
  EXPECT_EQ(loop.RunDue(), 0u);
  clock.Advance(milliseconds(10));
  EXPECT_EQ(loop.RunDue(), 2u);
  clock.Advance(milliseconds(10));
  loop.RunDue();
  EXPECT_EQ(ran, (std::vector<int>{1, 11, 2}));
  EXPECT_EQ(loop.pending(), 0u);
}

}  // namespace
}  // namespace spindle::nm
