#include "nm_shim/agent/container_signal.h"

#include <gtest/gtest.h>

#include <csignal>

#include "rm/security/yarn_id_protos.h"

namespace spindle::nm {
namespace {

namespace y = hadoop::yarn;

// ContainerLaunch.translateCommandToSignal (Hadoop 3.3).
TEST(ContainerSignalTest, CommandsMapAsTheJavaNodeManagerMapsThem) {
  EXPECT_EQ(SignalNumberFor(y::OUTPUT_THREAD_DUMP), SIGQUIT);
  EXPECT_EQ(SignalNumberFor(y::GRACEFUL_SHUTDOWN), SIGTERM);
  EXPECT_EQ(SignalNumberFor(y::FORCEFUL_SHUTDOWN), SIGKILL);
}

TEST(ContainerSignalTest, DecodesTheHeartbeatResponse) {
  y::NodeHeartbeatResponseProto r;
  const rm::ContainerId a{{{1700000000000, 1}, 1}, 2};
  const rm::ContainerId b{{{1700000000000, 1}, 1}, 3};
  auto* first = r.add_containers_to_signal();
  rm::ToProto(a, first->mutable_container_id());
  first->set_command(y::GRACEFUL_SHUTDOWN);
  auto* second = r.add_containers_to_signal();
  rm::ToProto(b, second->mutable_container_id());
  second->set_command(y::FORCEFUL_SHUTDOWN);
  const std::vector<SignalRequest> signals = SignalsToDeliver(r);
  ASSERT_EQ(signals.size(), 2u);
  EXPECT_EQ(signals[0].container, a);
  EXPECT_EQ(signals[0].signal_number, SIGTERM);
  EXPECT_EQ(signals[1].container, b);
  EXPECT_EQ(signals[1].signal_number, SIGKILL);
}

}  // namespace
}  // namespace spindle::nm
