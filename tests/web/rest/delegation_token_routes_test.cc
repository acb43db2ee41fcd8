// The RM's delegation-token REST endpoints (Hadoop 3.3's RMWebServices) over
// a real RM core: who may get, renew and cancel, the DelegationToken
// document, and the answers to bad input; and the verification the web
// filter's ?delegation= authentication uses.
#include "web/rest/delegation_token_routes.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "rm/security/credentials.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "rm/security/token_identifiers.h"
#include "tests/web/rest/write_routes_fixture.h"
#include "web/rest/delegation_token_verifier.h"

namespace spindle::web::rest {
namespace {

constexpr int64_t kDay = 86'400'000;

class DelegationTokenRoutesTest : public ::testing::Test {
 protected:
  DelegationTokenRoutesTest() : rm_(WriteRoutesOptions()) {
    DelegationTokenRouteDeps deps;
    deps.core = &rm_.core();
    deps.security_enabled = true;
    // auth_to_local as a cluster might write it: yarn's service principals
    // are "yarn", rm/... is "yarn" too, nothing else of another realm maps.
    deps.short_name = [](const std::string& principal) -> Result<std::string> {
      if (principal.rfind("rm/", 0) == 0) return std::string("yarn");
      if (principal.find("@ELSEWHERE") != std::string::npos) {
        return Status::Unauthorized("No rules applied to " + principal);
      }
      return rm::RmDelegationTokenSecretManager::ShortName(principal);
    };
    AddDelegationTokenRoutes(&router_, deps);
  }

  // A request as the filter chain hands it on: SPNEGO-authenticated
  // `principal` behind the RM's filter unless told otherwise.
  HttpRequest Request(HttpMethod method, const std::string& path,
                      const std::string& principal = "alice@EXAMPLE.COM",
                      const std::string& auth_type = "KERBEROS") {
    HttpRequest request;
    request.method = method;
    request.path = path;
    request.remote_address = "127.0.0.1";
    request.headers = {{"Host", "rm.example:8088"}, {"Content-Type", "application/json"}};
    request.remote_user = principal.substr(0, principal.find('@'));
    request.user_principal = principal;
    request.auth_type = auth_type;
    return request;
  }
  HttpResponse Create(const std::string& renewer = "yarn",
                      const std::string& principal = "alice@EXAMPLE.COM") {
    HttpRequest request = Request(HttpMethod::kPost, "/ws/v1/cluster/delegation-token", principal);
    request.body = R"({"renewer":")" + renewer + R"("})";
    return router_.Dispatch(request);
  }
  HttpResponse WithToken(HttpMethod method, const std::string& path, const std::string& token,
                         const std::string& principal) {
    HttpRequest request = Request(method, path, principal);
    request.headers.emplace_back(kRmDelegationTokenHeader, token);
    return router_.Dispatch(request);
  }
  HttpResponse Renew(const std::string& token, const std::string& principal) {
    return WithToken(HttpMethod::kPost, "/ws/v1/cluster/delegation-token/expiration", token,
                     principal);
  }
  HttpResponse Cancel(const std::string& token, const std::string& principal) {
    return WithToken(HttpMethod::kDelete, "/ws/v1/cluster/delegation-token", token, principal);
  }
  std::string TokenOf(const HttpResponse& created) {
    const json::JsonValue body = Json(created.body);
    return body.Find("token") != nullptr ? body.Find("token")->text() : "";
  }

  RmHarness rm_;
  Router router_;
};

TEST_F(DelegationTokenRoutesTest, AKerberosCallerGetsATokenOwnedByItsPrincipal) {
  const int64_t now = rm_.clock().WallMillis();
  HttpResponse created = Create("yarn");
  ASSERT_EQ(created.status, 200) << created.body;
  EXPECT_EQ(created.content_type.rfind("application/json", 0), 0u) << created.content_type;
  const json::JsonValue body = Json(created.body);
  // DelegationToken's fields in declaration order, the root unwrapped.
  ASSERT_EQ(body.members().size(), 6u) << created.body;
  EXPECT_EQ(body.members()[0].key, "token");
  EXPECT_EQ(body.Find("renewer")->text(), "yarn");
  EXPECT_EQ(body.Find("owner")->text(), "alice@EXAMPLE.COM");
  EXPECT_EQ(body.Find("kind")->text(), "RM_DELEGATION_TOKEN");
  EXPECT_EQ(body.Find("expiration-time")->AsInt64(), now + kDay);
  EXPECT_EQ(body.Find("max-validity")->AsInt64(), now + 7 * kDay);
  // The token is Token.encodeToUrlString: URL-safe Base64 of the Writable.
  const std::string encoded = body.Find("token")->text();
  EXPECT_EQ(encoded.find_first_of("+/="), std::string::npos) << encoded;
  Result<rm::Token> token = rm::DecodeTokenUrlString(encoded);
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  EXPECT_EQ(rm::EncodeTokenUrlString(*token), encoded);
  Result<rm::RmDelegationTokenIdentifier> id =
      rm::DecodeRmDelegationTokenIdentifier(token->identifier);
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(id->owner, "alice@EXAMPLE.COM");
  EXPECT_EQ(id->renewer, "yarn");
  EXPECT_EQ(id->real_user, "");
  // The filter's verification names the owner.
  Result<std::string> owner = VerifyDelegationTokenUrlString(rm_.core(), encoded);
  ASSERT_TRUE(owner.ok()) << owner.status().ToString();
  EXPECT_EQ(*owner, "alice@EXAMPLE.COM");

  // XML: <delegation-token> with the same fields.
  HttpRequest xml = Request(HttpMethod::kPost, "/ws/v1/cluster/delegation-token");
  xml.headers = {{"Content-Type", "application/xml"}, {"Accept", "application/xml"}};
  xml.body = "<delegation-token><renewer>yarn</renewer></delegation-token>";
  HttpResponse as_xml = router_.Dispatch(xml);
  ASSERT_EQ(as_xml.status, 200) << as_xml.body;
  EXPECT_NE(as_xml.body.find("<delegation-token><token>"), std::string::npos) << as_xml.body;
  EXPECT_NE(as_xml.body.find("<owner>alice@EXAMPLE.COM</owner><kind>RM_DELEGATION_TOKEN</kind>"),
            std::string::npos)
      << as_xml.body;
}

TEST_F(DelegationTokenRoutesTest, TheRenewerRenewsAndTheOwnerCancels) {
  const std::string token = TokenOf(Create("yarn"));
  ASSERT_FALSE(token.empty());
  rm_.clock().Advance(std::chrono::hours(1));
  // Renew runs as the caller's short name: only the renewer.
  HttpResponse refused = Renew(token, "alice@EXAMPLE.COM");
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.body, "alice tries to renew a token with renewer yarn");
  HttpResponse renewed = Renew(token, "yarn/rm.example@EXAMPLE.COM");
  ASSERT_EQ(renewed.status, 200) << renewed.body;
  EXPECT_EQ(renewed.body,
            "{\"expiration-time\":" + std::to_string(rm_.clock().WallMillis() + kDay) + "}");
  // The short name comes from auth_to_local (getShortUserName), not from
  // the principal's first component: rm/... is "yarn" here.
  rm_.clock().Advance(std::chrono::minutes(1));
  HttpRequest as_rm = Request(HttpMethod::kPost, "/ws/v1/cluster/delegation-token/expiration",
                              "rm/rm.example@EXAMPLE.COM");
  as_rm.headers = {{"Accept", "application/xml"}, {kRmDelegationTokenHeader, token}};
  HttpResponse renewed_xml = router_.Dispatch(as_rm);
  ASSERT_EQ(renewed_xml.status, 200) << renewed_xml.body;
  EXPECT_NE(renewed_xml.body.find("<delegation-token><expiration-time>" +
                                  std::to_string(rm_.clock().WallMillis() + kDay) +
                                  "</expiration-time></delegation-token>"),
            std::string::npos)
      << renewed_xml.body;
  // A principal auth_to_local cannot map renews nothing.
  HttpResponse unmapped = Renew(token, "yarn@ELSEWHERE");
  EXPECT_EQ(unmapped.status, 400);
  EXPECT_NE(unmapped.body.find("\"exception\":\"IllegalArgumentException\""), std::string::npos)
      << unmapped.body;
  EXPECT_NE(unmapped.body.find("Illegal principal name yarn@ELSEWHERE: No rules applied to "
                               "yarn@ELSEWHERE"),
            std::string::npos)
      << unmapped.body;

  // Cancel runs as the full name: another user is refused, the owner not.
  HttpResponse stranger = Cancel(token, "mallory@EXAMPLE.COM");
  EXPECT_EQ(stranger.status, 403);
  EXPECT_EQ(stranger.body, "mallory@EXAMPLE.COM is not authorized to cancel the token");
  HttpResponse cancelled = Cancel(token, "alice@EXAMPLE.COM");
  EXPECT_EQ(cancelled.status, 200) << cancelled.body;
  EXPECT_EQ(cancelled.body, "");
  // Gone: InvalidToken is a 400 BadRequestException.
  HttpResponse again = Renew(token, "yarn/rm.example@EXAMPLE.COM");
  EXPECT_EQ(again.status, 400);
  EXPECT_NE(again.body.find("\"exception\":\"BadRequestException\""), std::string::npos)
      << again.body;
  EXPECT_NE(again.body.find("Renewal request for unknown token"), std::string::npos) << again.body;
  Result<std::string> owner = VerifyDelegationTokenUrlString(rm_.core(), token);
  ASSERT_FALSE(owner.ok());
  EXPECT_EQ(owner.status().java_class(), rm::kInvalidTokenClass);
  EXPECT_NE(owner.status().message().find("can't be found in cache"), std::string::npos);
}

TEST_F(DelegationTokenRoutesTest, OnlyKerberosCallersWithoutATokenMayUseTheEndpoints) {
  // Who is refused, in Java's order: nobody
  // authenticated, the static user (security on), ?user.name= (simple
  // authentication).
  struct Refusal {
    std::string principal;
    std::string auth_type;
    int status;
    std::string body;
  };
  const std::vector<Refusal> refusals = {
      {"", "", 401, "Unable to obtain user name, user not authenticated"},
      {"dr.who", "", 403, "The default static user cannot carry out this operation."},
      {"alice", "SIMPLE", 403,
       "Delegation token operations can only be carried out on a Kerberos authenticated "
       "channel. Expected auth type is kerberos, got type SIMPLE"},
  };
  for (const Refusal& refusal : refusals) {
    HttpRequest request = Request(HttpMethod::kPost, "/ws/v1/cluster/delegation-token",
                                  refusal.principal, refusal.auth_type);
    request.body = R"({"renewer":"yarn"})";
    HttpResponse refused = router_.Dispatch(request);
    EXPECT_EQ(refused.status, refusal.status) << refusal.principal;
    EXPECT_NE(refused.body.find(refusal.body), std::string::npos) << refused.body;
  }
  // The Kerberos refusal is the text itself (a String entity).
  HttpRequest simple =
      Request(HttpMethod::kPost, "/ws/v1/cluster/delegation-token", "alice", "SIMPLE");
  simple.body = R"({"renewer":"yarn"})";
  EXPECT_EQ(router_.Dispatch(simple).body, refusals.back().body);
  // The 401 and 403 of exceptions are RemoteException documents.
  HttpRequest anonymous = Request(HttpMethod::kPost, "/ws/v1/cluster/delegation-token", "", "");
  anonymous.body = R"({"renewer":"yarn"})";
  EXPECT_NE(
      router_.Dispatch(anonymous).body.find(
          "\"javaClassName\":\"org.apache.hadoop.security.authorize.AuthorizationException\""),
      std::string::npos);
  // Authenticated by a delegation token: no new tokens from it, no renewal,
  // no cancel.
  const std::string token = TokenOf(Create("yarn"));
  const std::vector<std::pair<HttpMethod, std::string>> operations = {
      {HttpMethod::kPost, "/ws/v1/cluster/delegation-token"},
      {HttpMethod::kPost, "/ws/v1/cluster/delegation-token/expiration"},
      {HttpMethod::kDelete, "/ws/v1/cluster/delegation-token"}};
  for (const auto& [method, path] : operations) {
    HttpRequest by_token = Request(method, path);
    by_token.by_delegation_token = true;
    by_token.body = R"({"renewer":"yarn"})";
    by_token.headers.emplace_back(kRmDelegationTokenHeader, token);
    HttpResponse refused = router_.Dispatch(by_token);
    EXPECT_EQ(refused.status, 403);
    EXPECT_EQ(refused.body,
              "Delegation token operations cannot be carried out using delegation token "
              "authentication.");
  }
  EXPECT_TRUE(VerifyDelegationTokenUrlString(rm_.core(), token).ok());
}

TEST_F(DelegationTokenRoutesTest, BadInputGetsHadoopsAnswers) {
  HttpResponse no_header =
      router_.Dispatch(Request(HttpMethod::kPost, "/ws/v1/cluster/delegation-token/expiration"));
  EXPECT_EQ(no_header.status, 400);
  EXPECT_NE(no_header.body.find(
                "Header 'Hadoop-YARN-RM-Delegation-Token' containing encoded token not found"),
            std::string::npos)
      << no_header.body;
  HttpResponse garbage = Cancel("!!not a token!!", "alice@EXAMPLE.COM");
  EXPECT_EQ(garbage.status, 400);
  EXPECT_NE(garbage.body.find("Could not decode encoded token"), std::string::npos) << garbage.body;
  HttpResponse no_renewer = Create("");
  EXPECT_EQ(no_renewer.status, 200) << no_renewer.body;  // "" is a renewer (nobody renews)
  HttpRequest missing = Request(HttpMethod::kPost, "/ws/v1/cluster/delegation-token");
  missing.body = "{}";
  HttpResponse refused = router_.Dispatch(missing);
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find("The renewer of the delegation token is missing"), std::string::npos)
      << refused.body;

  // A token whose password was changed does not verify.
  Result<rm::Token> token = rm::DecodeTokenUrlString(TokenOf(Create("yarn")));
  ASSERT_TRUE(token.ok());
  token->password[0] ^= 1;
  Result<std::string> forged =
      VerifyDelegationTokenUrlString(rm_.core(), rm::EncodeTokenUrlString(*token));
  ASSERT_FALSE(forged.ok());
  EXPECT_EQ(forged.status().java_class(), rm::kInvalidTokenClass);
  EXPECT_NE(forged.status().message().find("is invalid, password doesn't match"), std::string::npos)
      << forged.status().message();
  EXPECT_EQ(VerifyDelegationTokenUrlString(rm_.core(), "%%%").status().java_class(),
            "java.io.IOException");
}

}  // namespace
}  // namespace spindle::web::rest
