// Golden test 3: the captured client byte streams replayed into
// spindle::ipc::ServerSession. What the session sends must equal what the
// Hadoop 2.6.0 RM/NM sent, byte for byte: preamble error replies, SASL
// NEGOTIATE/SUCCESS (with the nonce the capture's server drew), setup FATALs.
// Calls must reach OnCall exactly as the client framed them, with the
// identity Hadoop derived (SIMPLE user or the token's attempt id).
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "tests/wire/captures/capture_corpus.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/inbound_call.h"
#include "wire/ipc/rpc_service.h"
#include "wire/ipc/server_session.h"
#include "wire/ipc/token_secret_provider.h"

namespace spindle::captures {
namespace {

using hadoop::common::RpcResponseHeaderProto;

constexpr char kClientProtocol[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kMasterProtocol[] = "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB";
constexpr char kContainerProtocol[] = "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB";

class RecordingSink : public ipc::ServerSessionSink {
 public:
  void SendBytes(std::string bytes) override { sent.push_back(std::move(bytes)); }
  void OnCall(ipc::InboundRequest request) override { calls.push_back(std::move(request)); }

  std::string AllSent() const {
    std::string out;
    for (const auto& bytes : sent) out += bytes;
    return out;
  }

  std::vector<std::string> sent;
  std::vector<ipc::InboundRequest> calls;
};

// Knows the tokens recorded in secrets.json, nothing else.
class CaptureTokenProvider : public ipc::TokenSecretProvider {
 public:
  void Add(const std::string& identifier, const std::string& password, const std::string& user) {
    secrets_[identifier] = ipc::TokenSecret{password, user};
  }

  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    auto it = secrets_.find(std::string(identifier));
    if (it == secrets_.end()) return Status::Unauthorized("token not known to the test provider");
    return it->second;
  }

 private:
  std::map<std::string, ipc::TokenSecret> secrets_;
};

// What each captured server port offered (README "errors" cases f, g, i, j
// and the NEGOTIATE frames of the distributedshell/mapreduce-pi captures).
ipc::ServerSessionOptions OptionsForPort(int port, const ipc::TokenSecretProvider* tokens) {
  ipc::ServerSessionOptions options;
  switch (port) {
    case 8032:  // ClientRMService: RMDelegationTokenSecretManager + SIMPLE
      options.simple_enabled = true;
      options.token_provider = tokens;
      break;
    case 8030:   // ApplicationMasterService: TOKEN only
    case 45454:  // NM ContainerManager: TOKEN only (the captured NEGOTIATE lists no SIMPLE)
      options.simple_enabled = false;
      options.token_provider = tokens;
      break;
    case 36965:  // MR AM TaskAttemptListener: JobTokenSecretManager + SIMPLE
      options.simple_enabled = true;
      options.token_provider = tokens;
      break;
    default:  // 8031, 8033, the NM localizer 8040, the MR client port: SIMPLE only
      options.simple_enabled = true;
      options.token_provider = nullptr;
      break;
  }
  return options;
}

enum class Feed { kSegments, kBytewise };

const char* FeedName(Feed feed) { return feed == Feed::kSegments ? "segments" : "byte-by-byte"; }

// Feeds the client's bytes in capture order until the session closes.
void FeedClient(const Conversation& conversation, Feed feed, ipc::ServerSession* session) {
  for (const auto& segment : conversation.segments) {
    if (segment.dir != Direction::kClientToServer) continue;
    if (feed == Feed::kSegments) {
      if (!session->OnData(segment.bytes)) return;
    } else {
      for (size_t i = 0; i < segment.bytes.size(); ++i) {
        if (!session->OnData(std::string_view(segment.bytes).substr(i, 1))) return;
      }
    }
  }
}

// One replay: a session with the capture's nonce and the port's options.
struct Replay {
  CaptureTokenProvider tokens;
  RecordingSink sink;
  std::unique_ptr<ipc::ServerSession> session;

  Replay(const Conversation& conversation, Feed feed) {
    std::string nonce = CapturedNonce(conversation);
    if (nonce.empty()) nonce = "nonce-not-used-by-this-conversation";
    if (auto token = TokenExchangeFor(conversation.scenario, conversation.file)) {
      std::string user = AttemptIdFromTokenIdentifier(token->token_identifier);
      if (user.empty()) user = "job-token-user";  // MR job token: a Writable identifier
      tokens.Add(token->token_identifier, token->token_password, user);
    }
    session = std::make_unique<ipc::ServerSession>(
        OptionsForPort(conversation.server_port, &tokens), &sink, std::move(nonce));
    FeedClient(conversation, feed, session.get());
  }
};

Conversation MustLoad(const std::string& scenario, const std::string& file) {
  auto conversation = LoadConversation(scenario, file);
  CHECK(conversation.ok()) << conversation.status().ToString();
  return std::move(conversation).value();
}

std::vector<std::string> WireFrames(const std::vector<ServerFrame>& frames) {
  std::vector<std::string> out;
  for (const auto& frame : frames) out.push_back(Hex(frame.wire));
  return out;
}

// --- errors scenario: byte-exact replies to broken or probing clients -------

struct ErrorCase {
  const char* label;
  const char* file;
  bool closes;
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.label; }

class ErrorReplayTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ErrorReplayTest, SendsExactlyWhatHadoopSent) {
  const ErrorCase& param = GetParam();
  const Conversation conversation = MustLoad("errors", param.file);
  ASSERT_FALSE(conversation.c2s.empty());
  for (Feed feed : {Feed::kSegments, Feed::kBytewise}) {
    SCOPED_TRACE(FeedName(feed));
    Replay replay(conversation, feed);
    EXPECT_EQ(Hex(replay.sink.AllSent()), Hex(conversation.s2c));
    EXPECT_EQ(replay.session->closed(), param.closes) << replay.session->close_reason();
    EXPECT_TRUE(replay.sink.calls.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Hadoop260, ErrorReplayTest,
    ::testing::Values(
        ErrorCase{"WrongMagic", "03-raw-a-wrong-magic-to-rm-8032.jsonl", true},
        ErrorCase{"Version8", "04-raw-b-version-8-to-rm-8032.jsonl", true},
        ErrorCase{"HttpGet", "05-raw-c-http-get-to-rm-8032.jsonl", true},
        ErrorCase{"SaslNegotiateClientPort", "08-raw-f-sasl-negotiate-to-rm-8032.jsonl", false},
        ErrorCase{"SimpleOnSchedulerPort", "09-raw-g-am-register-without-token-to-rm-8030.jsonl",
                  true},
        ErrorCase{"OversizeLength", "10-raw-h-oversize-length-to-rm-8032.jsonl", true},
        ErrorCase{"SaslNegotiateResourceTracker",
                  "11-raw-i-sasl-negotiate-resource-tracker-to-rm-8031.jsonl", false},
        ErrorCase{"SaslNegotiateSchedulerPort",
                  "12-raw-j-sasl-negotiate-scheduler-to-rm-8030.jsonl", false}),
    [](const ::testing::TestParamInfo<ErrorCase>& p) { return std::string(p.param.label); });

TEST(ErrorReplayTest, OversizeFrameClosesBeforeAnyCall) {
  const Conversation conversation = MustLoad("errors", "10-raw-h-oversize-length-to-rm-8032.jsonl");
  Replay replay(conversation, Feed::kSegments);
  EXPECT_TRUE(replay.session->closed());
  EXPECT_TRUE(replay.sink.sent.empty());
  EXPECT_TRUE(replay.sink.calls.empty());
  // The context before the oversize frame was accepted.
  EXPECT_EQ(replay.session->identity().user, "root");
  EXPECT_EQ(replay.session->identity().protocol, kClientProtocol);
}

// --- errors/06, 07: unknown method / protocol, answered by ServiceRegistry --

class CapturingChannel : public ipc::ResponseChannel {
 public:
  void SendResponse(std::string frame) override { frames.push_back(std::move(frame)); }
  std::vector<std::string> frames;
};

// Replays `file`, dispatches its one call to an ApplicationClientProtocolPB
// registry that has getApplications only, and compares the answer's header
// with Hadoop's.
void ExpectDispatchAnswersLikeHadoop(const std::string& file, const std::string& expected_class) {
  const Conversation conversation = MustLoad("errors", file);
  Replay replay(conversation, Feed::kSegments);
  ASSERT_FALSE(replay.session->closed()) << replay.session->close_reason();
  EXPECT_TRUE(replay.sink.sent.empty());
  ASSERT_EQ(replay.sink.calls.size(), 1u);
  EXPECT_EQ(replay.session->identity().auth_method, ipc::AuthMethod::kSimple);
  EXPECT_EQ(replay.session->identity().user, "root");
  const ipc::InboundRequest& request = replay.sink.calls[0];

  ipc::ServiceRegistry registry;
  bool handler_ran = false;
  auto service = std::make_unique<ipc::RpcService>(kClientProtocol);
  service->AddRawMethod("getApplications", [&](std::string_view, ipc::InboundCall call) {
    handler_ran = true;
    call.RespondError(ipc::java::kRpcServerException, "must not run",
                      RpcResponseHeaderProto::ERROR_RPC_SERVER);
  });
  registry.Add(std::move(service));
  auto channel = std::make_shared<CapturingChannel>();
  auto identity = std::make_shared<const ipc::ConnectionIdentity>(replay.session->identity());
  registry.Dispatch(request.protocol, request.payload,
                    ipc::InboundCall(channel, identity, request.echo, request.method));
  EXPECT_FALSE(handler_ran);
  ASSERT_EQ(channel->frames.size(), 1u);

  const SplitStream ours = SplitFrames(channel->frames[0], 0);
  ASSERT_TRUE(ours.error.ok());
  ASSERT_EQ(ours.frames.size(), 1u);
  ASSERT_TRUE(ours.trailing.empty());
  std::string_view rest = ours.frames[0].body;
  RpcResponseHeaderProto header;
  ASSERT_TRUE(ipc::ReadDelimited(&rest, &header).ok());
  EXPECT_TRUE(rest.empty()) << "an error response carries no payload";

  const auto captured_frames = ServerFrames(conversation);
  ASSERT_EQ(captured_frames.size(), 1u);
  const RpcResponseHeaderProto& captured = captured_frames[0].header;
  EXPECT_EQ(header.callid(), captured.callid());
  EXPECT_EQ(header.status(), captured.status());
  EXPECT_EQ(header.serveripcversionnum(), captured.serveripcversionnum());
  EXPECT_EQ(header.exceptionclassname(), captured.exceptionclassname());
  EXPECT_EQ(header.exceptionclassname(), expected_class);
  EXPECT_EQ(header.errordetail(), captured.errordetail());
  EXPECT_EQ(Hex(header.clientid()), Hex(captured.clientid()));
  EXPECT_EQ(header.has_retrycount(), captured.has_retrycount());
  EXPECT_EQ(header.retrycount(), captured.retrycount());
  // Java's errorMsg is the message followed by the server's stack trace.
  const std::string& java_message = captured.errormsg();
  EXPECT_EQ(header.errormsg(), java_message.substr(0, java_message.find('\n')));
  // With Java's errorMsg, our header is Hadoop's header byte for byte.
  header.set_errormsg(java_message);
  std::string captured_header_bytes;
  captured.SerializeToString(&captured_header_bytes);
  EXPECT_EQ(Hex(header.SerializeAsString()), Hex(captured_header_bytes));
}

TEST(DispatchReplayTest, UnknownMethod) {
  ExpectDispatchAnswersLikeHadoop("06-raw-d-unknown-method-to-rm-8032.jsonl",
                                  ipc::java::kRpcNoSuchMethod);
}

TEST(DispatchReplayTest, UnknownProtocol) {
  ExpectDispatchAnswersLikeHadoop("07-raw-e-unknown-protocol-to-rm-8032.jsonl",
                                  ipc::java::kRpcNoSuchProtocol);
}

// --- TOKEN handshakes: AMRM token on 8030, NM token on 45454 ----------------

struct TokenCase {
  const char* label;
  const char* scenario;
  const char* file;
  const char* user;  // the attempt id Hadoop reads from the token
  const char* protocol;
  const char* first_method;
};

void PrintTo(const TokenCase& c, std::ostream* os) { *os << c.label; }

class TokenHandshakeReplayTest : public ::testing::TestWithParam<TokenCase> {};

TEST_P(TokenHandshakeReplayTest, SaslFramesAreHadoopsAndIdentityIsTheAttempt) {
  const TokenCase& param = GetParam();
  const Conversation conversation = MustLoad(param.scenario, param.file);
  const auto token = TokenExchangeFor(param.scenario, param.file);
  ASSERT_TRUE(token.has_value());
  ASSERT_EQ(AttemptIdFromTokenIdentifier(token->token_identifier), param.user);

  // What Hadoop's server sent on the SASL call id: NEGOTIATE, then SUCCESS.
  std::vector<ServerFrame> captured_sasl;
  for (const auto& frame : ServerFrames(conversation)) {
    if (frame.call_id() == ipc::kSaslCallId) captured_sasl.push_back(frame);
  }
  ASSERT_EQ(captured_sasl.size(), 2u);
  std::vector<CapturedCall> captured_calls;
  for (const auto& frame : ClientFrames(conversation)) {
    if (auto call = AsProtobufCall(frame)) captured_calls.push_back(*call);
  }
  ASSERT_FALSE(captured_calls.empty());

  for (Feed feed : {Feed::kSegments, Feed::kBytewise}) {
    SCOPED_TRACE(FeedName(feed));
    Replay replay(conversation, feed);
    ASSERT_FALSE(replay.session->closed()) << replay.session->close_reason();
    ASSERT_EQ(replay.sink.sent.size(), 2u);
    EXPECT_EQ(Hex(replay.sink.sent[0]), Hex(captured_sasl[0].wire)) << "SASL NEGOTIATE";
    EXPECT_EQ(Hex(replay.sink.sent[1]), Hex(captured_sasl[1].wire)) << "SASL SUCCESS";

    EXPECT_TRUE(replay.session->context_established());
    const ipc::ConnectionIdentity& identity = replay.session->identity();
    EXPECT_EQ(identity.auth_method, ipc::AuthMethod::kToken);
    EXPECT_EQ(identity.user, param.user);
    EXPECT_EQ(Hex(identity.token_identifier), Hex(token->token_identifier));
    EXPECT_EQ(identity.protocol, param.protocol);

    ASSERT_EQ(replay.sink.calls.size(), captured_calls.size());
    const ipc::InboundRequest& first = replay.sink.calls[0];
    EXPECT_EQ(first.method, param.first_method);
    EXPECT_EQ(first.protocol, param.protocol);
    EXPECT_EQ(first.client_protocol_version, 1u);
    EXPECT_EQ(first.echo.call_id, captured_calls[0].call_id);
    EXPECT_EQ(Hex(first.echo.client_id), Hex(captured_calls[0].client_id));
    EXPECT_EQ(first.echo.retry_count, 0);
    EXPECT_EQ(Hex(first.payload), Hex(captured_calls[0].payload));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Hadoop260, TokenHandshakeReplayTest,
    ::testing::Values(TokenCase{"DistributedShellAmrm", "distributedshell",
                                "05-ds-am-to-rm-8030.jsonl", "appattempt_1795352696796_0001_000001",
                                kMasterProtocol, "registerApplicationMaster"},
                      TokenCase{"MapReducePiAmrm", "mapreduce-pi", "05-mr-am-to-rm-8030.jsonl",
                                "appattempt_1795352728471_0001_000001", kMasterProtocol,
                                "registerApplicationMaster"},
                      TokenCase{"DistributedShellNmToken", "distributedshell",
                                "03-rm-to-nm-45454.jsonl", "appattempt_1795352696796_0001_000001",
                                kContainerProtocol, "startContainers"}),
    [](const ::testing::TestParamInfo<TokenCase>& p) { return std::string(p.param.label); });

// The same AMRM handshake with a server that computes a different password:
// FATAL on the SASL call id, no SUCCESS, no call.
TEST(TokenHandshakeReplayTest, WrongPasswordIsFatal) {
  const Conversation conversation = MustLoad("distributedshell", "05-ds-am-to-rm-8030.jsonl");
  const auto token = TokenExchangeFor("distributedshell", "05-ds-am-to-rm-8030.jsonl");
  ASSERT_TRUE(token.has_value());
  CaptureTokenProvider tokens;
  std::string wrong = token->token_password;
  wrong[0] = static_cast<char>(wrong[0] ^ 0x01);
  tokens.Add(token->token_identifier, wrong, "appattempt_1795352696796_0001_000001");
  RecordingSink sink;
  ipc::ServerSession session(OptionsForPort(8030, &tokens), &sink, CapturedNonce(conversation));
  FeedClient(conversation, Feed::kSegments, &session);
  EXPECT_TRUE(session.closed());
  EXPECT_TRUE(sink.calls.empty());
  ASSERT_EQ(sink.sent.size(), 2u);  // NEGOTIATE, then the FATAL
  const SplitStream fatal = SplitFrames(sink.sent[1], 0);
  ASSERT_EQ(fatal.frames.size(), 1u);
  std::string_view rest = fatal.frames[0].body;
  RpcResponseHeaderProto header;
  ASSERT_TRUE(ipc::ReadDelimited(&rest, &header).ok());
  EXPECT_EQ(static_cast<int32_t>(header.callid()), ipc::kSaslCallId);
  EXPECT_EQ(header.status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(header.errordetail(), RpcResponseHeaderProto::FATAL_UNAUTHORIZED);
}

TEST(TokenHandshakeReplayTest, UnknownTokenIsFatalInvalidToken) {
  const Conversation conversation = MustLoad("distributedshell", "05-ds-am-to-rm-8030.jsonl");
  CaptureTokenProvider no_tokens;
  RecordingSink sink;
  ipc::ServerSession session(OptionsForPort(8030, &no_tokens), &sink, CapturedNonce(conversation));
  FeedClient(conversation, Feed::kSegments, &session);
  EXPECT_TRUE(session.closed());
  EXPECT_TRUE(sink.calls.empty());
  ASSERT_EQ(sink.sent.size(), 2u);
  const SplitStream fatal = SplitFrames(sink.sent[1], 0);
  ASSERT_EQ(fatal.frames.size(), 1u);
  std::string_view rest = fatal.frames[0].body;
  RpcResponseHeaderProto header;
  ASSERT_TRUE(ipc::ReadDelimited(&rest, &header).ok());
  EXPECT_EQ(header.status(), RpcResponseHeaderProto::FATAL);
  EXPECT_EQ(header.exceptionclassname(), ipc::java::kInvalidToken);
}

// --- every captured client stream -------------------------------------------

bool IsSetupOrSasl(const ServerFrame& frame) {
  return frame.call_id() == ipc::kSaslCallId ||
         frame.call_id() == ipc::kAuthorizationFailedCallId ||
         frame.header.status() == RpcResponseHeaderProto::FATAL;
}

class ServerSweepTest : public ::testing::TestWithParam<std::string> {};

// Every v9 client stream of the scenario, replayed: the session's SASL and
// setup frames are Hadoop's, and every protobuf call reaches OnCall as framed.
TEST_P(ServerSweepTest, AcceptsEveryCapturedClientStream) {
  int streams = 0;
  int calls = 0;
  int sasl_frames = 0;
  for (const auto& conversation : LoadScenario(GetParam())) {
    if (!conversation.c2s.starts_with(std::string("hrpc\x09", 5))) continue;  // HTTP, pre-v9
    SCOPED_TRACE(conversation.name());
    ++streams;
    const auto server_frames = ServerFrames(conversation);
    std::vector<ServerFrame> expected_setup;
    bool fatal = false;
    for (const auto& frame : server_frames) {
      if (IsSetupOrSasl(frame)) expected_setup.push_back(frame);
      if (frame.header.status() == RpcResponseHeaderProto::FATAL) fatal = true;
    }
    const bool oversize = !SplitConversation(conversation, Direction::kClientToServer).error.ok();
    const bool expect_closed = fatal || oversize;
    std::vector<CapturedCall> captured_calls;
    int writable_calls = 0;
    bool has_context = false;
    if (!fatal && !oversize) {
      for (const auto& frame : ClientFrames(conversation)) {
        if (frame.header.callid() == ipc::kConnectionContextCallId) has_context = true;
        if (auto call = AsProtobufCall(frame)) captured_calls.push_back(*call);
        if (frame.header.callid() >= 0 && frame.header.rpckind() == hadoop::common::RPC_WRITABLE) {
          ++writable_calls;
        }
      }
    }
    const auto token = TokenExchangeFor(conversation.scenario, conversation.file);

    for (Feed feed : {Feed::kSegments, Feed::kBytewise}) {
      SCOPED_TRACE(FeedName(feed));
      Replay replay(conversation, feed);
      EXPECT_EQ(replay.session->closed(), expect_closed) << replay.session->close_reason();

      const SplitStream sent = SplitFrames(replay.sink.AllSent(), 0);
      ASSERT_TRUE(sent.error.ok());
      ASSERT_TRUE(sent.trailing.empty());
      std::vector<std::string> ours_setup;
      int ours_call_errors = 0;
      for (const auto& frame : sent.frames) {
        std::string_view rest = frame.body;
        RpcResponseHeaderProto header;
        ASSERT_TRUE(ipc::ReadDelimited(&rest, &header).ok());
        const int32_t call_id = static_cast<int32_t>(header.callid());
        if (call_id == ipc::kSaslCallId || call_id == ipc::kAuthorizationFailedCallId ||
            header.status() == RpcResponseHeaderProto::FATAL) {
          std::string wire;
          ipc::AppendBigEndian32(static_cast<uint32_t>(frame.body.size()), &wire);
          ours_setup.push_back(Hex(wire + frame.body));
        } else {
          // Only Writable (TaskUmbilical) calls are answered by the session
          // itself: Spindle speaks RPC_PROTOCOL_BUFFER only.
          EXPECT_EQ(header.status(), RpcResponseHeaderProto::ERROR);
          ++ours_call_errors;
        }
      }
      EXPECT_EQ(ours_setup, WireFrames(expected_setup));
      EXPECT_EQ(ours_call_errors, writable_calls);
      if (feed == Feed::kSegments) sasl_frames += static_cast<int>(ours_setup.size());
      if (expect_closed) continue;

      // errors/08, 11, 12 stop after the SASL NEGOTIATE.
      EXPECT_EQ(replay.session->context_established(), has_context);
      if (!has_context) continue;
      const ipc::ConnectionIdentity& identity = replay.session->identity();
      if (token) {
        EXPECT_EQ(identity.auth_method, ipc::AuthMethod::kToken);
        EXPECT_EQ(Hex(identity.token_identifier), Hex(token->token_identifier));
        const std::string attempt = AttemptIdFromTokenIdentifier(token->token_identifier);
        if (!attempt.empty()) {
          EXPECT_EQ(identity.user, attempt);
        }
      } else {
        EXPECT_EQ(identity.auth_method, ipc::AuthMethod::kSimple);
        EXPECT_EQ(identity.user, "root");
      }
      ASSERT_EQ(replay.sink.calls.size(), captured_calls.size());
      for (size_t i = 0; i < captured_calls.size(); ++i) {
        const ipc::InboundRequest& got = replay.sink.calls[i];
        const CapturedCall& want = captured_calls[i];
        SCOPED_TRACE("call " + std::to_string(want.call_id) + " " + want.method);
        EXPECT_EQ(got.method, want.method);
        EXPECT_EQ(got.protocol, want.protocol);
        EXPECT_EQ(got.client_protocol_version, want.client_protocol_version);
        EXPECT_EQ(got.echo.call_id, want.call_id);
        EXPECT_EQ(Hex(got.echo.client_id), Hex(want.client_id));
        EXPECT_EQ(got.echo.retry_count, want.retry_count);
        EXPECT_EQ(Hex(got.payload), Hex(want.payload));
      }
      if (feed == Feed::kSegments) calls += static_cast<int>(replay.sink.calls.size());
    }
  }
  std::cout << "[ captures ] " << GetParam() << ": " << streams
            << " client streams replayed into ServerSession, " << sasl_frames
            << " SASL/setup frames byte-exact, " << calls << " calls delivered\n";
  EXPECT_GT(streams, 0);
}

INSTANTIATE_TEST_SUITE_P(Hadoop260, ServerSweepTest, ::testing::ValuesIn(Scenarios()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return TestNameOf(p.param);
                         });

}  // namespace
}  // namespace spindle::captures
