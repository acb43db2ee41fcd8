#include "nm_shim/agent/container_manager.h"

#include <gtest/gtest.h>

#include "rm/security/yarn_id_protos.h"
#include "tests/nm_shim/agent/test_tokens.h"

namespace spindle::nm {
namespace {

namespace y = hadoop::yarn;
using testing::Attempt;

// Records what the manager asks of it; containers exit when the test says.
class FakeRuntime : public ContainerRuntime {
 public:
  void Launch(const ContainerLaunchSpec& spec) override { launched.push_back(spec); }
  void Kill(const rm::ContainerId& id, int32_t status, const std::string& diag) override {
    killed.push_back({id, status, diag});
  }
  void CleanupApplication(const rm::ApplicationId& app) override { cleaned.push_back(app); }
  void Shutdown() override {}

  std::vector<ContainerLaunchSpec> launched;
  std::vector<ContainerExit> killed;
  std::vector<rm::ApplicationId> cleaned;
};

class ContainerManagerTest : public ::testing::Test {
 protected:
  ContainerManagerTest() : clock_(TimePoint{}, testing::kRmIdentifier + 100'000) {
    keys_.Apply(NodeTokenKeys::Family::kContainerTokens, {7, "ck"});
    keys_.Apply(NodeTokenKeys::Family::kNmTokens, {8, "nk"});
    keys_.set_rm_identifier(testing::kRmIdentifier);
    manager_.set_runtime(&runtime_);
  }

  NmTokenInfo Caller(int32_t app) const { return {Attempt(app), node_, "alice", ""}; }
  static rm::ContainerId Id(int32_t app, int64_t seq) { return {Attempt(app), seq}; }

  y::StartContainerRequestProto Request(int32_t app, int64_t seq) const {
    y::StartContainerRequestProto r;
    *r.mutable_container_token() =
        testing::ContainerToken(app, seq, "ck", 7, node_, clock_.WallMillis() + 60'000);
    auto* clc = r.mutable_container_launch_context();
    clc->add_command("sleep 3");
    auto* env = clc->add_environment();
    env->set_key("K");
    env->set_value("V");
    auto* res = clc->add_localresources();
    res->set_key("job.jar");
    res->mutable_value()->mutable_resource()->set_scheme("file");
    res->mutable_value()->mutable_resource()->set_file("/tmp/job.jar");
    res->mutable_value()->set_size(10);
    res->mutable_value()->set_type(y::ARCHIVE);
    res->mutable_value()->set_visibility(y::PUBLIC);
    clc->set_tokens("HDTS-bytes");
    return r;
  }

  y::StartContainersResponseProto Start(int32_t caller_app,
                                        std::vector<y::StartContainerRequestProto> requests) {
    y::StartContainersRequestProto request;
    for (auto& r : requests) *request.add_start_container_request() = r;
    y::StartContainersResponseProto response;
    manager_.StartContainers(Caller(caller_app), request, &response);
    return response;
  }

  std::map<rm::ContainerId, y::ContainerStatusProto> Statuses(int32_t app,
                                                              std::vector<rm::ContainerId> ids) {
    y::GetContainerStatusesRequestProto request;
    for (const auto& id : ids) rm::ToProto(id, request.add_container_id());
    y::GetContainerStatusesResponseProto response;
    manager_.GetContainerStatuses(Caller(app), request, &response);
    std::map<rm::ContainerId, y::ContainerStatusProto> out;
    for (const auto& s : response.status()) out[rm::FromProto(s.container_id())] = s;
    failed_ = response.failed_requests_size();
    return out;
  }

  ManualClock clock_;
  const rm::NodeId node_{"127.0.0.1", 4000};
  NodeTokenKeys keys_;
  FakeRuntime runtime_;
  ContainerManager manager_{{node_, 600'000}, &keys_, &clock_};
  int failed_ = 0;
};

TEST_F(ContainerManagerTest, StartsVerifiedContainersAndDecodesTheLaunchContext) {
  auto response = Start(1, {Request(1, 2), Request(1, 3)});
  EXPECT_EQ(response.succeeded_requests_size(), 2);
  EXPECT_EQ(response.failed_requests_size(), 0);
  ASSERT_EQ(runtime_.launched.size(), 2u);
  const ContainerLaunchSpec& spec = runtime_.launched[0];
  EXPECT_EQ(spec.container, Id(1, 2));
  EXPECT_EQ(spec.user, "alice");
  EXPECT_EQ(spec.memory_mb, 512);
  EXPECT_EQ(spec.vcores, 1);
  EXPECT_EQ(spec.commands, std::vector<std::string>{"sleep 3"});
  EXPECT_EQ(spec.environment.at("K"), "V");
  ASSERT_EQ(spec.local_resources.size(), 1u);
  EXPECT_EQ(spec.local_resources[0].name, "job.jar");
  EXPECT_EQ(spec.local_resources[0].path, "/tmp/job.jar");
  EXPECT_EQ(spec.local_resources[0].size, 10);
  EXPECT_EQ(spec.local_resources[0].timestamp, -1);
  EXPECT_EQ(spec.local_resources[0].type, LocalResource::Type::kArchive);
  EXPECT_EQ(spec.local_resources[0].visibility, LocalResource::Visibility::kPublic);
  EXPECT_EQ(spec.credentials, "HDTS-bytes");
  auto s = Statuses(1, {Id(1, 2)});
  // Not yet running: reported RUNNING all the same, as a Java NM does (a
  // Java RM would take any other state for finished).
  EXPECT_EQ(s.at(Id(1, 2)).state(), y::C_RUNNING);
  manager_.OnRunning(Id(1, 2));
  s = Statuses(1, {Id(1, 2)});
  EXPECT_EQ(s.at(Id(1, 2)).state(), y::C_RUNNING);
  EXPECT_EQ(s.at(Id(1, 2)).capability().memory(), 512);
  EXPECT_EQ(manager_.RunningApplications(), std::vector<rm::ApplicationId>{Attempt(1).app});
}

TEST_F(ContainerManagerTest, BadRequestsFailOnlyTheirContainer) {
  auto aux = Request(1, 4);
  auto* sd = aux.mutable_container_launch_context()->add_service_data();
  sd->set_key("mapreduce_shuffle");
  sd->set_value("x");
  auto forged = Request(1, 5);
  forged.mutable_container_token()->set_password("forged");
  auto foreign = Request(2, 6);  // the caller's NMToken is for app 1
  auto response = Start(1, {Request(1, 2), aux, forged, foreign, Request(1, 2)});
  ASSERT_EQ(response.succeeded_requests_size(), 1);
  EXPECT_EQ(rm::FromProto(response.succeeded_requests(0)), Id(1, 2));
  ASSERT_EQ(response.failed_requests_size(), 4);
  std::map<rm::ContainerId, y::SerializedExceptionProto> failures;
  for (const auto& f : response.failed_requests()) {
    failures[rm::FromProto(f.container_id())] = f.exception();
  }
  EXPECT_EQ(failures.at(Id(1, 4)).class_name(),
            "org.apache.hadoop.yarn.exceptions.InvalidAuxServiceException");
  EXPECT_NE(failures.at(Id(1, 4)).message().find("The auxService:mapreduce_shuffle do not exist"),
            std::string::npos);
  EXPECT_EQ(failures.at(Id(1, 5)).class_name(),
            "org.apache.hadoop.security.token.SecretManager$InvalidToken");
  EXPECT_NE(failures.at(Id(2, 6)).message().find("Unauthorized request to start container"),
            std::string::npos);
  EXPECT_NE(failures.at(Id(1, 2)).message().find("relaunch the same container"), std::string::npos)
      << "the repeated token in the same call";
  EXPECT_EQ(runtime_.launched.size(), 1u);

  // Used again after the container is over and forgotten: still refused.
  manager_.OnExit({Id(1, 2), 0, ""});
  manager_.HeartbeatStatuses();
  manager_.HeartbeatSucceeded();
  manager_.RemoveCompleted({Id(1, 2)});
  EXPECT_EQ(manager_.known_containers(), 0u);
  response = Start(1, {Request(1, 2)});
  EXPECT_EQ(response.failed_requests_size(), 1);
}

TEST_F(ContainerManagerTest, StopAndStatusOnlyForTheCallersApplication) {
  Start(1, {Request(1, 2)});
  Start(2, {Request(2, 3)});
  y::StopContainersRequestProto stop;
  rm::ToProto(Id(1, 2), stop.add_container_id());
  rm::ToProto(Id(2, 3), stop.add_container_id());
  rm::ToProto(Id(1, 9), stop.add_container_id());
  y::StopContainersResponseProto stopped;
  manager_.StopContainers(Caller(1), stop, &stopped);
  ASSERT_EQ(stopped.succeeded_requests_size(), 1);
  ASSERT_EQ(stopped.failed_requests_size(), 2);
  EXPECT_NE(stopped.failed_requests(0).exception().message().find("non-application container"),
            std::string::npos);
  EXPECT_NE(
      stopped.failed_requests(1).exception().message().find("is not handled by this NodeManager"),
      std::string::npos);
  ASSERT_EQ(runtime_.killed.size(), 1u);
  EXPECT_EQ(runtime_.killed[0].container, Id(1, 2));
  EXPECT_EQ(runtime_.killed[0].exit_status, kExitKilledByAppMaster);
  manager_.OnExit(runtime_.killed[0]);
  auto s = Statuses(2, {Id(1, 2), Id(2, 3)});
  EXPECT_EQ(s.size(), 1u);
  EXPECT_EQ(failed_, 1);
  s = Statuses(1, {Id(1, 2)});
  EXPECT_EQ(s.at(Id(1, 2)).state(), y::C_COMPLETE);
  EXPECT_EQ(s.at(Id(1, 2)).exit_status(), kExitKilledByAppMaster);
}

TEST_F(ContainerManagerTest, CompletedStatusesAreReportedUntilAHeartbeatCarriesThem) {
  Start(1, {Request(1, 2), Request(1, 3)});
  manager_.OnRunning(Id(1, 2));
  manager_.OnExit({Id(1, 3), 1, "exit code 1"});
  auto beat = manager_.HeartbeatStatuses();
  ASSERT_EQ(beat.size(), 2u);
  // The heartbeat failed: the completion is sent again.
  beat = manager_.HeartbeatStatuses();
  ASSERT_EQ(beat.size(), 2u);
  manager_.HeartbeatSucceeded();
  beat = manager_.HeartbeatStatuses();
  ASSERT_EQ(beat.size(), 1u) << "only the running container";
  EXPECT_EQ(rm::FromProto(beat[0].container_id()), Id(1, 2));
  // Still queryable by the AM, and reported at re-registration.
  EXPECT_EQ(Statuses(1, {Id(1, 3)}).at(Id(1, 3)).diagnostics(), "exit code 1");
  EXPECT_EQ(manager_.RegistrationStatuses().size(), 2u);
  // Forgotten after the retention period.
  clock_.Advance(std::chrono::minutes(11));
  manager_.HeartbeatSucceeded();
  EXPECT_EQ(manager_.known_containers(), 1u);
}

TEST_F(ContainerManagerTest, ResourceManagerCleanups) {
  Start(1, {Request(1, 2), Request(1, 3)});
  Start(2, {Request(2, 4)});
  manager_.CleanupContainers({Id(1, 2), Id(9, 9)});
  ASSERT_EQ(runtime_.killed.size(), 1u);
  EXPECT_EQ(runtime_.killed[0].exit_status, kExitKilledByResourceManager);
  manager_.OnExit(runtime_.killed[0]);

  manager_.CleanupApplications({Attempt(1).app});
  ASSERT_EQ(runtime_.killed.size(), 2u);
  EXPECT_EQ(runtime_.killed[1].container, Id(1, 3));
  EXPECT_EQ(runtime_.killed[1].exit_status, kExitKilledAfterAppCompletion);
  EXPECT_TRUE(runtime_.cleaned.empty()) << "a container of the app is still live";
  manager_.OnExit(runtime_.killed[1]);
  EXPECT_EQ(runtime_.cleaned, std::vector<rm::ApplicationId>{Attempt(1).app});
  EXPECT_EQ(manager_.RunningApplications(), std::vector<rm::ApplicationId>{Attempt(2).app});
  EXPECT_EQ(manager_.live_containers(), 1u);
}

}  // namespace
}  // namespace spindle::nm
