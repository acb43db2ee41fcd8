// HaService over loopback Hadoop IPC, as `yarn rmadmin` and RMHAUtils call
// it: the protocol name, the request-source rule against automatic
// failover, the admin ACL, the exception classes a Java HAAdmin reads, and
// the bytes of the messages as Java's generated code writes them (built by
// hand from the field numbers of Hadoop's HAServiceProtocol.proto).
#include "am_protocol/admin_service/ha_service.h"

#include <gtest/gtest.h>

#include <string>

#include "am_protocol/rm_proxy/ha_service_client.h"
#include "ha_service_protocol.pb.h"
#include "rm/yarn_exceptions.h"
#include "tests/am_protocol/admin_service/fake_ha_actions.h"
#include "tests/wire/ipc/wire_test_util.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"

namespace spindle::am_protocol {
namespace {

namespace c = hadoop::common;
using ipc::testing::Hex;
using testing::FakeAdmin;
using testing::FakeTransitions;

class HaServiceTest : public ::testing::Test {
 protected:
  void Serve(bool automatic_failover) {
    HaServiceOptions options;
    options.automatic_failover = automatic_failover;
    service_ = std::make_unique<HaService>(options, &admin_, &transitions_);
    auto registry = std::make_shared<ipc::ServiceRegistry>();
    registry->Add(service_->MakeRpcService());
    server_ = std::make_unique<ipc::RpcServer>(ipc::RpcServerOptions{}, registry);
    ASSERT_TRUE(server_->Start().ok());
  }
  void TearDown() override {
    if (server_ != nullptr) server_->Stop();
  }

  ipc::ConnectionSpec Spec(const std::string& user = "admin") const {
    return {"127.0.0.1", server_->port(), kHaServiceProtocol, user, std::nullopt};
  }
  rm::SocketAddress Address() const { return {"127.0.0.1", server_->port()}; }
  HaServiceClient As(const std::string& user) { return HaServiceClient(&client_, user); }
  Status ToActive(HaRequestSource source, const std::string& user = "admin") {
    return As(user).TransitionToActive(Address(), source);
  }
  Status ToStandby(HaRequestSource source, const std::string& user = "admin") {
    return As(user).TransitionToStandby(Address(), source);
  }
  Result<c::GetServiceStatusResponseProto> ServiceStatus(const std::string& user = "admin") {
    return As(user).GetServiceStatus(Address());
  }

  FakeAdmin admin_;
  FakeTransitions transitions_;
  std::unique_ptr<HaService> service_;
  std::unique_ptr<ipc::RpcServer> server_;
  ipc::RpcClient client_;
};

TEST(HaServiceProtoTest, MessagesHaveJavasBytes) {
  // transitionToActive --forcemanual: reqInfo (1, LEN 2) { reqSource (1,
  // varint) = REQUEST_BY_USER_FORCED (1) }.
  c::TransitionToActiveRequestProto forced;
  forced.mutable_reqinfo()->set_reqsource(c::REQUEST_BY_USER_FORCED);
  EXPECT_EQ(forced.SerializeAsString(), Hex("0a 02 08 01"));
  // The embedded elector's transitionToStandby: REQUEST_BY_ZKFC (2).
  c::TransitionToStandbyRequestProto zkfc;
  ASSERT_TRUE(zkfc.ParseFromString(Hex("0a 02 08 02")));
  EXPECT_EQ(zkfc.reqinfo().reqsource(), c::REQUEST_BY_ZKFC);
  // A standby's status: state (1) = STANDBY (2), readyToBecomeActive (2) =
  // true.
  c::GetServiceStatusResponseProto standby;
  standby.set_state(c::STANDBY);
  standby.set_readytobecomeactive(true);
  EXPECT_EQ(standby.SerializeAsString(), Hex("08 02 10 01"));
  // Not ready: INITIALIZING (0), false, notReadyReason (3, LEN 17).
  c::GetServiceStatusResponseProto stopping;
  ASSERT_TRUE(stopping.ParseFromString(Hex("08 00 10 00 1a 11") + "State is stopping"));
  EXPECT_EQ(stopping.state(), c::INITIALIZING);
  EXPECT_FALSE(stopping.readytobecomeactive());
  EXPECT_EQ(stopping.notreadyreason(), "State is stopping");
  // A 3.x OBSERVER (3) is a value this side knows.
  c::GetServiceStatusResponseProto observer;
  ASSERT_TRUE(observer.ParseFromString(Hex("08 03 10 00")));
  EXPECT_EQ(observer.state(), c::OBSERVER);
}

TEST_F(HaServiceTest, ManualFailoverWithoutAutomaticFailover) {
  Serve(/*automatic_failover=*/false);
  auto status = ServiceStatus();
  ASSERT_TRUE(status.ok()) << status.status().ToString();
  EXPECT_EQ(status->state(), c::STANDBY);
  EXPECT_TRUE(status->readytobecomeactive());
  EXPECT_FALSE(status->has_notreadyreason());

  ASSERT_TRUE(ToActive(HaRequestSource::kUser).ok());
  EXPECT_EQ(transitions_.state, rm::HaState::kActive);
  // Active: the ACL was re-read first and refreshAll ran after.
  EXPECT_EQ(admin_.acl_refreshes, 1);
  EXPECT_EQ(admin_.queue_refreshes, 1);
  EXPECT_EQ(ServiceStatus()->state(), c::ACTIVE);
  // Already active: answered at once, nothing re-run.
  ASSERT_TRUE(ToActive(HaRequestSource::kUser).ok());
  EXPECT_EQ(transitions_.activations, 1);

  ASSERT_TRUE(ToStandby(HaRequestSource::kUserForced).ok());
  EXPECT_EQ(transitions_.state, rm::HaState::kStandby);

  // A failover controller is refused when automatic failover is off.
  Status zkfc = ToActive(HaRequestSource::kFailoverController);
  EXPECT_EQ(zkfc.java_class(), rm::yarn::kAccessControl);
  EXPECT_EQ(zkfc.message(),
            "Request from ZK failover controller at 127.0.0.1 denied since automatic failover is "
            "not enabled");
  EXPECT_EQ(transitions_.state, rm::HaState::kStandby);
}

// AdminService.refreshAll on activation also re-reads the proxy-user rules,
// and the service ACLs when service authorization is on.
TEST_F(HaServiceTest, ActivationRefreshesProxyUsersAndServiceAcls) {
  Serve(/*automatic_failover=*/false);
  ASSERT_TRUE(ToActive(HaRequestSource::kUser).ok());
  EXPECT_EQ(admin_.super_user_refreshes, 1);
  // Off: refreshServiceAcls would refuse, so refreshAll leaves it out.
  EXPECT_EQ(admin_.service_acl_refreshes, 0);
  ASSERT_TRUE(ToStandby(HaRequestSource::kUser).ok());

  admin_.service_authorization = true;
  ASSERT_TRUE(ToActive(HaRequestSource::kUser).ok());
  EXPECT_EQ(admin_.super_user_refreshes, 2);
  EXPECT_EQ(admin_.service_acl_refreshes, 1);
  ASSERT_TRUE(ToStandby(HaRequestSource::kUser).ok());

  // A refresh that fails fails the activation, as any of refreshAll's.
  admin_.refresh_super_users_result = Status::IoError("cannot read core-site.xml");
  Status refused = ToActive(HaRequestSource::kUser);
  EXPECT_EQ(refused.java_class(), ha_exceptions::kServiceFailed);
  EXPECT_EQ(refused.message(),
            "Error on refreshAll during transition to Active: cannot read core-site.xml");
  EXPECT_EQ(transitions_.state, rm::HaState::kStandby);
}

TEST_F(HaServiceTest, AutomaticFailoverRefusesUnforcedUserRequests) {
  Serve(/*automatic_failover=*/true);
  Status manual = ToActive(HaRequestSource::kUser);
  EXPECT_EQ(manual.java_class(), rm::yarn::kAccessControl);
  EXPECT_EQ(manual.message(),
            "Manual failover for this ResourceManager is disallowed, because automatic failover "
            "is enabled.");
  EXPECT_EQ(transitions_.state, rm::HaState::kStandby);
  EXPECT_EQ(ToStandby(HaRequestSource::kUser).java_class(), rm::yarn::kAccessControl);

  ASSERT_TRUE(ToActive(HaRequestSource::kUserForced).ok());
  EXPECT_EQ(transitions_.state, rm::HaState::kActive);
  ASSERT_TRUE(ToStandby(HaRequestSource::kFailoverController).ok());
  EXPECT_EQ(transitions_.state, rm::HaState::kStandby);
  // The in-process elector's path.
  ASSERT_TRUE(service_->TransitionToActive("rm", HaRequestSource::kFailoverController, "").ok());
  EXPECT_EQ(transitions_.state, rm::HaState::kActive);
}

TEST_F(HaServiceTest, EveryMethodChecksTheAdminAcl) {
  admin_.acl = "admin";
  Serve(false);
  Status status = ServiceStatus("mallory").status();
  EXPECT_EQ(status.java_class(), rm::yarn::kAccessControl);
  EXPECT_EQ(status.message(), "User mallory doesn't have permission to call 'getServiceState'");
  Status active = ToActive(HaRequestSource::kUser, "mallory");
  EXPECT_EQ(active.message(), "User mallory doesn't have permission to call 'transitionToActive'");
  EXPECT_EQ(transitions_.activations, 0);
  EXPECT_EQ(ToStandby(HaRequestSource::kUser, "mallory").message(),
            "User mallory doesn't have permission to call 'transitionToStandby'");
  EXPECT_EQ(As("mallory").MonitorHealth(Address()).message(),
            "User mallory doesn't have permission to call 'monitorHealth'");
  EXPECT_TRUE(ServiceStatus("admin").ok());
}

TEST_F(HaServiceTest, DaemonUserIsAlwaysAnAdmin) {
  admin_.acl = "admin";
  HaServiceOptions options;
  options.automatic_failover = true;
  options.daemon_user = "yarn";
  HaService service(options, &admin_, &transitions_);
  EXPECT_TRUE(service.TransitionToActive("yarn", HaRequestSource::kFailoverController, "").ok());
  EXPECT_EQ(service.GetServiceStatus("bob").status().java_class(), rm::yarn::kAccessControl);
}

TEST_F(HaServiceTest, FailuresAreServiceFailedAndHealthCheckFailed) {
  Serve(false);
  transitions_.activation_result = Status::IoError("state store is fenced");
  Status failed = ToActive(HaRequestSource::kUser);
  EXPECT_EQ(failed.java_class(), ha_exceptions::kServiceFailed);
  EXPECT_EQ(failed.message(), "Error when transitioning to Active mode: state store is fenced");
  EXPECT_EQ(transitions_.state, rm::HaState::kStandby);

  transitions_.activation_result = Status::OK();
  admin_.refresh_queues_result = Status::IoError("Failed to re-init queues : bad");
  Status refresh = ToActive(HaRequestSource::kUser);
  EXPECT_EQ(refresh.java_class(), ha_exceptions::kServiceFailed);
  EXPECT_EQ(refresh.message(),
            "Error on refreshAll during transition to Active: Failed to re-init queues : bad");
  // Out of service again, as 3.3's fatal event leaves it.
  EXPECT_EQ(transitions_.state, rm::HaState::kStandby);

  admin_.refresh_acls_result = Status::IoError("cannot read yarn-site.xml");
  EXPECT_EQ(ToStandby(HaRequestSource::kUser).message(),
            "Can not execute refreshAdminAcls: cannot read yarn-site.xml");

  admin_.refresh_queues_result = Status::OK();
  admin_.refresh_acls_result = Status::OK();
  ASSERT_TRUE(ToActive(HaRequestSource::kUser).ok());
  EXPECT_TRUE(As("admin").MonitorHealth(Address()).ok());
  transitions_.services_running = false;
  Status unhealthy = As("admin").MonitorHealth(Address());
  EXPECT_EQ(unhealthy.java_class(), ha_exceptions::kHealthCheckFailed);
  EXPECT_EQ(unhealthy.message(), "Active ResourceManager services are not running!");

  c::TransitionToObserverRequestProto observer;
  observer.mutable_reqinfo()->set_reqsource(c::REQUEST_BY_USER);
  c::TransitionToObserverResponseProto observer_response;
  Status refused = client_.Call(Spec(), "transitionToObserver", observer, &observer_response);
  EXPECT_EQ(refused.java_class(), ha_exceptions::kServiceFailed);
  EXPECT_EQ(refused.message(), "Does not support transition to Observer");
}

TEST_F(HaServiceTest, NotReadyUnlessActiveOrStandby) {
  transitions_.state = rm::HaState::kStopped;
  Serve(false);
  auto status = ServiceStatus();
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status->state(), c::INITIALIZING);
  EXPECT_FALSE(status->readytobecomeactive());
  EXPECT_EQ(status->notreadyreason(), "State is stopping");
  EXPECT_EQ(status->SerializeAsString(), Hex("08 00 10 00 1a 11") + "State is stopping");
}

}  // namespace
}  // namespace spindle::am_protocol
