// ResourceTrackerService with a real RM core: what a node's heartbeats carry
// to the RM's node reports (resource utilisation) and what heartbeat
// responses carry back to the node (signals from signalToContainer), with
// Hadoop 3.3's field numbers (NodeStatusProto 6/7, NodeHeartbeatResponseProto
// 13).
#include "nm_shim/tracker/resource_tracker_service.h"

#include <gtest/gtest.h>

#include <set>

#include "am_protocol/client_service/record_protos.h"
#include "rm/core/node_tracker.h"
#include "rm/security/yarn_id_protos.h"
#include "tests/am_protocol/client_service/rm_harness.h"

namespace spindle::nm_shim {
namespace {

namespace y = hadoop::yarn;
using client_service::testing::CsProperty;
using client_service::testing::HarnessOptions;
using client_service::testing::RmHarness;

class ResourceTrackerServiceTest : public ::testing::Test {
 protected:
  ResourceTrackerServiceTest() : rm_(Options()) {
    nm_tokens_ = std::move(rm::NmTokenSecretManager::Create({}, &rm_.clock())).value();
    rm::ContainerTokenSecretManager::Options container_options;
    container_tokens_ =
        std::move(rm::ContainerTokenSecretManager::Create(container_options, &rm_.clock())).value();
    core_ = std::make_unique<rm::NodeTracker>(&rm_.nodes(), &rm_.containers(), &rm_.apps(),
                                              container_tokens_.get(), nm_tokens_.get(),
                                              /*rm_identifier=*/0);
    tracker_ = std::make_unique<ResourceTrackerService>(ResourceTrackerOptions{}, core_.get());
    Register(node_);
    rm_.ApplyQueues();
  }

  // registerNodeManager as a (re)started NodeManager sends it, listing
  // `running_apps` as its runningApplications.
  void Register(const rm::NodeId& node, const std::vector<rm::ApplicationId>& running_apps = {}) {
    y::RegisterNodeManagerRequestProto request;
    rm::ToProto(node, request.mutable_node_id());
    request.set_http_port(8042);
    request.mutable_resource()->set_memory(8192);
    request.mutable_resource()->set_virtual_cores(8);
    request.set_nm_version("3.3.6");
    for (const auto& app : running_apps) rm::ToProto(app, request.add_runningapplications());
    y::RegisterNodeManagerResponseProto response;
    EXPECT_TRUE(tracker_->RegisterNodeManager(request, &response).ok());
    EXPECT_EQ(response.nodeaction(), y::NORMAL);
  }

  // Submits an app and launches its AM (on the only node registered so far).
  rm::ApplicationId SubmitAndLaunch(int32_t max_attempts = 0) {
    y::GetNewApplicationResponseProto id;
    EXPECT_TRUE(rm_.Call("getNewApplication", y::GetNewApplicationRequestProto(), &id).ok());
    y::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = id.application_id();
    context->set_queue("default");
    if (max_attempts > 0) context->set_maxappattempts(max_attempts);
    auto* am = context->add_am_container_resource_request();
    am->set_resource_name("*");
    am->mutable_capability()->set_memory(512);
    am->mutable_capability()->set_virtual_cores(1);
    y::SubmitApplicationResponseProto submitted;
    EXPECT_TRUE(rm_.Call("submitApplication", submit, &submitted).ok());
    rm_.LaunchAll();
    return rm::FromProto(id.application_id());
  }

  // A task container of `attempt` running on `node`, as the scheduler would
  // have placed it.
  rm::ContainerId PlaceTaskContainer(const rm::ApplicationAttemptId& attempt,
                                     const rm::NodeId& node) {
    pool::NodeId pool_node;
    for (const auto& report : rm_.nodes().Nodes()) {
      if (report.info.id == node) pool_node = report.pool_node;
    }
    const rm::ContainerId id = rm_.apps().NextContainerId(attempt).value();
    auto placement = rm_.pool().RecoverPlacement(rm_.apps().GetApp(attempt.app)->pool_app,
                                                 pool_node, pool::Resource::Of(256, 1), 1, 0);
    EXPECT_TRUE(placement.ok()) << placement.status().ToString();
    EXPECT_TRUE(rm_.containers().Add(rm::RmContainer{id, node, *placement}).ok());
    return id;
  }

  static HarnessOptions Options() {
    HarnessOptions options;
    options.capacity_scheduler_xml =
        CsProperty("root.queues", "default") + CsProperty("root.default.capacity", "100");
    return options;
  }

  y::NodeHeartbeatResponseProto Heartbeat(
      const std::function<void(y::NodeStatusProto*)>& fill = nullptr) {
    y::NodeHeartbeatRequestProto request;
    y::NodeStatusProto* status = request.mutable_node_status();
    rm::ToProto(node_, status->mutable_node_id());
    status->set_response_id(response_id_);
    if (fill) fill(status);
    y::NodeHeartbeatResponseProto response;
    EXPECT_TRUE(tracker_->NodeHeartbeat(request, &response).ok());
    EXPECT_EQ(response.nodeaction(), y::NORMAL);
    response_id_ = response.response_id();
    return response;
  }

  y::NodeReportProto NodeReport() {
    y::GetClusterNodesResponseProto nodes;
    EXPECT_TRUE(rm_.Call("getClusterNodes", y::GetClusterNodesRequestProto(), &nodes).ok());
    EXPECT_EQ(nodes.nodereports_size(), 1);
    return nodes.nodereports(0);
  }

  const rm::NodeId node_{"host1", 45454};
  int32_t response_id_ = 0;
  RmHarness rm_;
  std::unique_ptr<rm::NmTokenSecretManager> nm_tokens_;
  std::unique_ptr<rm::ContainerTokenSecretManager> container_tokens_;
  std::unique_ptr<rm::NodeTracker> core_;
  std::unique_ptr<ResourceTrackerService> tracker_;
};

TEST_F(ResourceTrackerServiceTest, HeartbeatUtilizationReachesTheNodeReport) {
  Heartbeat();
  // Nothing measured: NodeReportPBImpl leaves both fields out.
  y::NodeReportProto report = NodeReport();
  EXPECT_FALSE(report.has_node_utilization());
  EXPECT_FALSE(report.has_containers_utilization());

  Heartbeat([](y::NodeStatusProto* status) {
    status->mutable_node_utilization()->set_pmem(3000);
    status->mutable_node_utilization()->set_vmem(3500);
    status->mutable_node_utilization()->set_cpu(1.5f);
    status->mutable_containers_utilization()->set_pmem(1200);
    status->mutable_containers_utilization()->set_vmem(2600);
    status->mutable_containers_utilization()->set_cpu(0.75f);
  });
  report = NodeReport();
  ASSERT_TRUE(report.has_node_utilization());
  EXPECT_EQ(report.node_utilization().pmem(), 3000);
  EXPECT_EQ(report.node_utilization().vmem(), 3500);
  EXPECT_FLOAT_EQ(report.node_utilization().cpu(), 1.5f);
  ASSERT_TRUE(report.has_containers_utilization());
  EXPECT_EQ(report.containers_utilization().pmem(), 1200);
  EXPECT_EQ(report.containers_utilization().vmem(), 2600);
  EXPECT_FLOAT_EQ(report.containers_utilization().cpu(), 0.75f);

  // The last heartbeat's figures, as RMNodeImpl keeps them.
  Heartbeat([](y::NodeStatusProto* status) { status->mutable_node_utilization()->set_pmem(100); });
  report = NodeReport();
  EXPECT_EQ(report.node_utilization().pmem(), 100);
  EXPECT_FALSE(report.has_containers_utilization());
}

TEST_F(ResourceTrackerServiceTest, SignalsGoOutWithTheNextHeartbeat) {
  Heartbeat();
  y::GetNewApplicationResponseProto id;
  ASSERT_TRUE(rm_.Call("getNewApplication", y::GetNewApplicationRequestProto(), &id).ok());
  y::SubmitApplicationRequestProto submit;
  auto* context = submit.mutable_application_submission_context();
  *context->mutable_application_id() = id.application_id();
  context->set_queue("default");
  auto* am = context->add_am_container_resource_request();
  am->set_resource_name("*");
  am->mutable_capability()->set_memory(512);
  am->mutable_capability()->set_virtual_cores(1);
  y::SubmitApplicationResponseProto submitted;
  ASSERT_TRUE(rm_.Call("submitApplication", submit, &submitted).ok());
  rm_.LaunchAll();
  const rm::ApplicationId app = rm::FromProto(id.application_id());
  const rm::ContainerId container = rm_.apps().GetApp(app)->current_attempt()->am_container->id;

  y::SignalContainerRequestProto signal;
  rm::ToProto(container, signal.mutable_container_id());
  signal.set_command(y::OUTPUT_THREAD_DUMP);
  y::SignalContainerResponseProto signalled;
  ASSERT_TRUE(rm_.Call("signalToContainer", signal, &signalled).ok());

  const y::NodeHeartbeatResponseProto response = Heartbeat();
  ASSERT_EQ(response.containers_to_signal_size(), 1);
  EXPECT_EQ(rm::FromProto(response.containers_to_signal(0).container_id()), container);
  EXPECT_EQ(response.containers_to_signal(0).command(), y::OUTPUT_THREAD_DUMP);
  // Once only.
  EXPECT_EQ(Heartbeat().containers_to_signal_size(), 0);
}

// Hadoop's ReconnectNodeTransition (2.6.5 RMNodeImpl 563-605, 3.3.0 906-940;
// ResourceTrackerService 3.3.0 442-474): a NodeManager that registers again
// with no running application has lost what it ran. Every container the RM
// placed on it completes as lost (ABORTED, SchedulerUtils.LOST_CONTAINER)
// and is handed to its AM at its next allocate, although the node reported
// no container at all.
TEST_F(ResourceTrackerServiceTest, RestartedNodeRunningNoAppLosesItsContainers) {
  const rm::ApplicationId app = SubmitAndLaunch();
  const rm::ApplicationAttemptId attempt{app, 1};
  ASSERT_EQ(rm_.apps().GetApp(app)->current_attempt()->am_container->node, node_);
  const rm::NodeId other{"host2", 45454};
  Register(other);
  std::set<rm::ContainerId> placed;
  for (int i = 0; i < 3; ++i) placed.insert(PlaceTaskContainer(attempt, other));
  ASSERT_EQ(rm_.containers().LiveContainersOf(attempt).size(), 4u);

  Register(other);  // the agent restarted, on the same address

  // Only the AM container is left, and the three are the AM's to hear of.
  ASSERT_EQ(rm_.containers().LiveContainersOf(attempt).size(), 1u);
  const std::vector<rm::CompletedContainer> completed = rm_.containers().TakeCompleted(attempt);
  ASSERT_EQ(completed.size(), 3u);
  for (const auto& c : completed) {
    EXPECT_EQ(placed.count(c.id), 1u) << c.id.ToString();
    EXPECT_EQ(c.exit_status, -100);  // ContainerExitStatus.ABORTED
    EXPECT_EQ(c.diagnostics, "Container released on a *lost* node");
  }
  // Their resources are free again.
  EXPECT_EQ(rm_.containers().LiveCountByNode().count(other), 0u);
  EXPECT_EQ(rm_.apps().GetApp(app)->attempts.size(), 1u);
}

// The same for the AM's own node: the attempt ends with the lost container's
// status, which does not count toward maxAppAttempts, so a second attempt
// starts even though the app allows only two and (on 3.3) one would be
// refused for maxAppAttempts 1 (YARN-5617).
TEST_F(ResourceTrackerServiceTest, LostAmContainerEndsTheAttemptWithoutCountingIt) {
  const rm::ApplicationId app = SubmitAndLaunch(/*max_attempts=*/2);
  Register(node_);
  rm::RmApp state = rm_.apps().GetApp(app).value();
  ASSERT_EQ(state.attempts.size(), 2u);
  EXPECT_EQ(state.attempts[0].state, rm::AttemptState::kFailed);
  EXPECT_EQ(state.attempts[0].am_exit_status, -100);
  rm_.LaunchAll();
  Register(node_);  // lost again: still not counted
  state = rm_.apps().GetApp(app).value();
  ASSERT_EQ(state.attempts.size(), 3u);
  EXPECT_EQ(state.yarn_state(), rm::YarnAppState::kAccepted);
}

// A node that reports running applications kept its containers (a
// NodeManager with recovery): only what it reports is reconciled.
TEST_F(ResourceTrackerServiceTest, RestartedNodeRunningAppsKeepsItsContainers) {
  const rm::ApplicationId app = SubmitAndLaunch();
  const rm::ApplicationAttemptId attempt{app, 1};
  PlaceTaskContainer(attempt, node_);
  Register(node_, {app});
  EXPECT_EQ(rm_.containers().LiveContainersOf(attempt).size(), 2u);
  EXPECT_TRUE(rm_.containers().TakeCompleted(attempt).empty());
  EXPECT_EQ(rm_.apps().GetApp(app)->attempts.size(), 1u);
}

}  // namespace
}  // namespace spindle::nm_shim
