// AmService as the wire sees it: decode -> rm::AttemptAllocator -> encode.
// What the handler itself must keep: a repeated responseId gets the very
// bytes of the last answer (ApplicationMasterService.allocate resends
// lastResponse), update errors echo the request as the AM sent it, and the
// caller is the attempt its AMRM token names.
#include "am_protocol/am_service/am_service.h"

#include <gtest/gtest.h>

#include <string>

#include "base/crypto.h"
#include "rm/security/client_to_am_token_secret_manager.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "tests/rm/core/attempt_allocator_fixture.h"

namespace spindle::am_protocol {
namespace {

namespace y = hadoop::yarn;

class AmServiceTest : public rm::test_support::AttemptAllocatorFixture {
 protected:
  ipc::ConnectionIdentity Caller(const rm::ApplicationAttemptId& attempt) {
    ipc::ConnectionIdentity who;
    who.auth_method = ipc::AuthMethod::kToken;
    who.user = attempt.ToString();
    who.token_identifier = amrm_->CreateToken(attempt).identifier;
    return who;
  }
  y::AllocateResponseProto AllocateOver(AmService* service, const ipc::ConnectionIdentity& who,
                                        const y::AllocateRequestProto& request) {
    y::AllocateResponseProto response;
    Status status = service->Allocate(who, request, &response);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return response;
  }
};

TEST_F(AmServiceTest, ARepeatedResponseIdGetsTheSameBytes) {
  AmService service(allocator_.get());
  const rm::ApplicationAttemptId attempt = LaunchedApp();
  const ipc::ConnectionIdentity who = Caller(attempt);
  y::RegisterApplicationMasterRequestProto reg;
  reg.set_host("am-host");
  y::RegisterApplicationMasterResponseProto registered;
  ASSERT_TRUE(service.Register(who, reg, &registered).ok());
  EXPECT_EQ(registered.maximumcapability().memory(), 8192);
  EXPECT_EQ(registered.queue(), "default");

  y::AllocateRequestProto ask;
  ask.set_response_id(0);
  y::ResourceRequestProto* row = ask.add_ask();
  row->mutable_priority()->set_priority(1);
  row->set_resource_name("*");
  row->mutable_capability()->set_memory(1000);
  row->mutable_capability()->set_virtual_cores(3);
  row->set_num_containers(2);
  const y::AllocateResponseProto first = AllocateOver(&service, who, ask);
  EXPECT_EQ(first.response_id(), 1);
  Place();

  y::AllocateRequestProto next;
  next.set_response_id(1);
  y::UpdateContainerRequestProto* update = next.add_update_requests();
  update->set_container_version(0);
  rm::ToProto(rm::ContainerId{attempt, 77}, update->mutable_container_id());
  update->set_update_type(y::INCREASE_RESOURCE);
  update->mutable_capability()->set_memory(4096);
  const y::AllocateResponseProto second = AllocateOver(&service, who, next);
  ASSERT_EQ(second.allocated_containers_size(), 2);
  EXPECT_EQ(second.allocated_containers(0).resource().memory(), 1024);
  EXPECT_EQ(second.allocated_containers(0).resource().virtual_cores(), 1)
      << "DefaultResourceCalculator: 1 vcore";
  ASSERT_EQ(second.update_errors_size(), 1);
  EXPECT_EQ(second.update_errors(0).update_request().SerializeAsString(),
            update->SerializeAsString());
  EXPECT_EQ(second.update_errors(0).reason(), "INVALID_CONTAINER_ID");

  // The AM lost the answer and asks again with the same id.
  const y::AllocateResponseProto again = AllocateOver(&service, who, next);
  EXPECT_EQ(again.SerializeAsString(), second.SerializeAsString());
  EXPECT_EQ(again.response_id(), 2);
}

TEST_F(AmServiceTest, TheRegistrationsAnswerRepeatedIsAnEmptyMessage) {
  AmService service(allocator_.get());
  const rm::ApplicationAttemptId attempt = LaunchedApp();
  const ipc::ConnectionIdentity who = Caller(attempt);
  y::RegisterApplicationMasterResponseProto registered;
  ASSERT_TRUE(service.Register(who, y::RegisterApplicationMasterRequestProto(), &registered).ok());
  y::AllocateRequestProto behind;
  behind.set_response_id(-1);
  EXPECT_EQ(AllocateOver(&service, who, behind).ByteSizeLong(), 0u);
}

TEST_F(AmServiceTest, OnlyAnAmrmTokenNamesTheCaller) {
  AmService service(allocator_.get());
  ipc::ConnectionIdentity simple;
  simple.user = "alice";
  y::AllocateResponseProto response;
  Status refused = service.Allocate(simple, y::AllocateRequestProto(), &response);
  EXPECT_EQ(refused.java_class(), rm::yarn::kYarnException);
  EXPECT_EQ(refused.message(), "No AMRMToken found for user alice");
}

// Secure mode (Java's DefaultAMSProcessor under isSecurityEnabled): the
// registration hands the AM its attempt's ClientToAMToken master key, the
// key the core signs the clients' tokens with; the MapReduce AM refuses to
// start without one ("Empty key"). Insecure mode sends none. (When the key
// is made, stored and dropped is the core's: tests/rm/core.)
TEST_F(AmServiceTest, InSecureModeTheRegistrationCarriesTheClientToAmKey) {
  AmService insecure(allocator_.get());
  y::RegisterApplicationMasterResponseProto plain;
  ASSERT_TRUE(
      insecure.Register(Caller(LaunchedApp()), y::RegisterApplicationMasterRequestProto(), &plain)
          .ok());
  EXPECT_FALSE(plain.has_client_to_am_token_master_key());

  secure_ = true;
  Build(rm::HadoopLine::k3_3);
  AmService secure(allocator_.get());
  const rm::ApplicationAttemptId attempt = LaunchedApp();
  const ipc::ConnectionIdentity who = Caller(attempt);
  y::RegisterApplicationMasterResponseProto registered;
  ASSERT_TRUE(secure.Register(who, y::RegisterApplicationMasterRequestProto(), &registered).ok());
  ASSERT_TRUE(registered.has_client_to_am_token_master_key());
  const std::string& key = registered.client_to_am_token_master_key();
  EXPECT_EQ(key.size(), rm::ClientToAmTokenSecretManager::kKeyLength);
  const std::optional<rm::Token> token = client_to_am_->CreateToken(attempt, "alice@SPINDLE.TEST");
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->password, HmacSha1(key, token->identifier)) << "the AM checks with this key";
  EXPECT_EQ(apps_->GetApp(attempt.app)->attempts.back().client_token_master_key, key)
      << "the key the attempt's record keeps";
}

// Hadoop 3's DefaultAMSProcessor puts the application's priority in every
// allocate answer; MapReduce's allocators (LocalContainerAllocator in uber
// mode, RMContainerAllocator) dereference it without a check.
TEST_F(AmServiceTest, EveryAllocateAnswerCarriesTheApplicationPriority) {
  AmService service(allocator_.get());
  const rm::ApplicationAttemptId attempt = LaunchedApp();
  const ipc::ConnectionIdentity who = Caller(attempt);
  y::RegisterApplicationMasterResponseProto registered;
  ASSERT_TRUE(service.Register(who, y::RegisterApplicationMasterRequestProto(), &registered).ok());
  y::AllocateRequestProto heartbeat;
  heartbeat.set_response_id(0);
  const y::AllocateResponseProto first = AllocateOver(&service, who, heartbeat);
  ASSERT_TRUE(first.has_application_priority());
  EXPECT_EQ(first.application_priority().priority(), 0);
  ASSERT_TRUE(apps_->UpdatePriority(attempt.app, 3).ok());
  heartbeat.set_response_id(1);
  EXPECT_EQ(AllocateOver(&service, who, heartbeat).application_priority().priority(), 3);
}

// ResourceRequestProto.node_label_expression (field 6) reaches the RM core:
// an ANY row's label places its containers in that partition; a host row's
// is refused with InvalidLabelResourceRequestException (3.3 SchedulerUtils).
TEST_F(AmServiceTest, TheLabelExpressionOfAnAskIsDecoded) {
  LabelHost("h3", "x");
  AmService service(allocator_.get());
  const rm::ApplicationAttemptId attempt = LaunchedApp();
  const ipc::ConnectionIdentity who = Caller(attempt);
  y::RegisterApplicationMasterResponseProto registered;
  ASSERT_TRUE(service.Register(who, y::RegisterApplicationMasterRequestProto(), &registered).ok());

  y::AllocateRequestProto bad;
  y::ResourceRequestProto* host = bad.add_ask();
  host->mutable_priority()->set_priority(1);
  host->set_resource_name("h1");
  host->mutable_capability()->set_memory(1024);
  host->set_num_containers(1);
  host->set_node_label_expression("x");
  y::AllocateResponseProto response;
  Status refused = service.Allocate(who, bad, &response);
  EXPECT_EQ(refused.java_class(), rm::yarn::kInvalidLabelResourceRequest);

  y::AllocateRequestProto ask;
  y::ResourceRequestProto* any = ask.add_ask();
  any->mutable_priority()->set_priority(1);
  any->set_resource_name("*");
  any->mutable_capability()->set_memory(1024);
  any->set_num_containers(2);
  any->set_node_label_expression("x");
  AllocateOver(&service, who, ask);
  Place();
  y::AllocateRequestProto next;
  next.set_response_id(1);
  const y::AllocateResponseProto placed = AllocateOver(&service, who, next);
  ASSERT_EQ(placed.allocated_containers_size(), 2);
  for (const auto& container : placed.allocated_containers()) {
    EXPECT_EQ(container.nodeid().host(), "h3");
  }
}

}  // namespace
}  // namespace spindle::am_protocol
