// REST calls authenticated by an RM delegation token: the RM's web filter
// (web/auth, rule 5) with the verifier RmWebApp wires to it
// (VerifyDelegationTokenUrlString over the RM core's secret manager), as
// Hadoop 3.3's RMAuthenticationFilter runs DelegationTokenAuthenticationHandler
// over the RM's RMDelegationTokenSecretManager. A live token authenticates
// its owner; an expired, cancelled, forged or undecodable one is the 403
// AuthenticationException JSON and the request goes no further.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rm/security/credentials.h"
#include "rm/security/token_identifiers.h"
#include "security/auth_to_local.h"
#include "tests/web/rest/write_routes_fixture.h"
#include "web/auth/web_filter_chain.h"
#include "web/rest/delegation_token_operations.h"
#include "web/rest/delegation_token_verifier.h"

namespace spindle::web::rest {
namespace {

class DelegationTokenAuthTest : public ::testing::Test {
 protected:
  DelegationTokenAuthTest() : rm_(WriteRoutesOptions()) {
    auth::HttpAuthOptions options;
    options.filter = auth::AuthFilterKind::kResourceManager;
    options.anonymous_allowed = false;
    auth::AuthenticationFilterDeps deps;
    deps.clock = &rm_.clock();
    deps.auth_to_local =
        *security::AuthToLocal::Parse("DEFAULT", security::RuleMechanism::kHadoop, "EXAMPLE.COM");
    deps.verify_delegation_token = [core = &rm_.core()](std::string_view url_string) {
      return VerifyDelegationTokenUrlString(*core, url_string);
    };
    // The ?op= management calls, wired as RmWebApp wires them.
    deps.token_operations = FilterTokenOperations(&rm_.core());
    Result<std::unique_ptr<auth::WebFilterChain>> chain =
        auth::WebFilterChain::Create(std::move(options), std::move(deps));
    EXPECT_TRUE(chain.ok()) << chain.status().ToString();
    chain_ = std::move(chain).value();
  }

  // A token issued to alice@EXAMPLE.COM, as Token.encodeToUrlString.
  std::string Issue() {
    Result<rm::Token> token = rm_.core().CreateDelegationToken("alice@EXAMPLE.COM", "yarn", "");
    EXPECT_TRUE(token.ok()) << token.status().ToString();
    return token.ok() ? rm::EncodeTokenUrlString(*token) : "";
  }

  // GET /ws/v1/cluster/info with `query` and `headers` through the filter;
  // the handler records what it saw.
  HttpResponse Get(std::vector<std::pair<std::string, std::string>> query,
                   std::vector<std::pair<std::string, std::string>> headers = {},
                   HttpMethod method = HttpMethod::kGet) {
    HttpRequest request;
    request.method = method;
    request.path = "/ws/v1/cluster/info";
    request.remote_address = "127.0.0.1";
    request.query = std::move(query);
    request.headers = std::move(headers);
    seen_.reset();
    return chain_->Handle(request, [this](const HttpRequest& passed) {
      seen_ = passed;
      return HttpResponse::Text(200, "ok");
    });
  }

  // The message of the AuthenticationException JSON a refusal carries.
  static void ExpectRefused(const HttpResponse& response, const std::string& cause) {
    EXPECT_EQ(response.status, 403) << response.body;
    EXPECT_EQ(response.content_type.rfind("application/json", 0), 0u) << response.content_type;
    EXPECT_EQ(response.body.rfind("{\"RemoteException\":{\"message\":\"" + cause, 0), 0u)
        << response.body;
    EXPECT_NE(response.body.find("\"exception\":\"AuthenticationException\",\"javaClassName\":"
                                 "\"org.apache.hadoop.security.authentication.client."
                                 "AuthenticationException\"}}"),
              std::string::npos)
        << response.body;
  }

  RmHarness rm_;
  std::unique_ptr<auth::WebFilterChain> chain_;
  std::optional<HttpRequest> seen_;
};

TEST_F(DelegationTokenAuthTest, ALiveTokenAuthenticatesItsOwner) {
  const std::string token = Issue();
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  const std::vector<std::pair<Pairs, Pairs>> carriers = {
      {{{"delegation", token}}, {}},
      {{}, {{"X-Hadoop-Delegation-Token", token}}},
      {{}, {{"Hadoop-YARN-Auth-Delegation-Token", token}}},
  };
  for (const auto& [query, headers] : carriers) {
    HttpResponse response = Get(query, headers);
    EXPECT_EQ(response.status, 200) << response.body;
    ASSERT_TRUE(seen_.has_value());
    // getRemoteUser() the owner's short name, the principal its full name.
    EXPECT_EQ(seen_->remote_user, "alice");
    EXPECT_EQ(seen_->user_principal, "alice@EXAMPLE.COM");
    EXPECT_TRUE(seen_->by_delegation_token);
    // An ephemeral authentication: no hadoop.auth cookie is issued.
    for (const auto& [name, value] : response.headers) EXPECT_NE(name, "Set-Cookie") << value;
  }
  // It stays good while renewed, up to its renew date.
  rm_.clock().Advance(std::chrono::hours(23));
  EXPECT_EQ(Get({{"delegation", token}}).status, 200);
}

TEST_F(DelegationTokenAuthTest, ExpiredCancelledForgedAndGarbledTokensAreRefused) {
  // Expired: past its renew date (one day) without a renewal.
  const std::string expiring = Issue();
  rm_.clock().Advance(std::chrono::hours(24) + std::chrono::milliseconds(1));
  ExpectRefused(Get({{"delegation", expiring}}),
                "org.apache.hadoop.security.token.SecretManager$InvalidToken: token (owner="
                "alice@EXAMPLE.COM, renewer=yarn");
  EXPECT_NE(Get({{"delegation", expiring}}).body.find(") is expired"), std::string::npos);
  EXPECT_FALSE(seen_.has_value());

  // Cancelled by its owner.
  const std::string cancelled = Issue();
  Result<rm::Token> decoded = rm::DecodeTokenUrlString(cancelled);
  ASSERT_TRUE(decoded.ok());
  ASSERT_TRUE(rm_.core().CancelDelegationToken(*decoded, "alice@EXAMPLE.COM").ok());
  HttpResponse gone = Get({}, {{"X-Hadoop-Delegation-Token", cancelled}});
  ExpectRefused(gone, "org.apache.hadoop.security.token.SecretManager$InvalidToken: token (");
  EXPECT_NE(gone.body.find(") can't be found in cache"), std::string::npos) << gone.body;
  EXPECT_FALSE(seen_.has_value());

  // Forged: a live identifier with another password.
  Result<rm::Token> forged = rm::DecodeTokenUrlString(Issue());
  ASSERT_TRUE(forged.ok());
  forged->password[0] ^= 1;
  HttpResponse wrong_password = Get({{"delegation", rm::EncodeTokenUrlString(*forged)}});
  ExpectRefused(wrong_password,
                "org.apache.hadoop.security.token.SecretManager$InvalidToken: token (");
  EXPECT_NE(wrong_password.body.find(") is invalid, password doesn't match"), std::string::npos)
      << wrong_password.body;
  EXPECT_FALSE(seen_.has_value());

  // Not a token at all; and a user.name= beside a bad token does not get
  // the request through.
  ExpectRefused(Get({{"delegation", "%%%"}, {"user.name", "alice"}}), "java.io.IOException: ");
  EXPECT_FALSE(seen_.has_value());
}

// The filter's own ?op= calls (DelegationTokenAuthenticationHandler's
// managementOperation) over the core's secret manager: the token belongs to
// the caller's short name, renews by its renewer and is cancelled by its
// holder; the manager's refusals come back in the handler's terms.
TEST_F(DelegationTokenAuthTest, FilterOpCallsRunOnTheCoresSecretManager) {
  HttpResponse issued = Get({{"op", "GETDELEGATIONTOKEN"},
                             {"user.name", "alice"},
                             {"renewer", "yarn"},
                             {"service", "127.0.0.1:8032"}});
  ASSERT_EQ(issued.status, 200) << issued.body;
  EXPECT_FALSE(seen_.has_value());
  const std::string prefix = "{\"Token\":{\"urlString\":\"";
  ASSERT_EQ(issued.body.rfind(prefix, 0), 0u) << issued.body;
  const std::string url =
      issued.body.substr(prefix.size(), issued.body.find('"', prefix.size()) - prefix.size());
  Result<rm::Token> token = rm::DecodeTokenUrlString(url);
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  EXPECT_EQ(token->kind, "RM_DELEGATION_TOKEN");
  EXPECT_EQ(token->service, "127.0.0.1:8032");
  Result<rm::RmDelegationTokenIdentifier> id =
      rm::DecodeRmDelegationTokenIdentifier(token->identifier);
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(id->owner, "alice");
  EXPECT_EQ(id->renewer, "yarn");
  EXPECT_EQ(id->real_user, "");
  EXPECT_EQ(Get({{"delegation", url}}).status, 200);
  EXPECT_EQ(seen_->remote_user, "alice");

  // Renewed by its renewer only; a token is needed to renew one.
  HttpResponse foreign = Get({{"op", "RENEWDELEGATIONTOKEN"}, {"token", url}, {"user.name", "bob"}},
                             {}, HttpMethod::kPut);
  EXPECT_EQ(foreign.status, 403);
  EXPECT_NE(foreign.body.find("org.apache.hadoop.security.AccessControlException: bob tries to "
                              "renew a token with renewer yarn"),
            std::string::npos)
      << foreign.body;
  HttpResponse by_token = Get({{"op", "RENEWDELEGATIONTOKEN"}, {"token", url}},
                              {{"X-Hadoop-Delegation-Token", url}}, HttpMethod::kPut);
  EXPECT_EQ(by_token.status, 403) << by_token.body;
  rm_.clock().Advance(std::chrono::hours(1));
  HttpResponse renewed =
      Get({{"op", "RENEWDELEGATIONTOKEN"}, {"token", url}, {"user.name", "yarn"}}, {},
          HttpMethod::kPut);
  ASSERT_EQ(renewed.status, 200) << renewed.body;
  Result<rm::RmDelegationTokenSecret> secret =
      rm_.core().RetrieveDelegationTokenSecret(token->identifier);
  ASSERT_TRUE(secret.ok());
  EXPECT_EQ(renewed.body, "{\"long\":" + std::to_string(secret->renew_date_ms) + "}\n");

  // Cancelled by whoever holds it (as its owner); then it is gone.
  HttpResponse cancelled =
      Get({{"op", "CANCELDELEGATIONTOKEN"}, {"token", url}}, {}, HttpMethod::kPut);
  EXPECT_EQ(cancelled.status, 200) << cancelled.body;
  ExpectRefused(Get({{"delegation", url}}),
                "org.apache.hadoop.security.token.SecretManager$InvalidToken: token (");
  EXPECT_EQ(Get({{"op", "CANCELDELEGATIONTOKEN"}, {"token", url}}, {}, HttpMethod::kPut).status,
            404);
  EXPECT_EQ(Get({{"op", "CANCELDELEGATIONTOKEN"}, {"token", "%%%"}}, {}, HttpMethod::kPut).status,
            404);
}

}  // namespace
}  // namespace spindle::web::rest
