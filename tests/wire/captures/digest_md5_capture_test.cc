// Golden test 2: SASL DIGEST-MD5 (wire/ipc/digest_md5.h) against every
// TOKEN exchange Hadoop 2.6.0 performed in the captures (AMRM tokens on 8030,
// NM tokens on 45454, job tokens on the MR AM's umbilical port), with the
// token identifier/password recorded in each scenario's secrets.json, plus the
// RFC 2831 section 4 example.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "base/base64.h"
#include "tests/wire/captures/capture_corpus.h"
#include "wire/ipc/digest_md5.h"

namespace spindle::captures {
namespace {

using ipc::ComputeDigestResponse;
using ipc::DigestMd5Client;
using ipc::DigestMd5Server;
using ipc::ParseDigestDirectives;

// One captured TOKEN/DIGEST-MD5 handshake.
struct DigestCase {
  std::string name;          // scenario/file
  std::string identifier;    // raw token identifier
  std::string password;      // raw token password
  std::string challenge;     // server NEGOTIATE, TOKEN auth's challenge
  std::string response;      // client INITIATE token
  std::string server_final;  // server SUCCESS token ("rspauth=...")
};

std::vector<DigestCase> LoadDigestCases() {
  std::vector<DigestCase> out;
  for (const auto& scenario : Scenarios()) {
    auto exchanges = LoadSaslExchanges(scenario);
    CHECK(exchanges.ok()) << exchanges.status().ToString();
    for (const auto& exchange : *exchanges) {
      if (!exchange.has_token()) continue;
      DigestCase c;
      c.name = scenario + "/" + exchange.file;
      c.identifier = exchange.token_identifier;
      c.password = exchange.token_password;
      const auto* negotiate = exchange.Find(Direction::kServerToClient, "NEGOTIATE");
      const auto* initiate = exchange.Find(Direction::kClientToServer, "INITIATE");
      const auto* success = exchange.Find(Direction::kServerToClient, "SUCCESS");
      CHECK(negotiate != nullptr && initiate != nullptr && success != nullptr) << c.name;
      for (const auto& auth : negotiate->auths) {
        if (auth.method == "TOKEN") c.challenge = auth.challenge;
      }
      c.response = initiate->token.value_or("");
      c.server_final = success->token.value_or("");
      out.push_back(std::move(c));
    }
  }
  return out;
}

const std::vector<DigestCase>& DigestCases() {
  static const std::vector<DigestCase> cases = LoadDigestCases();
  return cases;
}

// 9 handshakes in distributedshell, 12 in mapreduce-pi (secrets.json).
constexpr size_t kCapturedTokenHandshakes = 21;

std::map<std::string, std::string> MustParse(std::string_view text) {
  auto parsed = ParseDigestDirectives(text);
  CHECK(parsed.ok()) << parsed.status().ToString() << " in " << text;
  return *parsed;
}

// The RFC 2831 section 4 digest vector lives in tests/wire/ipc/digest_md5_test.cc.
TEST(DigestMd5CaptureTest, Rfc2831Section4ExampleDirectivesParse) {
  // The RFC's challenge and response, whitespace and line breaks removed.
  auto challenge = ParseDigestDirectives(
      "realm=\"elwood.innosoft.com\",nonce=\"OA6MG9tEQGm2hh\",qop=\"auth\",algorithm=md5-sess,"
      "charset=utf-8");
  ASSERT_TRUE(challenge.ok()) << challenge.status().ToString();
  EXPECT_EQ(challenge->at("realm"), "elwood.innosoft.com");
  EXPECT_EQ(challenge->at("nonce"), "OA6MG9tEQGm2hh");
  auto response = ParseDigestDirectives(
      "charset=utf-8,username=\"chris\",realm=\"elwood.innosoft.com\",nonce=\"OA6MG9tEQGm2hh\","
      "nc=00000001,cnonce=\"OA6MHXh6VqTrRk\",digest-uri=\"imap/elwood.innosoft.com\","
      "response=d388dad90d4bbd760a152321f2143af7,qop=auth");
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->at("digest-uri"), "imap/elwood.innosoft.com");
  EXPECT_EQ(response->at("response"), "d388dad90d4bbd760a152321f2143af7");
}

TEST(DigestMd5CaptureTest, CorpusHasEveryTokenHandshake) {
  ASSERT_EQ(DigestCases().size(), kCapturedTokenHandshakes);
  for (const auto& c : DigestCases()) {
    SCOPED_TRACE(c.name);
    EXPECT_FALSE(c.identifier.empty());
    EXPECT_EQ(c.password.size(), 20u);  // HMAC-SHA1
    EXPECT_FALSE(c.challenge.empty());
    EXPECT_FALSE(c.response.empty());
    EXPECT_TRUE(c.server_final.starts_with("rspauth="));
  }
}

// ParseDigestDirectives reads every challenge, response and rspauth Hadoop sent.
TEST(DigestMd5CaptureTest, ParsesEveryCapturedDirectiveList) {
  int challenges = 0;
  int responses = 0;
  int finals = 0;
  for (const auto& scenario : Scenarios()) {
    auto exchanges = LoadSaslExchanges(scenario);
    ASSERT_TRUE(exchanges.ok()) << exchanges.status().ToString();
    for (const auto& exchange : *exchanges) {
      SCOPED_TRACE(scenario + "/" + exchange.file);
      for (const auto& step : exchange.steps) {
        for (const auto& auth : step.auths) {
          if (auth.challenge.empty()) continue;
          auto d = ParseDigestDirectives(auth.challenge);
          ASSERT_TRUE(d.ok()) << d.status().ToString() << ": " << auth.challenge;
          EXPECT_EQ(d->size(), 5u) << auth.challenge;
          EXPECT_EQ(d->at("realm"), "default");
          EXPECT_EQ(d->at("nonce").size(), 40u);
          EXPECT_EQ(d->at("qop"), "auth");
          EXPECT_EQ(d->at("charset"), "utf-8");
          EXPECT_EQ(d->at("algorithm"), "md5-sess");
          ++challenges;
        }
        if (step.state == "INITIATE" && step.token) {
          auto d = ParseDigestDirectives(*step.token);
          ASSERT_TRUE(d.ok()) << d.status().ToString() << ": " << *step.token;
          EXPECT_EQ(d->size(), 10u) << *step.token;
          EXPECT_EQ(d->at("charset"), "utf-8");
          EXPECT_EQ(d->at("username"), Base64Encode(exchange.token_identifier));
          EXPECT_EQ(d->at("realm"), "default");
          EXPECT_EQ(d->at("nc"), "00000001");
          EXPECT_EQ(d->at("cnonce").size(), 40u);
          EXPECT_EQ(d->at("digest-uri"), "/default");
          EXPECT_EQ(d->at("maxbuf"), "65536");
          EXPECT_EQ(d->at("response").size(), 32u);
          EXPECT_EQ(d->at("qop"), "auth");
          ++responses;
        }
        if (step.state == "SUCCESS" && step.token) {
          auto d = ParseDigestDirectives(*step.token);
          ASSERT_TRUE(d.ok()) << d.status().ToString() << ": " << *step.token;
          ASSERT_EQ(d->size(), 1u);
          EXPECT_EQ(d->at("rspauth").size(), 32u);
          ++finals;
        }
      }
    }
  }
  // 21 token handshakes plus the TOKEN offers of errors/08 and errors/12.
  EXPECT_EQ(challenges, 23);
  EXPECT_EQ(responses, 21);
  EXPECT_EQ(finals, 21);
}

TEST(DigestMd5CaptureTest, ComputeDigestResponseMatchesEveryCapturedExchange) {
  for (const auto& c : DigestCases()) {
    SCOPED_TRACE(c.name);
    const auto challenge = MustParse(c.challenge);
    const auto response = MustParse(c.response);
    const std::string username = Base64Encode(c.identifier);
    const std::string password = Base64Encode(c.password);
    ASSERT_EQ(response.at("username"), username);
    ASSERT_EQ(response.at("nonce"), challenge.at("nonce"));
    EXPECT_EQ(ComputeDigestResponse(username, response.at("realm"), password, response.at("nonce"),
                                    response.at("cnonce"), response.at("nc"), response.at("qop"),
                                    response.at("digest-uri"), "AUTHENTICATE"),
              response.at("response"));
    EXPECT_EQ("rspauth=" + ComputeDigestResponse(username, response.at("realm"), password,
                                                 response.at("nonce"), response.at("cnonce"),
                                                 response.at("nc"), response.at("qop"),
                                                 response.at("digest-uri"), ""),
              c.server_final);
    // The password is the Base64 text, not the raw bytes.
    EXPECT_NE(ComputeDigestResponse(username, response.at("realm"), c.password,
                                    response.at("nonce"), response.at("cnonce"), response.at("nc"),
                                    response.at("qop"), response.at("digest-uri"), "AUTHENTICATE"),
              response.at("response"));
  }
}

// DigestMd5Client with the captured cnonce writes the JDK client's response,
// byte for byte (directive order included), and accepts the server's rspauth.
TEST(DigestMd5CaptureTest, ClientReproducesEveryCapturedResponse) {
  for (const auto& c : DigestCases()) {
    SCOPED_TRACE(c.name);
    const std::string cnonce = MustParse(c.response).at("cnonce");
    DigestMd5Client client(Base64Encode(c.identifier), Base64Encode(c.password), cnonce);
    auto response = client.EvaluateChallenge(c.challenge);
    ASSERT_TRUE(response.ok()) << response.status().ToString();
    EXPECT_EQ(*response, c.response);
    EXPECT_TRUE(client.VerifyServerFinal(c.server_final).ok());

    std::string forged = c.server_final;
    forged.back() = forged.back() == '0' ? '1' : '0';
    EXPECT_FALSE(client.VerifyServerFinal(forged).ok());
  }
}

// DigestMd5Server with the captured nonce issues the JDK server's challenge
// byte for byte, verifies the captured response and answers the captured rspauth.
TEST(DigestMd5CaptureTest, ServerReproducesEveryCapturedChallengeAndRspauth) {
  for (const auto& c : DigestCases()) {
    SCOPED_TRACE(c.name);
    const std::string nonce = MustParse(c.challenge).at("nonce");
    const std::string username = Base64Encode(c.identifier);
    DigestMd5Server server(nonce);
    EXPECT_EQ(server.Challenge(), c.challenge);
    std::vector<std::string> looked_up;
    auto final_message =
        server.EvaluateResponse(c.response, [&](std::string_view user) -> Result<std::string> {
          looked_up.emplace_back(user);
          if (user != username) return Status::Unauthorized("unknown token");
          return Base64Encode(c.password);
        });
    ASSERT_TRUE(final_message.ok()) << final_message.status().ToString();
    EXPECT_EQ(*final_message, c.server_final);
    EXPECT_TRUE(server.complete());
    EXPECT_EQ(server.username(), username);
    EXPECT_EQ(looked_up, std::vector<std::string>{username});
  }
}

TEST(DigestMd5CaptureTest, ServerRejectsCapturedResponseWithWrongPasswordOrNonce) {
  ASSERT_FALSE(DigestCases().empty());
  const DigestCase& c = DigestCases().front();
  const std::string nonce = MustParse(c.challenge).at("nonce");
  auto wrong_password = [&](std::string_view) -> Result<std::string> {
    std::string password = c.password;
    password[0] = static_cast<char>(password[0] ^ 1);
    return Base64Encode(password);
  };
  DigestMd5Server server(nonce);
  EXPECT_FALSE(server.EvaluateResponse(c.response, wrong_password).ok());
  EXPECT_FALSE(server.complete());

  auto right_password = [&](std::string_view) -> Result<std::string> {
    return Base64Encode(c.password);
  };
  DigestMd5Server other_nonce("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  EXPECT_FALSE(other_nonce.EvaluateResponse(c.response, right_password).ok());
}

}  // namespace
}  // namespace spindle::captures
