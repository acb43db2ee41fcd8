// DIGEST-MD5 auth-int and auth-conf against the JDK: the negotiation and
// every wrapped byte must match what Java's own SASL client and server
// produced (testdata/digest_md5_jdk_vectors.txt says how it was made).
#include "wire/ipc/digest_md5_security_layer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <vector>

#include "base/crypto.h"
#include "wire/ipc/digest_md5.h"

namespace spindle::ipc {
namespace {

constexpr char kUser[] = "dXNlcg==";
constexpr char kPassword[] = "cGFzc3dvcmQ=";

struct WrapVector {
  std::string message;
  std::string wrapped;
};

struct JdkSession {
  SaslQops client_qops;
  SaslQops server_qops;
  std::string challenge;
  std::string response;
  std::string rspauth;
  std::vector<WrapVector> client_wraps;  // client -> server, in order
  std::vector<WrapVector> server_wraps;  // server -> client, in order
};

SaslQops Qops(const std::string& list) {
  SaslQops out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(',', start);
    const std::string name = list.substr(start, comma - start);
    out.push_back(*SaslQopFromName(name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

WrapVector ParseWrap(const std::string& value) {
  const size_t colon = value.find(':');
  WrapVector v;
  EXPECT_TRUE(HexDecode(value.substr(0, colon), &v.message));
  EXPECT_TRUE(HexDecode(value.substr(colon + 1), &v.wrapped));
  return v;
}

std::vector<JdkSession> LoadJdkSessions() {
  std::ifstream in(std::string(SPINDLE_SOURCE_DIR) +
                   "/tests/wire/ipc/testdata/digest_md5_jdk_vectors.txt");
  std::vector<JdkSession> sessions;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t eq = line.find('=');
    const std::string key = line.substr(0, eq);
    const std::string value = line.substr(eq + 1);
    if (key == "session") {
      const size_t slash = value.find('/');
      JdkSession session;
      session.client_qops = Qops(value.substr(0, slash));
      session.server_qops = Qops(value.substr(slash + 1));
      sessions.push_back(std::move(session));
      continue;
    }
    if (sessions.empty()) continue;
    JdkSession& s = sessions.back();
    if (key == "challenge") s.challenge = value;
    if (key == "response") s.response = value;
    if (key == "rspauth") s.rspauth = value;
    if (key.rfind("client_wrap", 0) == 0) s.client_wraps.push_back(ParseWrap(value));
    if (key.rfind("server_wrap", 0) == 0) s.server_wraps.push_back(ParseWrap(value));
  }
  return sessions;
}

std::string Directive(const std::string& text, const std::string& name) {
  auto d = ParseDigestDirectives(text);
  EXPECT_TRUE(d.ok());
  return d.ok() && d->count(name) ? d->at(name) : "";
}

Result<std::string> Lookup(std::string_view username) {
  if (username == kUser) return std::string(kPassword);
  return Status::Unauthorized("unknown user");
}

// Both ends of a session negotiated from the JDK's own messages.
struct Ends {
  std::unique_ptr<SaslSecurityLayer> server;
  std::unique_ptr<SaslSecurityLayer> client;
};

Ends Negotiate(const JdkSession& jdk) {
  Ends ends;
  DigestMd5Server server(Directive(jdk.challenge, "nonce"), jdk.server_qops);
  auto rspauth = server.EvaluateResponse(jdk.response, Lookup);
  EXPECT_TRUE(rspauth.ok()) << rspauth.status().ToString();
  if (rspauth.ok()) {
    EXPECT_EQ(*rspauth, jdk.rspauth);
  }
  ends.server = server.TakeSecurityLayer();

  DigestMd5Client client(kUser, kPassword, Directive(jdk.response, "cnonce"), jdk.client_qops);
  auto response = client.EvaluateChallenge(jdk.challenge);
  EXPECT_TRUE(response.ok()) << response.status().ToString();
  if (response.ok()) {
    EXPECT_EQ(*response, jdk.response);
  }
  EXPECT_TRUE(client.VerifyServerFinal(jdk.rspauth).ok());
  auto layer = client.TakeSecurityLayer();
  EXPECT_TRUE(layer.ok()) << layer.status().ToString();
  if (layer.ok()) ends.client = std::move(layer).value();
  return ends;
}

TEST(DigestMd5SecurityLayerTest, JdkVectorsAreThere) {
  const std::vector<JdkSession> sessions = LoadJdkSessions();
  ASSERT_EQ(sessions.size(), 3u);
  for (const JdkSession& s : sessions) {
    EXPECT_EQ(s.client_wraps.size(), 3u);
    EXPECT_EQ(s.server_wraps.size(), 3u);
  }
}

// The negotiation reproduces the JDK's response and rspauth byte for byte,
// and every wrap matches the JDK's (auth-int's MAC, auth-conf's 3DES-CBC
// chained across messages); each side unwraps the other's.
TEST(DigestMd5SecurityLayerTest, WrapsAndUnwrapsAsTheJdk) {
  for (const JdkSession& jdk : LoadJdkSessions()) {
    SCOPED_TRACE(jdk.challenge);
    Ends ends = Negotiate(jdk);
    ASSERT_NE(ends.server, nullptr);
    ASSERT_NE(ends.client, nullptr);
    EXPECT_EQ(ends.client->qop(), jdk.client_qops.front());
    for (const WrapVector& v : jdk.client_wraps) {
      auto wrapped = ends.client->Wrap(v.message);
      ASSERT_TRUE(wrapped.ok());
      EXPECT_EQ(HexEncode(*wrapped), HexEncode(v.wrapped));
      auto unwrapped = ends.server->Unwrap(v.wrapped);
      ASSERT_TRUE(unwrapped.ok()) << unwrapped.status().ToString();
      EXPECT_EQ(*unwrapped, v.message);
    }
    for (const WrapVector& v : jdk.server_wraps) {
      auto wrapped = ends.server->Wrap(v.message);
      ASSERT_TRUE(wrapped.ok());
      EXPECT_EQ(HexEncode(*wrapped), HexEncode(v.wrapped));
      auto unwrapped = ends.client->Unwrap(v.wrapped);
      ASSERT_TRUE(unwrapped.ok()) << unwrapped.status().ToString();
      EXPECT_EQ(*unwrapped, v.message);
    }
  }
}

// The challenge of an auth-int server is the JDK's, directive for directive.
TEST(DigestMd5SecurityLayerTest, AnIntegrityChallengeIsTheJdks) {
  const JdkSession jdk = LoadJdkSessions().at(0);
  DigestMd5Server server(Directive(jdk.challenge, "nonce"), {SaslQop::kAuthInt});
  EXPECT_EQ(server.Challenge(), jdk.challenge);
}

TEST(DigestMd5SecurityLayerTest, APrivacyChallengeOffers3Des) {
  DigestMd5Server server("n", {SaslQop::kAuth, SaslQop::kAuthConf});
  EXPECT_EQ(server.Challenge(),
            "realm=\"default\",nonce=\"n\",qop=\"auth,auth-conf\",charset=utf-8,cipher=\"3des\","
            "algorithm=md5-sess");
}

// Any change to a wrapped message, a replay or a reordering is refused.
TEST(DigestMd5SecurityLayerTest, TamperedReplayedAndReorderedMessagesAreRefused) {
  for (const JdkSession& jdk : LoadJdkSessions()) {
    SCOPED_TRACE(jdk.challenge);
    const std::string& first = jdk.client_wraps.at(0).wrapped;
    const std::string& second = jdk.client_wraps.at(1).wrapped;
    for (size_t i = 0; i < first.size(); ++i) {
      Ends ends = Negotiate(jdk);
      std::string tampered = first;
      tampered[i] = static_cast<char>(tampered[i] ^ 0x01);
      auto r = ends.server->Unwrap(tampered);
      EXPECT_TRUE(r.status().IsUnauthorized()) << "byte " << i;
    }
    {
      Ends ends = Negotiate(jdk);
      ASSERT_TRUE(ends.server->Unwrap(first).ok());
      auto replay = ends.server->Unwrap(first);
      EXPECT_TRUE(replay.status().IsUnauthorized());
    }
    {
      Ends ends = Negotiate(jdk);
      auto reordered = ends.server->Unwrap(second);
      EXPECT_TRUE(reordered.status().IsUnauthorized());
    }
    {
      Ends ends = Negotiate(jdk);
      EXPECT_TRUE(ends.server->Unwrap(first.substr(0, first.size() - 1)).status().IsUnauthorized());
      EXPECT_TRUE(ends.server->Unwrap("short").status().IsUnauthorized());
    }
  }
}

TEST(DigestMd5SecurityLayerTest, TheClientTakesTheFirstOfItsPreferencesTheServerOffers) {
  DigestMd5Server server("n", {SaslQop::kAuth, SaslQop::kAuthInt, SaslQop::kAuthConf});
  DigestMd5Client client(kUser, kPassword, "c", {SaslQop::kAuthInt, SaslQop::kAuthConf});
  auto response = client.EvaluateChallenge(server.Challenge());
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(client.negotiated_qop(), SaslQop::kAuthInt);
  auto rspauth = server.EvaluateResponse(*response, Lookup);
  ASSERT_TRUE(rspauth.ok()) << rspauth.status().ToString();
  EXPECT_EQ(server.negotiated_qop(), SaslQop::kAuthInt);
  EXPECT_TRUE(client.VerifyServerFinal(*rspauth).ok());
}

TEST(DigestMd5SecurityLayerTest, NoCommonProtectionIsRefused) {
  DigestMd5Server server("n", {SaslQop::kAuth});
  DigestMd5Client client(kUser, kPassword, "c", {SaslQop::kAuthConf});
  auto response = client.EvaluateChallenge(server.Challenge());
  EXPECT_FALSE(response.ok());
  EXPECT_NE(response.status().message().find("No common protection layer"), std::string::npos);
}

TEST(DigestMd5SecurityLayerTest, TheServerRefusesAQopOrCipherItDidNotOffer) {
  // A client claiming auth-conf from an auth-int server.
  DigestMd5Server int_server("n", {SaslQop::kAuthInt});
  DigestMd5Client greedy(kUser, kPassword, "c", {SaslQop::kAuthConf});
  auto response = greedy.EvaluateChallenge(
      "realm=\"default\",nonce=\"n\",qop=\"auth-conf\",charset=utf-8,cipher=\"3des\","
      "algorithm=md5-sess");
  ASSERT_TRUE(response.ok());
  auto refused = int_server.EvaluateResponse(*response, Lookup);
  EXPECT_TRUE(refused.status().IsUnauthorized());
  EXPECT_NE(refused.status().message().find("does not support"), std::string::npos);

  // A cipher the server did not offer.
  DigestMd5Server conf_server("n", {SaslQop::kAuthConf});
  std::string rc4 = *response;
  rc4.replace(rc4.find("cipher=\"3des\""), 13, "cipher=\"rc4\"");
  refused = conf_server.EvaluateResponse(rc4, Lookup);
  EXPECT_TRUE(refused.status().IsUnauthorized());
  EXPECT_NE(refused.status().message().find("cipher: rc4"), std::string::npos);
}

TEST(DigestMd5SecurityLayerTest, AClientWithout3DesInTheOfferRefuses) {
  DigestMd5Client client(kUser, kPassword, "c", {SaslQop::kAuthConf});
  auto response = client.EvaluateChallenge(
      "realm=\"default\",nonce=\"n\",qop=\"auth-conf\",charset=utf-8,cipher=\"rc4-40\","
      "algorithm=md5-sess");
  EXPECT_FALSE(response.ok());
  EXPECT_NE(response.status().message().find("none of these cipher suites"), std::string::npos);
}

TEST(DigestMd5SecurityLayerTest, MaxSendSizeIsThePeersBufferLessTheOverhead) {
  auto integrity = DigestMd5SecurityLayer::Create(std::string(16, 'k'), SaslQop::kAuthInt, "",
                                                  DigestMd5Side::kClient, 65536);
  ASSERT_TRUE(integrity.ok());
  EXPECT_EQ((*integrity)->max_send_size(), 65536u - 16);
  auto privacy = DigestMd5SecurityLayer::Create(std::string(16, 'k'), SaslQop::kAuthConf, "3des",
                                                DigestMd5Side::kClient, 1000);
  ASSERT_TRUE(privacy.ok());
  EXPECT_EQ((*privacy)->max_send_size(), 1000u - 26);
}

TEST(SaslQopTest, ParsesHadoopRpcProtection) {
  EXPECT_EQ(*ParseRpcProtection("authentication"), SaslQops{SaslQop::kAuth});
  EXPECT_EQ(*ParseRpcProtection(" Privacy , authentication"),
            (SaslQops{SaslQop::kAuthConf, SaslQop::kAuth}));
  EXPECT_EQ(*ParseRpcProtection("integrity,,integrity"), SaslQops{SaslQop::kAuthInt});
  EXPECT_EQ(*ParseRpcProtection(""), SaslQops{SaslQop::kAuth});
  auto bad = ParseRpcProtection("authentication,secret");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("QualityOfProtection.SECRET"), std::string::npos);
}

}  // namespace
}  // namespace spindle::ipc
