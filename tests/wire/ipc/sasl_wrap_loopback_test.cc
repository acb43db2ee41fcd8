// RpcClient <-> RpcServer over loopback with TOKEN (DIGEST-MD5) at
// hadoop.rpc.protection integrity and privacy: every frame after SASL is
// wrapped (Hadoop's WRAP framing), large requests span several tokens, and
// a tampered or unwrapped frame closes only its own connection, with
// javax.security.sasl.SaslException.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio.hpp>

#include "base/crypto.h"
#include "rpc_header.pb.h"
#include "tests/wire/ipc/fake_token_secrets.h"
#include "tests/wire/ipc/metrics_method.h"
#include "tests/wire/ipc/raw_sasl_client.h"
#include "wire/ipc/client_negotiation.h"
#include "wire/ipc/connection_preamble.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_requests.h"
#include "wire/ipc/rpc_server.h"
#include "wire/ipc/sasl_wrap_framing.h"
#include "yarn_service_protos.pb.h"

namespace spindle::ipc {
namespace {

namespace y = hadoop::yarn;
using hadoop::common::RpcResponseHeaderProto;
using hadoop::common::RpcSaslProto;
using testing::CallMetrics;
using testing::FakeTokenSecrets;
using testing::MetricsMethod;
using testing::RawSaslClient;
constexpr char kAcp[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kAttempt[] = "appattempt_1700000000000_0001_000001";

std::string QopTestName(const ::testing::TestParamInfo<SaslQop>& param_info) {
  return param_info.param == SaslQop::kAuthInt ? "Integrity" : "Privacy";
}

class SaslWrapLoopbackTest : public ::testing::TestWithParam<SaslQop> {
 protected:
  void SetUp() override {
    RpcServerOptions options;
    options.session.simple_enabled = false;
    options.session.token_provider = &secrets_;
    options.session.qops = {SaslQop::kAuth, SaslQop::kAuthInt, SaslQop::kAuthConf};
    auto registry = std::make_shared<ServiceRegistry>();
    std::unique_ptr<RpcService> service = metrics_.NewService(kAcp);
    // Echoes the (large) name back in a (large) answer.
    service->AddMethod<y::SubmitApplicationRequestProto, y::GetApplicationsResponseProto>(
        "submitApplication",
        [](const ConnectionIdentity&, const y::SubmitApplicationRequestProto& request,
           y::GetApplicationsResponseProto* response) {
          response->add_applications()->set_diagnostics(
              request.application_submission_context().application_name());
          return Status::OK();
        });
    registry->Add(std::move(service));
    server_ = std::make_unique<RpcServer>(options, registry);
    ASSERT_TRUE(server_->Start().ok());
  }
  void TearDown() override { server_->Stop(); }

  static RpcClientOptions ClientAt(SaslQop qop) {
    RpcClientOptions options;
    options.qops = {qop};
    return options;
  }

  ConnectionSpec Spec() {
    ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = kAcp;
    spec.token = FakeTokenSecrets::TokenFor(kAttempt);
    return spec;
  }

  FakeTokenSecrets secrets_;
  MetricsMethod metrics_;
  std::unique_ptr<RpcServer> server_;
};

TEST_P(SaslWrapLoopbackTest, CallsRunWrappedAtTheNegotiatedQop) {
  RpcClient client(ClientAt(GetParam()));
  for (int i = 0; i < 5; ++i) {
    Status s = CallMetrics(client, Spec());
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  const ConnectionIdentity last = metrics_.last();
  EXPECT_EQ(last.qop, GetParam());
  EXPECT_EQ(last.auth_method, AuthMethod::kToken);
  EXPECT_EQ(last.user, kAttempt);
  EXPECT_EQ(metrics_.served(), 5);
}

// A request larger than the server's maxbuf goes out in several tokens
// (SaslRpcClient's buffer of RAW_SEND_SIZE); the answer comes whole.
TEST_P(SaslWrapLoopbackTest, LargeRequestsAndAnswersCrossTokens) {
  RpcClient client(ClientAt(GetParam()));
  y::SubmitApplicationRequestProto request;
  std::string name(300 * 1024, 'n');
  for (size_t i = 0; i < name.size(); i += 997) name[i] = static_cast<char>('a' + i % 26);
  request.mutable_application_submission_context()->set_application_name(name);
  for (int i = 0; i < 3; ++i) {
    y::GetApplicationsResponseProto response;
    Status s = client.Call(Spec(), "submitApplication", request, &response);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(response.applications_size(), 1);
    EXPECT_EQ(response.applications(0).diagnostics(), name);
  }
}

INSTANTIATE_TEST_SUITE_P(Qops, SaslWrapLoopbackTest,
                         ::testing::Values(SaslQop::kAuthInt, SaslQop::kAuthConf), QopTestName);

std::string ContextAndCall() {
  y::GetClusterMetricsRequestProto request;
  return testing::ContextAndMetricsCall(kAcp, "", true, request);
}

class SaslWrapRefusalTest : public SaslWrapLoopbackTest {};

// Any flipped bit of a wrapped token: the server answers (wrapped, its own
// side being intact) FATAL javax.security.sasl.SaslException and closes
// that connection; everyone else is served.
TEST_P(SaslWrapRefusalTest, ATamperedWrappedFrameClosesOnlyItsConnection) {
  const ClientToken token = FakeTokenSecrets::TokenFor(kAttempt);
  RawSaslClient raw(server_->port(), &token, nullptr, GetParam());
  ASSERT_NE(raw.layer(), nullptr);
  auto wrapped = WrapRequestFrames(raw.layer(), ContextAndCall());
  ASSERT_TRUE(wrapped.ok());
  std::string tampered = *wrapped;
  tampered[tampered.size() - 12] = static_cast<char>(tampered[tampered.size() - 12] ^ 0x20);
  raw.Send(tampered);
  RpcResponseHeaderProto fatal = raw.ReadWrappedHeader();
  EXPECT_EQ(fatal.status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(fatal.exceptionclassname(), java::kSaslException);
  EXPECT_EQ(fatal.errordetail(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
  EXPECT_TRUE(raw.ClosedByServer());

  RpcClient client(ClientAt(GetParam()));
  Status s = CallMetrics(client, Spec());
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// The same frames sent intact are served: the refusal above is the
// tampering's doing.
TEST_P(SaslWrapRefusalTest, TheSameFramesIntactAreServed) {
  const ClientToken token = FakeTokenSecrets::TokenFor(kAttempt);
  RawSaslClient raw(server_->port(), &token, nullptr, GetParam());
  ASSERT_NE(raw.layer(), nullptr);
  auto wrapped = WrapRequestFrames(raw.layer(), ContextAndCall());
  ASSERT_TRUE(wrapped.ok());
  raw.Send(*wrapped);
  RpcResponseHeaderProto answer = raw.ReadWrappedHeader();
  EXPECT_EQ(answer.status(), RpcResponseHeaderProto::SUCCESS);
  EXPECT_EQ(answer.callid(), 0u);
}

// A plain frame where wrapped ones are due could have been injected by
// anyone on the path: refused.
TEST_P(SaslWrapRefusalTest, AnUnwrappedFrameAfterNegotiationIsRefused) {
  const ClientToken token = FakeTokenSecrets::TokenFor(kAttempt);
  RawSaslClient raw(server_->port(), &token, nullptr, GetParam());
  ASSERT_NE(raw.layer(), nullptr);
  raw.Send(ContextAndCall());
  RpcResponseHeaderProto fatal = raw.ReadWrappedHeader();
  EXPECT_EQ(fatal.status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(fatal.exceptionclassname(), java::kSaslException);
  EXPECT_TRUE(raw.ClosedByServer());
}

// A wrapped token replayed (a recorded call sent again) is refused.
TEST_P(SaslWrapRefusalTest, AReplayedTokenIsRefused) {
  const ClientToken token = FakeTokenSecrets::TokenFor(kAttempt);
  RawSaslClient raw(server_->port(), &token, nullptr, GetParam());
  ASSERT_NE(raw.layer(), nullptr);
  auto wrapped = WrapRequestFrames(raw.layer(), ContextAndCall());
  ASSERT_TRUE(wrapped.ok());
  raw.Send(*wrapped);
  EXPECT_EQ(raw.ReadWrappedHeader().status(), RpcResponseHeaderProto::SUCCESS);
  raw.Send(*wrapped);
  RpcResponseHeaderProto fatal = raw.ReadWrappedHeader();
  EXPECT_EQ(fatal.status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(fatal.exceptionclassname(), java::kSaslException);
}

INSTANTIATE_TEST_SUITE_P(Qops, SaslWrapRefusalTest,
                         ::testing::Values(SaslQop::kAuthInt, SaslQop::kAuthConf), QopTestName);

// A client that accepts only privacy and a server that allows only
// authentication have nothing in common: no silent downgrade.
TEST(SaslWrapNegotiationTest, NoCommonQopFailsTheConnection) {
  FakeTokenSecrets secrets;
  RpcServerOptions options;
  options.session.token_provider = &secrets;
  auto registry = std::make_shared<ServiceRegistry>();
  registry->Add(std::make_unique<RpcService>(kAcp));
  RpcServer server(options, registry);
  ASSERT_TRUE(server.Start().ok());
  ConnectionSpec spec;
  spec.host = "127.0.0.1";
  spec.port = server.port();
  spec.protocol = kAcp;
  spec.token = FakeTokenSecrets::TokenFor(kAttempt);
  RpcClientOptions client_options;
  client_options.qops = {SaslQop::kAuthConf};
  RpcClient client(client_options);
  Status s = CallMetrics(client, spec);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("No common protection layer"), std::string::npos) << s.ToString();
  // Refused on the client's side, as Java's SaslClient throws it.
  EXPECT_EQ(s.java_class(), java::kSaslException);
  EXPECT_TRUE(s.IsUnauthorized());
  server.Stop();
}

}  // namespace
}  // namespace spindle::ipc
