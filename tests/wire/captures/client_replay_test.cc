// Golden test 4: Spindle's client side against the Hadoop 2.6.0 clients.
// ClientNegotiation, given the captured token and cnonce and fed the captured
// server NEGOTIATE, must write the Java client's SASL frames byte for byte and
// accept the captured SUCCESS; the request-frame builders of rpc_requests.h
// (connection context, calls, SASL) must rebuild every captured client frame.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "ipc_connection_context.pb.h"
#include "protobuf_rpc_engine.pb.h"
#include "tests/wire/captures/capture_corpus.h"
#include "wire/ipc/client_negotiation.h"
#include "wire/ipc/digest_md5.h"
#include "wire/ipc/frame_codec.h"
#include "wire/ipc/rpc_requests.h"

namespace spindle::captures {
namespace {

using hadoop::common::RpcSaslProto;
using ipc::ClientNegotiation;

Conversation MustLoad(const std::string& scenario, const std::string& file) {
  auto conversation = LoadConversation(scenario, file);
  CHECK(conversation.ok()) << conversation.status().ToString();
  return std::move(conversation).value();
}

RpcSaslProto ParseSasl(const std::string& rest) {
  std::string_view in = rest;
  RpcSaslProto sasl;
  const Status s = ipc::ReadDelimited(&in, &sasl);
  CHECK(s.ok()) << s.ToString();
  return sasl;
}

std::vector<ClientFrame> ClientSaslFrames(const Conversation& conversation) {
  std::vector<ClientFrame> out;
  for (auto& frame : ClientFrames(conversation)) {
    if (frame.header.callid() == ipc::kSaslCallId) out.push_back(std::move(frame));
  }
  return out;
}

std::vector<ServerFrame> ServerSaslFrames(const Conversation& conversation) {
  std::vector<ServerFrame> out;
  for (auto& frame : ServerFrames(conversation)) {
    if (frame.call_id() == ipc::kSaslCallId) out.push_back(std::move(frame));
  }
  return out;
}

// Every TOKEN handshake: ClientNegotiation writes the JDK/Hadoop client's
// NEGOTIATE and INITIATE frames and verifies the server's SUCCESS.
TEST(ClientNegotiationReplayTest, ReproducesEveryCapturedTokenHandshake) {
  int handshakes = 0;
  for (const auto& scenario : Scenarios()) {
    auto exchanges = LoadSaslExchanges(scenario);
    ASSERT_TRUE(exchanges.ok()) << exchanges.status().ToString();
    for (const auto& exchange : *exchanges) {
      if (!exchange.has_token()) continue;
      const Conversation conversation = MustLoad(scenario, exchange.file);
      SCOPED_TRACE(conversation.name());
      const auto c2s = ClientSaslFrames(conversation);
      const auto s2c = ServerSaslFrames(conversation);
      ASSERT_EQ(c2s.size(), 2u);
      ASSERT_EQ(s2c.size(), 2u);
      const RpcSaslProto captured_initiate = ParseSasl(c2s[1].rest);
      auto directives = ipc::ParseDigestDirectives(captured_initiate.token());
      ASSERT_TRUE(directives.ok()) << directives.status().ToString();
      const std::string cnonce = directives->at("cnonce");

      ipc::ClientToken token;
      token.identifier = exchange.token_identifier;
      token.password = exchange.token_password;
      ClientNegotiation negotiation(&token, cnonce);
      EXPECT_EQ(Hex(ipc::EncodeSaslFrame(negotiation.Start())), Hex(c2s[0].wire))
          << "client NEGOTIATE";

      auto initiate = negotiation.OnServerMessage(ParseSasl(s2c[0].rest));
      ASSERT_TRUE(initiate.ok()) << initiate.status().ToString();
      ASSERT_TRUE(initiate->has_value());
      EXPECT_EQ(negotiation.outcome(), ClientNegotiation::Outcome::kInProgress);
      // Compare the messages first (a readable diff), then the frame bytes.
      EXPECT_EQ((*initiate)->ShortDebugString(), captured_initiate.ShortDebugString());
      EXPECT_EQ(Hex(ipc::EncodeSaslFrame(**initiate)), Hex(c2s[1].wire)) << "client INITIATE";

      auto done = negotiation.OnServerMessage(ParseSasl(s2c[1].rest));
      ASSERT_TRUE(done.ok()) << done.status().ToString();
      EXPECT_FALSE(done->has_value());
      EXPECT_EQ(negotiation.outcome(), ClientNegotiation::Outcome::kToken);

      // A SUCCESS whose rspauth the token cannot produce is refused.
      ClientNegotiation again(&token, cnonce);
      ASSERT_TRUE(again.OnServerMessage(ParseSasl(s2c[0].rest)).ok());
      RpcSaslProto forged = ParseSasl(s2c[1].rest);
      std::string forged_token = forged.token();
      forged_token.back() = forged_token.back() == '0' ? '1' : '0';
      forged.set_token(forged_token);
      EXPECT_FALSE(again.OnServerMessage(forged).ok());
      ++handshakes;
    }
  }
  EXPECT_EQ(handshakes, 21);
}

// errors/11: the resource tracker (no secret manager) answers NEGOTIATE with
// SUCCESS; a client without a token settles on SIMPLE.
TEST(ClientNegotiationReplayTest, SimpleOnlyServerMeansSimple) {
  const Conversation conversation =
      MustLoad("errors", "11-raw-i-sasl-negotiate-resource-tracker-to-rm-8031.jsonl");
  const auto c2s = ClientSaslFrames(conversation);
  const auto s2c = ServerSaslFrames(conversation);
  ASSERT_EQ(c2s.size(), 1u);
  ASSERT_EQ(s2c.size(), 1u);
  ClientNegotiation negotiation(nullptr, "unused-cnonce");
  EXPECT_EQ(Hex(ipc::EncodeSaslFrame(negotiation.Start())), Hex(c2s[0].wire));
  auto reply = negotiation.OnServerMessage(ParseSasl(s2c[0].rest));
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_FALSE(reply->has_value());
  EXPECT_EQ(negotiation.outcome(), ClientNegotiation::Outcome::kSimple);
}

// errors/08: 8032 offers TOKEN and SIMPLE; without a token the client picks
// SIMPLE with an INITIATE naming exactly the advertised SIMPLE auth.
TEST(ClientNegotiationReplayTest, TokenlessClientPicksSimpleOnClientPort) {
  const Conversation conversation = MustLoad("errors", "08-raw-f-sasl-negotiate-to-rm-8032.jsonl");
  const auto s2c = ServerSaslFrames(conversation);
  ASSERT_EQ(s2c.size(), 1u);
  ClientNegotiation negotiation(nullptr, "unused-cnonce");
  auto reply = negotiation.OnServerMessage(ParseSasl(s2c[0].rest));
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  ASSERT_TRUE(reply->has_value());
  EXPECT_EQ((*reply)->state(), RpcSaslProto::INITIATE);
  ASSERT_EQ((*reply)->auths_size(), 1);
  EXPECT_EQ((*reply)->auths(0).method(), "SIMPLE");
  EXPECT_EQ((*reply)->auths(0).mechanism(), "");
  EXPECT_FALSE((*reply)->auths(0).has_protocol());
  EXPECT_FALSE((*reply)->auths(0).has_serverid());
  EXPECT_FALSE((*reply)->has_token());
  EXPECT_EQ(negotiation.outcome(), ClientNegotiation::Outcome::kSimple);
}

// errors/12: the scheduler port offers TOKEN only; without a token the client
// must give up rather than try SIMPLE.
TEST(ClientNegotiationReplayTest, TokenlessClientFailsOnSchedulerPort) {
  const Conversation conversation =
      MustLoad("errors", "12-raw-j-sasl-negotiate-scheduler-to-rm-8030.jsonl");
  const auto s2c = ServerSaslFrames(conversation);
  ASSERT_EQ(s2c.size(), 1u);
  ClientNegotiation negotiation(nullptr, "unused-cnonce");
  EXPECT_FALSE(negotiation.OnServerMessage(ParseSasl(s2c[0].rest)).ok());
}

// cli-application-list/01 (SIMPLE), concretely: the context and the
// getApplications call of `yarn application -list`.
TEST(RequestFrameReplayTest, CliApplicationListFrames) {
  const Conversation conversation =
      MustLoad("cli-application-list", "01-cli-application-list-to-rm-8032.jsonl");
  const auto frames = ClientFrames(conversation);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(conversation.c2s.substr(0, 7), std::string("hrpc\x09\x00\x00", 7));
  const std::string client_id = frames[0].header.clientid();
  ASSERT_EQ(client_id.size(), 16u);
  EXPECT_EQ(Hex(ipc::EncodeConnectionContextFrame(
                client_id, "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB", "root",
                /*token_auth=*/false)),
            Hex(frames[0].wire));

  const auto call = AsProtobufCall(frames[1]);
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->method, "getApplications");
  EXPECT_EQ(call->call_id, 0);
  const auto* service = ServiceForProtocol(call->protocol);
  ASSERT_NE(service, nullptr);
  auto request = NewMessage(service->FindMethodByName("getApplications")->input_type());
  ASSERT_TRUE(request->ParseFromString(call->payload));
  EXPECT_EQ(Hex(ipc::EncodeCallFrame(0, client_id, 0, call->protocol, "getApplications", *request)),
            Hex(frames[1].wire));
}

// distributedshell/05 (TOKEN), concretely: the empty-userInfo context and
// registerApplicationMaster.
TEST(RequestFrameReplayTest, DistributedShellAmFrames) {
  const Conversation conversation = MustLoad("distributedshell", "05-ds-am-to-rm-8030.jsonl");
  const auto frames = ClientFrames(conversation);
  ASSERT_GE(frames.size(), 4u);
  EXPECT_EQ(conversation.c2s.substr(0, 7), std::string("hrpc\x09\x00\xdf", 7));
  ASSERT_EQ(frames[2].header.callid(), ipc::kConnectionContextCallId);
  const std::string client_id = frames[2].header.clientid();
  EXPECT_EQ(Hex(ipc::EncodeConnectionContextFrame(
                client_id, "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB", "ignored",
                /*token_auth=*/true)),
            Hex(frames[2].wire));

  const auto call = AsProtobufCall(frames[3]);
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->method, "registerApplicationMaster");
  const auto* service = ServiceForProtocol(call->protocol);
  ASSERT_NE(service, nullptr);
  auto request = NewMessage(service->FindMethodByName(call->method)->input_type());
  ASSERT_TRUE(request->ParseFromString(call->payload));
  EXPECT_EQ(Hex(ipc::EncodeCallFrame(call->call_id, client_id, 0, call->protocol, call->method,
                                     *request)),
            Hex(frames[3].wire));
}

class RequestFrameSweepTest : public ::testing::TestWithParam<std::string> {};

// Every client frame of Spindle's protocols, rebuilt with rpc_requests.h.
TEST_P(RequestFrameSweepTest, BuildersRebuildEveryClientFrame) {
  int rebuilt = 0;
  for (const auto& conversation : LoadScenario(GetParam())) {
    if (!conversation.c2s.starts_with(std::string("hrpc\x09", 5))) continue;
    if (!SplitConversation(conversation, Direction::kClientToServer).error.ok()) continue;
    SCOPED_TRACE(conversation.name());
    const bool token_auth = TokenExchangeFor(conversation.scenario, conversation.file).has_value();
    for (const auto& frame : ClientFrames(conversation)) {
      SCOPED_TRACE("c2s@" + std::to_string(frame.offset));
      const int32_t call_id = frame.header.callid();
      if (call_id == ipc::kSaslCallId) {
        EXPECT_EQ(Hex(ipc::EncodeSaslFrame(ParseSasl(frame.rest))), Hex(frame.wire));
        ++rebuilt;
      } else if (call_id == ipc::kConnectionContextCallId) {
        std::string_view in = frame.rest;
        hadoop::common::IpcConnectionContextProto context;
        ASSERT_TRUE(ipc::ReadDelimited(&in, &context).ok());
        EXPECT_EQ(context.userinfo().has_effectiveuser(), !token_auth);
        EXPECT_EQ(
            Hex(ipc::EncodeConnectionContextFrame(frame.header.clientid(), context.protocol(),
                                                  context.userinfo().effectiveuser(), token_auth)),
            Hex(frame.wire));
        ++rebuilt;
      } else if (auto call = AsProtobufCall(frame)) {
        const auto* service = ServiceForProtocol(call->protocol);
        if (service == nullptr) continue;  // MR/localizer, errors/07
        const auto* method = service->FindMethodByName(call->method);
        if (method == nullptr) continue;  // errors/06
        auto request = NewMessage(method->input_type());
        ASSERT_TRUE(request->ParseFromString(call->payload));
        EXPECT_EQ(frame.header.retrycount(), 0);
        EXPECT_EQ(
            Hex(ipc::EncodeCallFrame(call_id, frame.header.clientid(), frame.header.retrycount(),
                                     call->protocol, call->method, *request)),
            Hex(frame.wire))
            << call->method;
        ++rebuilt;
      }
    }
  }
  std::cout << "[ captures ] " << GetParam() << ": " << rebuilt
            << " client frames rebuilt byte-exact with rpc_requests.h\n";
  EXPECT_GT(rebuilt, 0);
}

INSTANTIATE_TEST_SUITE_P(Hadoop260, RequestFrameSweepTest, ::testing::ValuesIn(Scenarios()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return TestNameOf(p.param);
                         });

}  // namespace
}  // namespace spindle::captures
