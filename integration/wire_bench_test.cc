// `spindle bench wire` for a few seconds at a tiny size against a real
// `spindle rm` child: every application the generator submitted registered,
// unregistered and ended FINISHED/SUCCEEDED; every container an AM got was
// one of its ask, released and reported completed once; no RPC failed; the
// web side answered every scrape of its REST lists and metrics.
// Rates and latencies are printed by the bench, never asserted.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "bench/wire/rm_child.h"
#include "bench/wire/wire_driver.h"
#include "bench/wire/wire_report.h"
#include "integration/tiny_wire_options.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle::bench::wire {
namespace {

void ExpectConsistent(const WireOptions& o, const WireResult& r) {
  Status consistent = CheckBookkeeping(o, r);
  EXPECT_TRUE(consistent.ok()) << consistent.ToString();
  // Beyond the check: the slots cycled (more apps than slots) and the work
  // was the ask, to the container.
  EXPECT_GT(r.apps_submitted, o.apps);
  EXPECT_EQ(r.containers_allocated, r.apps_submitted * o.containers_per_app);
  EXPECT_EQ(r.containers_completed, r.containers_released);
  EXPECT_EQ(r.am_launch.count, r.apps_submitted);
  EXPECT_EQ(r.first_container.count, r.apps_submitted);
  EXPECT_GT(r.heartbeat.count, 0);
  EXPECT_GT(r.allocate.count, 0);
  EXPECT_GT(r.rm_rss_mb, 0);
}

TEST(WireBenchTest, ManagedAmsThroughTheSimulatedNodes) {
  WireOptions o = TinyWireOptions();
  // Two node agents: AM containers land on either's port.
  o.tracker_connections = 2;
  // Dashboards scrape the RM's web port meanwhile: every GET answers 200.
  o.web_scrapers = 2;
  auto result = RunWire(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  PrintWireResult(o, *result);
  ExpectConsistent(o, *result);
}

TEST(WireBenchTest, UnmanagedAmsWithTheTokenOfTheReport) {
  WireOptions o = TinyWireOptions();
  o.unmanaged = true;
  auto result = RunWire(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  PrintWireResult(o, *result);
  ExpectConsistent(o, *result);
}

// The RM's nodes in `state`, over ApplicationClientProtocol.
int RmNodes(const RmAddresses& rm, hadoop::yarn::NodeStateProto state) {
  ipc::RpcClient client{ipc::RpcClientOptions{}};
  hadoop::yarn::GetClusterNodesRequestProto request;
  request.add_nodestates(state);
  hadoop::yarn::GetClusterNodesResponseProto response;
  const Status s = client.Call(
      {rm.client.host, rm.client.port, "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB",
       "spindle", std::nullopt},
      "getClusterNodes", request, &response);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return response.nodereports_size();
}

// `--rm` against an RM the test started (standing in for an operator's),
// once per Hadoop line: the managed AMs register only after the RM moved
// their attempt to LAUNCHED (so no registration is ever refused, which a
// Java RM 2.6 would have taken in ALLOCATED and lost), and the nodes stop
// as that line's NodeManagers do: unRegisterNodeManager on 3.3 (the RM
// lists them SHUTDOWN at once), nothing on 2.6 (which has no such method:
// they stay RUNNING until they expire).
class WireBenchExternalRmTest : public ::testing::TestWithParam<const char*> {};

TEST_P(WireBenchExternalRmTest, DrivesAnRmByItsAddressesAsItsLineAllows) {
  WireOptions o = TinyWireOptions();
  o.hadoop_line = GetParam();
  const std::string work =
      ::testing::TempDir() + "/wire-external-" + std::to_string(getpid()) + "-" + o.hadoop_line;
  std::filesystem::remove_all(work);
  std::filesystem::create_directories(work);
  RmChild rm;
  ASSERT_TRUE(rm.Start(o, work).ok());
  o.rm = rm.addresses();
  o.rm_pid = rm.pid();
  o.work_dir = work + "/generator";
  auto result = RunWire(o);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  PrintWireResult(o, *result);
  ExpectConsistent(o, *result);
  EXPECT_EQ(result->register_retries, 0) << "an AM registered before its attempt was LAUNCHED";
  EXPECT_NE(result->target.find("--rm "), std::string::npos);
  const bool unregisters = o.hadoop_line == "3.3";
  EXPECT_EQ(RmNodes(o.rm.value(), hadoop::yarn::NS_RUNNING), unregisters ? 0 : o.nodes);
  EXPECT_EQ(RmNodes(o.rm.value(), hadoop::yarn::NS_SHUTDOWN), unregisters ? o.nodes : 0);
  rm.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(work);
}

std::string LineName(const ::testing::TestParamInfo<const char*>& line) {
  return std::string(line.param) == "2.6" ? "Hadoop26" : "Hadoop33";
}

INSTANTIATE_TEST_SUITE_P(Lines, WireBenchExternalRmTest, ::testing::Values("2.6", "3.3"), LineName);

TEST(WireBenchTest, AnRmThatIsNotThereFailsTheRun) {
  WireOptions o = TinyWireOptions();
  // Nothing listens on the discard port of loopback.
  o.rm = RmAddresses{{"127.0.0.1", 9}, {"127.0.0.1", 9}, {"127.0.0.1", 9}, {"127.0.0.1", 9}};
  o.timeout_seconds = 2;
  auto result = RunWire(o);
  EXPECT_FALSE(result.ok());
}

}  // namespace
}  // namespace spindle::bench::wire
