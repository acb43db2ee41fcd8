#include "wire/ipc/server_session.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "base/process_user.h"
#include "ipc_connection_context.pb.h"
#include "tests/wire/ipc/fake_token_secrets.h"
#include "tests/wire/ipc/wire_test_util.h"
#include "wire/ipc/client_negotiation.h"
#include "wire/ipc/connection_preamble.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/rpc_requests.h"
#include "yarn_service_protos.pb.h"

namespace spindle::ipc {
namespace {

using hadoop::common::RpcResponseHeaderProto;
using hadoop::common::RpcSaslProto;
using testing::FakeTokenSecrets;
using testing::SplitFrames;

constexpr char kAcp[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
const std::string kClientId(16, '\x42');

class RecordingSink : public ServerSessionSink {
 public:
  void SendBytes(std::string bytes) override { sent += bytes; }
  void OnCall(InboundRequest request) override { calls.push_back(std::move(request)); }
  std::string sent;
  std::vector<InboundRequest> calls;
  // With `offload`, AuthorizeOffThread keeps the authorization for the test
  // to run (as a worker would) instead of refusing the hand-off.
  bool AuthorizeOffThread(std::function<Status()> authorize) override {
    if (!offload) return false;
    pending_authorization = std::move(authorize);
    return true;
  }
  bool offload = false;
  std::function<Status()> pending_authorization;
};

struct Reply {
  RpcResponseHeaderProto header;
  std::string_view rest;
};

std::vector<RpcResponseHeaderProto> Headers(const std::string& sent,
                                            std::vector<std::string>* frames) {
  *frames = SplitFrames(sent);
  std::vector<RpcResponseHeaderProto> headers;
  for (const auto& f : *frames) {
    std::string_view rest = f;
    RpcResponseHeaderProto h;
    EXPECT_TRUE(ReadDelimited(&rest, &h).ok());
    headers.push_back(h);
  }
  return headers;
}

std::string Call(int32_t id, const std::string& method = "getClusterMetrics") {
  hadoop::yarn::GetClusterMetricsRequestProto request;
  return EncodeCallFrame(id, kClientId, 0, kAcp, method, request);
}

std::string SimpleStart(const std::string& user = "alice") {
  return EncodePreamble(AuthProtocol::kNone) +
         EncodeConnectionContextFrame(kClientId, kAcp, user, false);
}

class ServerSessionTest : public ::testing::Test {
 protected:
  ServerSession& Session(ServerSessionOptions options) {
    session_ = std::make_unique<ServerSession>(options, &sink_, "NONCE");
    return *session_;
  }
  // Headers of everything the session sent so far.
  std::vector<RpcResponseHeaderProto> Replies() {
    std::vector<std::string> frames;
    return Headers(sink_.sent, &frames);
  }

  // Negotiates TOKEN with a token for `identifier` that the secrets refuse;
  // the session must close, and this is its last reply.
  RpcResponseHeaderProto RefusedTokenReply(const std::string& identifier);

  RecordingSink sink_;
  FakeTokenSecrets secrets_;
  std::unique_ptr<ServerSession> session_;
};

TEST_F(ServerSessionTest, SimpleContextThenPipelinedCalls) {
  auto& s = Session({});
  ASSERT_TRUE(s.OnData(SimpleStart() + Call(5) + Call(9, "getApplications")));
  EXPECT_TRUE(s.context_established());
  EXPECT_EQ(s.identity().user, "alice");
  EXPECT_EQ(s.identity().auth_method, AuthMethod::kSimple);
  EXPECT_EQ(s.identity().protocol, kAcp);
  ASSERT_EQ(sink_.calls.size(), 2u);
  EXPECT_EQ(sink_.calls[0].echo.call_id, 5);
  EXPECT_EQ(sink_.calls[0].echo.client_id, kClientId);
  EXPECT_EQ(sink_.calls[0].method, "getClusterMetrics");
  EXPECT_EQ(sink_.calls[0].protocol, kAcp);
  EXPECT_EQ(sink_.calls[1].method, "getApplications");
  EXPECT_TRUE(sink_.sent.empty());
}

TEST_F(ServerSessionTest, ReleasesTheBufferOfALargeCall) {
  auto& s = Session({});
  ASSERT_TRUE(s.OnData(SimpleStart()));
  hadoop::yarn::GetClusterMetricsRequestProto request;
  const std::string large = EncodeCallFrame(
      3, kClientId, 0, kAcp, "getClusterMetrics" + std::string(2 << 20, 'm'), request);
  // Arrives in reads of 64 KiB; the frame is buffered whole before the call.
  for (size_t at = 0; at < large.size(); at += 65536) {
    ASSERT_TRUE(s.OnData(std::string_view(large).substr(at, 65536)));
  }
  ASSERT_EQ(sink_.calls.size(), 1u);
  EXPECT_EQ(sink_.calls[0].echo.call_id, 3);
  EXPECT_LE(s.retained_bytes(), FrameDecoder::kRetainedCapacity);
  ASSERT_TRUE(s.OnData(Call(4)));
  EXPECT_EQ(sink_.calls.size(), 2u);
  EXPECT_LE(s.retained_bytes(), FrameDecoder::kRetainedCapacity);
}

TEST_F(ServerSessionTest, EveryByteSplitGivesTheSameCalls) {
  const std::string stream = SimpleStart() + Call(1) + EncodePingFrame(kClientId) + Call(2);
  for (size_t cut = 0; cut <= stream.size(); ++cut) {
    RecordingSink sink;
    ServerSession s({}, &sink, "N");
    ASSERT_TRUE(s.OnData(std::string_view(stream).substr(0, cut)));
    ASSERT_TRUE(s.OnData(std::string_view(stream).substr(cut)));
    ASSERT_EQ(sink.calls.size(), 2u) << "cut at " << cut;
    EXPECT_TRUE(sink.sent.empty());
  }
}

TEST_F(ServerSessionTest, CallBeforeContextIsFatal) {
  auto& s = Session({});
  EXPECT_FALSE(s.OnData(EncodePreamble(AuthProtocol::kNone) + Call(3)));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(headers[0].errordetail(), RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
  EXPECT_EQ(headers[0].errormsg(), "Connection context not established");
  EXPECT_EQ(headers[0].callid(), 3u);
  EXPECT_TRUE(sink_.calls.empty());
  // Input after close is ignored.
  EXPECT_FALSE(s.OnData(Call(4)));
  EXPECT_TRUE(sink_.calls.empty());
}

TEST_F(ServerSessionTest, SecondContextIsFatal) {
  auto& s = Session({});
  EXPECT_FALSE(s.OnData(SimpleStart() + EncodeConnectionContextFrame(kClientId, kAcp, "x", false)));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(headers[0].callid(), static_cast<uint32_t>(kConnectionContextCallId));
}

TEST_F(ServerSessionTest, ContextWithoutUserIsRefusedUnderSimple) {
  auto& s = Session({});
  EXPECT_FALSE(s.OnData(SimpleStart("")));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].errordetail(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
}

TEST_F(ServerSessionTest, MalformedHeaderIsFatal) {
  auto& s = Session({});
  std::string garbage;
  AppendBigEndian32(3, &garbage);
  garbage += "\x05\x01\x02";  // delimited length 5 past the end
  EXPECT_FALSE(s.OnData(EncodePreamble(AuthProtocol::kNone) + garbage));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].errordetail(), RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
  EXPECT_EQ(headers[0].callid(), 0xffffffffu);
}

TEST_F(ServerSessionTest, MissingRpcOpIsFatal) {
  auto& s = Session({});
  auto header = MakeRequestHeader(1, kClientId, 0);
  header.clear_rpcop();
  ASSERT_TRUE(s.OnData(SimpleStart()));
  EXPECT_FALSE(s.OnData(EncodeFrame({&header})));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].errordetail(), RpcResponseHeaderProto::FATAL_INVALID_RPC_HEADER);
}

TEST_F(ServerSessionTest, WritableRpcGetsAnErrorAndTheConnectionStays) {
  auto& s = Session({});
  auto header = MakeRequestHeader(1, kClientId, 0);
  header.set_rpckind(hadoop::common::RPC_WRITABLE);
  ASSERT_TRUE(s.OnData(SimpleStart()));
  EXPECT_TRUE(s.OnData(EncodeFrame({&header}) + Call(2)));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].status(), RpcResponseHeaderProto::ERROR);
  EXPECT_EQ(sink_.calls.size(), 1u);
}

TEST_F(ServerSessionTest, OversizeFrameClosesWithoutReply) {
  ServerSessionOptions options;
  options.max_data_length = 1000;
  auto& s = Session(options);
  std::string big;
  AppendBigEndian32(1001, &big);
  EXPECT_FALSE(s.OnData(SimpleStart() + big));
  EXPECT_TRUE(sink_.sent.empty());
  EXPECT_NE(s.close_reason().find("ipc.maximum.data.length"), std::string::npos);
}

TEST_F(ServerSessionTest, HttpGetGetsThe404Blurb) {
  auto& s = Session({});
  EXPECT_FALSE(s.OnData("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_EQ(sink_.sent, HttpGetReply());
}

TEST_F(ServerSessionTest, WrongVersionGetsVersionMismatch) {
  auto& s = Session({});
  EXPECT_FALSE(s.OnData(std::string("hrpc\x0a\x00\x00", 7)));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].exceptionclassname(), "org.apache.hadoop.ipc.RPC$VersionMismatch");
  EXPECT_EQ(headers[0].errordetail(), RpcResponseHeaderProto::FATAL_VERSION_MISMATCH);
}

TEST_F(ServerSessionTest, UnknownAuthByteIsFatal) {
  auto& s = Session({});
  EXPECT_FALSE(s.OnData(std::string("hrpc\x09\x00\x51", 7)));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].exceptionclassname(), "org.apache.hadoop.ipc.IpcException");
}

TEST_F(ServerSessionTest, SimpleRefusedWhereOnlyTokenIsEnabled) {
  ServerSessionOptions options;
  options.simple_enabled = false;
  options.token_provider = &secrets_;
  auto& s = Session(options);
  EXPECT_FALSE(s.OnData(SimpleStart()));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].exceptionclassname(), "org.apache.hadoop.security.AccessControlException");
  EXPECT_EQ(headers[0].errormsg(), "SIMPLE authentication is not enabled.  Available:[TOKEN]");
  EXPECT_EQ(headers[0].callid(), 0xffffffffu);
}

TEST_F(ServerSessionTest, SaslOnSimpleOnlyServerAnswersSuccess) {
  auto& s = Session({});
  ClientNegotiation client(nullptr, "C");
  ASSERT_TRUE(s.OnData(EncodePreamble(AuthProtocol::kSasl) + EncodeSaslFrame(client.Start())));
  std::vector<std::string> frames;
  ASSERT_EQ(Headers(sink_.sent, &frames).size(), 1u);
  std::string_view rest = frames[0];
  RpcResponseHeaderProto h;
  ASSERT_TRUE(ReadDelimited(&rest, &h).ok());
  RpcSaslProto reply;
  ASSERT_TRUE(ReadDelimited(&rest, &reply).ok());
  EXPECT_EQ(reply.state(), RpcSaslProto::SUCCESS);
  auto next = client.OnServerMessage(reply);
  ASSERT_TRUE(next.ok());
  EXPECT_FALSE(next->has_value());
  EXPECT_EQ(client.outcome(), ClientNegotiation::Outcome::kSimple);
  ASSERT_TRUE(s.OnData(EncodeConnectionContextFrame(kClientId, kAcp, "bob", false) + Call(1)));
  EXPECT_EQ(s.identity().user, "bob");
  EXPECT_EQ(sink_.calls.size(), 1u);
}

// A connection context whose userInfo names no effective user: absent
// altogether, or with only a realUser.
std::string IdentitylessContext(bool with_real_user) {
  const auto header = MakeRequestHeader(kConnectionContextCallId, kClientId, -1);
  hadoop::common::IpcConnectionContextProto context;
  if (with_real_user) context.mutable_userinfo()->set_realuser("oozie");
  context.set_protocol(kAcp);
  return EncodeFrame({&header, &context});
}

TEST_F(ServerSessionTest, IdentitylessContextRunsAsTheLoginUserUnderSimple) {
  // Hadoop (2.6 to 3.3): ProtoUtil.getUgi is null, the calls run as the
  // server's login user; a realUser alone is ignored.
  for (const bool with_real_user : {false, true}) {
    RecordingSink sink;
    ServerSessionOptions options;
    options.login_user = "yarn";
    ServerSession s(options, &sink, "N");
    ASSERT_TRUE(s.OnData(EncodePreamble(AuthProtocol::kNone) + IdentitylessContext(with_real_user) +
                         Call(1)))
        << s.close_reason();
    EXPECT_TRUE(s.context_established());
    EXPECT_EQ(s.identity().auth_method, AuthMethod::kSimple);
    EXPECT_EQ(s.identity().user, "yarn");
    EXPECT_EQ(s.identity().real_user, "");
    EXPECT_EQ(sink.calls.size(), 1u);
    EXPECT_TRUE(sink.sent.empty());
  }
}

TEST_F(ServerSessionTest, LoginUserDefaultsToTheProcessUser) {
  ::unsetenv("HADOOP_USER_NAME");
  EXPECT_EQ(ServerSessionOptions().login_user, ProcessUserName());
  ::setenv("HADOOP_USER_NAME", "hdfs", 1);
  EXPECT_EQ(ServerSessionOptions().login_user, "hdfs");
  ::unsetenv("HADOOP_USER_NAME");
}

TEST_F(ServerSessionTest, IdentitylessContextIsRefusedWhereOnlyTokenIsEnabled) {
  // Secure ports (SIMPLE off) never reach the context without SASL.
  ServerSessionOptions options;
  options.simple_enabled = false;
  options.token_provider = &secrets_;
  auto& s = Session(options);
  EXPECT_FALSE(s.OnData(EncodePreamble(AuthProtocol::kNone) + IdentitylessContext(true)));
  EXPECT_FALSE(s.context_established());
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(headers[0].errordetail(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
  EXPECT_TRUE(sink_.calls.empty());
}

// Runs a client negotiation against the session through the sink.
ClientNegotiation::Outcome Negotiate(ServerSession& s, RecordingSink& sink,
                                     ClientNegotiation& client, bool* closed) {
  *closed = !s.OnData(EncodePreamble(AuthProtocol::kSasl) + EncodeSaslFrame(client.Start()));
  while (!*closed && client.outcome() == ClientNegotiation::Outcome::kInProgress) {
    std::string sent;
    sent.swap(sink.sent);
    auto frames = SplitFrames(sent);
    if (frames.empty()) break;
    for (const auto& f : frames) {
      std::string_view rest = f;
      RpcResponseHeaderProto h;
      EXPECT_TRUE(ReadDelimited(&rest, &h).ok());
      if (h.status() != RpcResponseHeaderProto::SUCCESS) {
        *closed = true;
        sink.sent = sent;
        return client.outcome();
      }
      RpcSaslProto msg;
      EXPECT_TRUE(ReadDelimited(&rest, &msg).ok());
      auto next = client.OnServerMessage(msg);
      if (!next.ok()) return client.outcome();
      if (next->has_value()) *closed = !s.OnData(EncodeSaslFrame(**next));
    }
  }
  return client.outcome();
}

// A session offering TOKEN whose client has authenticated with an AMRM
// token of appattempt_1_0001_000001 (no connection context yet).
ServerSession& TokenAuthenticated(ServerSession& s, RecordingSink& sink) {
  const ClientToken token = FakeTokenSecrets::TokenFor("appattempt_1_0001_000001");
  ClientNegotiation client(&token, "CNONCE");
  bool closed = false;
  EXPECT_EQ(Negotiate(s, sink, client, &closed), ClientNegotiation::Outcome::kToken);
  EXPECT_FALSE(closed);
  return s;
}

RpcResponseHeaderProto ServerSessionTest::RefusedTokenReply(const std::string& identifier) {
  ServerSessionOptions options;
  options.token_provider = &secrets_;
  auto& s = Session(options);
  const ClientToken token = FakeTokenSecrets::TokenFor(identifier);
  ClientNegotiation client(&token, "CNONCE");
  bool closed = false;
  Negotiate(s, sink_, client, &closed);
  EXPECT_TRUE(closed);
  auto headers = Replies();
  return headers.empty() ? RpcResponseHeaderProto() : headers.back();
}

TEST_F(ServerSessionTest, TokenAuthenticationEstablishesTheTokenUser) {
  ServerSessionOptions options;
  options.token_provider = &secrets_;
  auto& s = TokenAuthenticated(Session(options), sink_);
  ASSERT_TRUE(s.OnData(EncodeConnectionContextFrame(kClientId, kAcp, "", true) + Call(1)));
  EXPECT_EQ(s.identity().auth_method, AuthMethod::kToken);
  EXPECT_EQ(s.identity().user, "appattempt_1_0001_000001");
  EXPECT_EQ(s.identity().token_identifier, "appattempt_1_0001_000001");
  EXPECT_EQ(sink_.calls.size(), 1u);
}

TEST_F(ServerSessionTest, IdentitylessContextUnderSaslKeepsTheTokenUser) {
  // Server.processConnectionContext: an authenticated connection keeps its
  // SASL user when the context names none; the login user never applies.
  ServerSessionOptions options;
  options.token_provider = &secrets_;
  options.login_user = "yarn";
  auto& s = TokenAuthenticated(Session(options), sink_);
  ASSERT_TRUE(s.OnData(IdentitylessContext(/*with_real_user=*/true) + Call(1)));
  EXPECT_EQ(s.identity().auth_method, AuthMethod::kToken);
  EXPECT_EQ(s.identity().user, "appattempt_1_0001_000001");
  EXPECT_EQ(sink_.calls.size(), 1u);
}

TEST_F(ServerSessionTest, WrongTokenPasswordIsFatalUnauthorized) {
  ServerSessionOptions options;
  options.token_provider = &secrets_;
  auto& s = Session(options);
  ClientToken token = FakeTokenSecrets::TokenFor("appattempt_1_0001_000001");
  token.password = "not the password";
  ClientNegotiation client(&token, "CNONCE");
  bool closed = false;
  Negotiate(s, sink_, client, &closed);
  EXPECT_TRUE(closed);
  EXPECT_TRUE(s.closed());
  auto headers = Replies();
  ASSERT_FALSE(headers.empty());
  EXPECT_EQ(headers.back().status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(headers.back().errordetail(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
  EXPECT_EQ(headers.back().exceptionclassname(), "javax.security.sasl.SaslException");
  EXPECT_EQ(headers.back().callid(), static_cast<uint32_t>(kSaslCallId));
}

TEST_F(ServerSessionTest, RevokedTokenIsInvalidToken) {
  EXPECT_EQ(RefusedTokenReply("revoked-attempt").exceptionclassname(),
            "org.apache.hadoop.security.token.SecretManager$InvalidToken");
}

// Java's Server sends a RetriableException the secret manager throws (not
// InvalidToken), so that the client retries (Server.getCauseForInvalidToken).
TEST_F(ServerSessionTest, SecretNotYetAvailableIsRetriable) {
  const RpcResponseHeaderProto reply = RefusedTokenReply("later-attempt");
  EXPECT_EQ(reply.status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(reply.errordetail(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
  EXPECT_EQ(reply.exceptionclassname(), "org.apache.hadoop.ipc.RetriableException");
}

TEST_F(ServerSessionTest, TokenUserMismatchInContextIsFatal) {
  ServerSessionOptions options;
  options.token_provider = &secrets_;
  auto& s = Session(options);
  const ClientToken token = FakeTokenSecrets::TokenFor("appattempt_1_0001_000001");
  ClientNegotiation client(&token, "CNONCE");
  bool closed = false;
  ASSERT_EQ(Negotiate(s, sink_, client, &closed), ClientNegotiation::Outcome::kToken);
  sink_.sent.clear();
  EXPECT_FALSE(s.OnData(EncodeConnectionContextFrame(kClientId, kAcp, "mallory", false)));
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].errordetail(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
}

TEST_F(ServerSessionTest, ClientWithoutTokenFallsBackToSimpleWithNoReply) {
  ServerSessionOptions options;
  options.token_provider = &secrets_;
  auto& s = Session(options);
  ClientNegotiation client(nullptr, "C");
  bool closed = false;
  EXPECT_EQ(Negotiate(s, sink_, client, &closed), ClientNegotiation::Outcome::kSimple);
  EXPECT_FALSE(closed);
  EXPECT_TRUE(sink_.sent.empty()) << "INITIATE(SIMPLE) must get no reply";
  ASSERT_TRUE(s.OnData(EncodeConnectionContextFrame(kClientId, kAcp, "carol", false) + Call(1)));
  EXPECT_EQ(s.identity().user, "carol");
  EXPECT_EQ(sink_.calls.size(), 1u);
}

TEST_F(ServerSessionTest, SaslProtocolViolationsAreFatal) {
  ServerSessionOptions options;
  options.token_provider = &secrets_;
  RpcSaslProto negotiate;
  negotiate.set_state(RpcSaslProto::NEGOTIATE);
  RpcSaslProto initiate_unknown;
  initiate_unknown.set_state(RpcSaslProto::INITIATE);
  auto* auth = initiate_unknown.add_auths();
  auth->set_method("KERBEROS");
  auth->set_mechanism("GSSAPI");
  RpcSaslProto wrap;
  wrap.set_state(RpcSaslProto::WRAP);
  const std::string sasl_preamble = EncodePreamble(AuthProtocol::kSasl);
  const std::vector<std::string> streams = {
      sasl_preamble + EncodeSaslFrame(negotiate) + EncodeSaslFrame(negotiate),  // twice
      sasl_preamble + EncodeSaslFrame(initiate_unknown),                        // before NEGOTIATE
      sasl_preamble + EncodeSaslFrame(negotiate) + EncodeSaslFrame(initiate_unknown),
      sasl_preamble + EncodeSaslFrame(negotiate) + EncodeSaslFrame(wrap),
      sasl_preamble + Call(1),  // call during negotiation
      sasl_preamble + EncodeConnectionContextFrame(kClientId, kAcp, "x", false),
      SimpleStart() + EncodeSaslFrame(negotiate),  // SASL after a SIMPLE start
  };
  for (size_t i = 0; i < streams.size(); ++i) {
    RecordingSink sink;
    ServerSession s(options, &sink, "N");
    EXPECT_FALSE(s.OnData(streams[i])) << "stream " << i;
    std::vector<std::string> frames;
    auto headers = Headers(sink.sent, &frames);
    ASSERT_FALSE(headers.empty()) << "stream " << i;
    EXPECT_EQ(headers.back().status(), RpcResponseHeaderProto::FATAL) << "stream " << i;
    EXPECT_TRUE(sink.calls.empty());
  }
}

}  // namespace
}  // namespace spindle::ipc

// ---- the connection authorizer (Hadoop's authorizeConnection) ----

namespace spindle::ipc {
namespace {

// Refuses one user; records what it was asked.
class RecordingAuthorizer : public ConnectionAuthorizer {
 public:
  Status Authorize(const ConnectionIdentity& identity) const override {
    seen.push_back(identity);
    if (identity.user == "mallory") {
      return Status::Remote(java::kAuthorization,
                            "User: oozie is not allowed to impersonate mallory",
                            Status::Code::kUnauthorized);
    }
    return Status::OK();
  }
  mutable std::vector<ConnectionIdentity> seen;
};

// A SIMPLE context acting for `effective` as `real` (a proxy-user connection).
std::string ProxyContext(const std::string& effective, const std::string& real) {
  const auto header = MakeRequestHeader(kConnectionContextCallId, kClientId, -1);
  hadoop::common::IpcConnectionContextProto context;
  context.mutable_userinfo()->set_effectiveuser(effective);
  context.mutable_userinfo()->set_realuser(real);
  context.set_protocol(kAcp);
  return EncodePreamble(AuthProtocol::kNone) + EncodeFrame({&header, &context});
}

TEST_F(ServerSessionTest, TheAuthorizerSeesTheFinishedIdentityBeforeAnyCall) {
  RecordingAuthorizer authorizer;
  ServerSessionOptions options;
  options.authorizer = &authorizer;
  auto& s = Session(options);
  s.set_remote_address("10.0.0.5:4242");
  ASSERT_TRUE(s.OnData(ProxyContext("bob", "oozie") + Call(1)));
  ASSERT_EQ(authorizer.seen.size(), 1u);
  EXPECT_EQ(authorizer.seen[0].user, "bob");
  EXPECT_EQ(authorizer.seen[0].real_user, "oozie");
  EXPECT_EQ(authorizer.seen[0].protocol, kAcp);
  EXPECT_EQ(authorizer.seen[0].remote_address, "10.0.0.5:4242");
  EXPECT_EQ(sink_.calls.size(), 1u);
}

TEST_F(ServerSessionTest, ARefusalIsFatalUnauthorizedAndNoCallRuns) {
  RecordingAuthorizer authorizer;
  ServerSessionOptions options;
  options.authorizer = &authorizer;
  auto& s = Session(options);
  EXPECT_FALSE(s.OnData(ProxyContext("mallory", "oozie") + Call(1)));
  EXPECT_TRUE(sink_.calls.empty());
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(headers[0].callid(), static_cast<uint32_t>(kConnectionContextCallId));
  EXPECT_EQ(headers[0].errordetail(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
  EXPECT_EQ(headers[0].exceptionclassname(),
            "org.apache.hadoop.security.authorize.AuthorizationException");
  EXPECT_EQ(headers[0].errormsg(), "User: oozie is not allowed to impersonate mallory");
}

// A sink with workers runs the authorizer off the session's thread: the
// session holds the calls that follow the context (and anything else it
// reads meanwhile) until the outcome comes back.
TEST_F(ServerSessionTest, AnOffloadedAuthorizationHoldsTheCallsUntilItsOutcome) {
  RecordingAuthorizer authorizer;
  ServerSessionOptions options;
  options.authorizer = &authorizer;
  sink_.offload = true;
  auto& s = Session(options);
  ASSERT_TRUE(s.OnData(ProxyContext("bob", "oozie") + Call(1)));
  ASSERT_TRUE(sink_.pending_authorization != nullptr);
  EXPECT_TRUE(authorizer.seen.empty());  // not run on the session's thread
  ASSERT_TRUE(s.OnData(Call(2)));
  EXPECT_TRUE(sink_.calls.empty());
  EXPECT_FALSE(s.context_established());
  const Status outcome = sink_.pending_authorization();
  ASSERT_EQ(authorizer.seen.size(), 1u);
  EXPECT_EQ(authorizer.seen[0].user, "bob");
  ASSERT_TRUE(s.OnAuthorized(outcome));
  ASSERT_EQ(sink_.calls.size(), 2u);
  EXPECT_EQ(sink_.calls[0].echo.call_id, 1);
  EXPECT_EQ(sink_.calls[1].echo.call_id, 2);
  ASSERT_TRUE(s.OnData(Call(3)));
  EXPECT_EQ(sink_.calls.size(), 3u);
}

TEST_F(ServerSessionTest, AnOffloadedRefusalIsFatalAndTheHeldCallsNeverRun) {
  RecordingAuthorizer authorizer;
  ServerSessionOptions options;
  options.authorizer = &authorizer;
  sink_.offload = true;
  auto& s = Session(options);
  ASSERT_TRUE(s.OnData(ProxyContext("mallory", "oozie") + Call(1)));
  EXPECT_FALSE(s.OnAuthorized(sink_.pending_authorization()));
  EXPECT_TRUE(sink_.calls.empty());
  auto headers = Replies();
  ASSERT_EQ(headers.size(), 1u);
  EXPECT_EQ(headers[0].errordetail(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
  EXPECT_EQ(headers[0].errormsg(), "User: oozie is not allowed to impersonate mallory");
  EXPECT_FALSE(s.OnData(Call(2)));
}

}  // namespace
}  // namespace spindle::ipc
