#include "wire/ipc/digest_md5.h"

#include <gtest/gtest.h>

namespace spindle::ipc {
namespace {

TEST(DigestMd5Test, Rfc2831Section4Example) {
  // RFC 2831 section 4: md5-sess, qop=auth.
  EXPECT_EQ(ComputeDigestResponse("chris", "elwood.innosoft.com", "secret", "OA6MG9tEQGm2hh",
                                  "OA6MHXh6VqTrRk", "00000001", "auth", "imap/elwood.innosoft.com",
                                  "AUTHENTICATE"),
            "d388dad90d4bbd760a152321f2143af7");
  EXPECT_EQ(
      ComputeDigestResponse("chris", "elwood.innosoft.com", "secret", "OA6MG9tEQGm2hh",
                            "OA6MHXh6VqTrRk", "00000001", "auth", "imap/elwood.innosoft.com", ""),
      "ea40f60335c427b5527b84dbabcdfffd");
}

TEST(DigestMd5Test, ParsesQuotedEscapedAndTokenValues) {
  auto d = ParseDigestDirectives(
      R"(realm="default",nonce="a\"b\\c",qop="auth,auth-int", charset=utf-8 ,algorithm=md5-sess)");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->at("realm"), "default");
  EXPECT_EQ(d->at("nonce"), "a\"b\\c");
  EXPECT_EQ(d->at("qop"), "auth,auth-int");
  EXPECT_EQ(d->at("charset"), "utf-8");
  EXPECT_EQ(d->at("algorithm"), "md5-sess");
}

TEST(DigestMd5Test, ParserRejectsMalformedDirectives) {
  EXPECT_FALSE(ParseDigestDirectives(R"(realm="unterminated)").ok());
  EXPECT_FALSE(ParseDigestDirectives("novalue").ok());
  EXPECT_FALSE(ParseDigestDirectives("a=1,a=2").ok());
  EXPECT_FALSE(ParseDigestDirectives(R"(a="x"y)").ok());
  EXPECT_TRUE(ParseDigestDirectives("").ok());
}

Result<std::string> Lookup(std::string_view username) {
  if (username == "dXNlcg==") return std::string("cGFzcw==");
  return Status::Unauthorized("unknown token");
}

TEST(DigestMd5Test, ClientAndServerAgree) {
  DigestMd5Server server("NONCE123");
  DigestMd5Client client("dXNlcg==", "cGFzcw==", "CNONCE456");
  auto response = client.EvaluateChallenge(server.Challenge());
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  auto rspauth = server.EvaluateResponse(*response, Lookup);
  ASSERT_TRUE(rspauth.ok()) << rspauth.status().ToString();
  EXPECT_TRUE(server.complete());
  EXPECT_EQ(server.username(), "dXNlcg==");
  EXPECT_TRUE(client.VerifyServerFinal(*rspauth).ok());
  EXPECT_FALSE(client.VerifyServerFinal("rspauth=00000000000000000000000000000000").ok());
  // A completed server refuses a replay.
  EXPECT_FALSE(server.EvaluateResponse(*response, Lookup).ok());
}

TEST(DigestMd5Test, ServerRejectsWrongPasswordAndTampering) {
  DigestMd5Server server("NONCE123");
  DigestMd5Client wrong("dXNlcg==", "d3Jvbmc=", "C");
  auto response = wrong.EvaluateChallenge(server.Challenge());
  ASSERT_TRUE(response.ok());
  auto result = server.EvaluateResponse(*response, Lookup);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), Status::Code::kUnauthorized);
  EXPECT_FALSE(server.complete());

  DigestMd5Client good("dXNlcg==", "cGFzcw==", "C");
  const std::string ok = *good.EvaluateChallenge(server.Challenge());
  auto replace = [&ok](const std::string& from, const std::string& to) {
    std::string s = ok;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  EXPECT_FALSE(server.EvaluateResponse(replace("NONCE123", "OTHER"), Lookup).ok());
  EXPECT_FALSE(server.EvaluateResponse(replace("nc=00000001", "nc=00000002"), Lookup).ok());
  EXPECT_FALSE(server.EvaluateResponse(replace("/default", "/other"), Lookup).ok());
  EXPECT_FALSE(server.EvaluateResponse(replace("realm=\"default\"", "realm=\"x\""), Lookup).ok());
  EXPECT_FALSE(server.EvaluateResponse(replace("qop=auth", "qop=auth-conf"), Lookup).ok());
  EXPECT_FALSE(server.EvaluateResponse(replace("dXNlcg==", "b3RoZXI="), Lookup).ok());
  EXPECT_FALSE(server.EvaluateResponse("garbage", Lookup).ok());
  EXPECT_TRUE(server.EvaluateResponse(ok, Lookup).ok());
}

TEST(DigestMd5Test, ClientRefusesChallengesItCannotAnswer) {
  DigestMd5Client client("u", "p", "c");
  EXPECT_FALSE(client.EvaluateChallenge("realm=\"default\",qop=\"auth\"").ok());  // no nonce
  EXPECT_FALSE(client.EvaluateChallenge("nonce=\"n\",qop=\"auth-conf\",algorithm=md5-sess").ok());
  EXPECT_FALSE(client.EvaluateChallenge("nonce=\"n\",qop=\"auth\"").ok());  // no algorithm
  EXPECT_TRUE(
      client.EvaluateChallenge("nonce=\"n\",qop=\"auth-int,auth\",algorithm=md5-sess").ok());
}

}  // namespace
}  // namespace spindle::ipc
