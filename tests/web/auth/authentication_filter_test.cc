// The web's authentication filter with simple authentication: ?user.name,
// the signed cookie, anonymous requests, the static user and ?doAs, as
// Hadoop 3.3's AuthenticationFilter and the RM's filter answer.
#include "web/auth/authentication_filter.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "web/auth/auth_headers.h"
#include "web/auth/web_filter_chain.h"

namespace spindle::web::auth {
namespace {

using namespace std::chrono_literals;

constexpr int64_t kStartMillis = 1'700'000'000'000;

class AuthenticationFilterTest : public ::testing::Test {
 protected:
  std::unique_ptr<WebFilterChain> Chain(HttpAuthOptions options) {
    AuthenticationFilterDeps deps;
    deps.clock = &clock_;
    deps.auth_to_local =
        *security::AuthToLocal::Parse("DEFAULT", security::RuleMechanism::kHadoop, "SPINDLE.TEST");
    deps.authorize_proxy = authorize_proxy_;
    deps.verify_delegation_token = verify_delegation_token_;
    Result<std::unique_ptr<WebFilterChain>> chain =
        WebFilterChain::Create(std::move(options), std::move(deps));
    EXPECT_TRUE(chain.ok()) << chain.status().ToString();
    return std::move(chain).value();
  }
  static HttpAuthOptions Simple() {
    HttpAuthOptions options;
    options.filter = AuthFilterKind::kResourceManager;
    options.static_user_filter = true;
    options.validity_seconds = 60;
    return options;
  }
  // Runs `request` through `chain`; the handler echoes the user it saw.
  HttpResponse Run(const WebFilterChain& chain, HttpRequest request) {
    seen_.reset();
    return chain.Handle(request, [this](const HttpRequest& passed) {
      seen_ = passed.remote_user;
      seen_request_ = passed;
      return HttpResponse::Text(200, "ok");
    });
  }
  static HttpRequest Request(std::vector<std::pair<std::string, std::string>> query = {},
                             std::string cookie = "") {
    HttpRequest request;
    request.path = "/ws/v1/cluster/info";
    request.query = std::move(query);
    if (!cookie.empty()) request.headers.emplace_back("Cookie", "hadoop.auth=" + cookie);
    return request;
  }
  static std::string Header(const HttpResponse& response, const std::string& name) {
    for (const auto& [key, value] : response.headers) {
      if (key == name) return value;
    }
    return "";
  }
  // The cookie value a Set-Cookie carries, unquoted.
  static std::string CookieOf(const HttpResponse& response) {
    HttpRequest echo;
    echo.headers.emplace_back("Cookie", Header(response, "Set-Cookie"));
    return AuthCookieValue(echo).value_or("");
  }

  ManualClock clock_{TimePoint{}, kStartMillis};
  std::function<Status(const std::string&, const std::string&, const std::string&)>
      authorize_proxy_;
  std::function<Result<std::string>(std::string_view)> verify_delegation_token_;
  std::optional<std::string> seen_;
  HttpRequest seen_request_;
};

TEST_F(AuthenticationFilterTest, UserNameIsAuthenticatedAndRemembered) {
  auto chain = Chain(Simple());
  HttpResponse first = Run(*chain, Request({{"user.name", "alice"}}));
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(seen_, "alice");
  const std::string cookie = CookieOf(first);
  EXPECT_EQ(cookie.rfind(
                "u=alice&p=alice&t=simple-dt&e=" + std::to_string(kStartMillis + 60000) + "&s=", 0),
            0u)
      << Header(first, "Set-Cookie");
  EXPECT_NE(Header(first, "Set-Cookie").find("; Path=/; HttpOnly"), std::string::npos);

  // The cookie alone names alice; no new cookie is sent.
  HttpResponse again = Run(*chain, Request({}, "\"" + cookie + "\""));
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(seen_, "alice");
  EXPECT_EQ(Header(again, "Set-Cookie"), "");
}

TEST_F(AuthenticationFilterTest, TamperedOrExpiredCookiesAreIgnored) {
  HttpAuthOptions options = Simple();
  options.anonymous_allowed = false;
  auto chain = Chain(options);
  const std::string cookie = CookieOf(Run(*chain, Request({{"user.name", "alice"}})));
  std::string tampered = cookie;
  tampered.replace(0, 7, "u=admin");
  HttpResponse refused = Run(*chain, Request({}, tampered));
  EXPECT_EQ(refused.status, 401);
  EXPECT_FALSE(seen_.has_value());
  EXPECT_EQ(Header(refused, "WWW-Authenticate"), "PseudoAuth");
  EXPECT_EQ(Header(refused, "Set-Cookie"), "hadoop.auth=; Path=/; HttpOnly");
  EXPECT_NE(refused.body.find("Invalid signature"), std::string::npos) << refused.body;

  EXPECT_EQ(Run(*chain, Request({}, cookie)).status, 200);
  clock_.Advance(61s);
  HttpResponse expired = Run(*chain, Request({}, cookie));
  EXPECT_EQ(expired.status, 401);
  EXPECT_NE(expired.body.find("AuthenticationToken expired"), std::string::npos) << expired.body;
  // A new ?user.name still gets in.
  EXPECT_EQ(Run(*chain, Request({{"user.name", "alice"}}, cookie)).status, 200);
  EXPECT_EQ(seen_, "alice");
}

TEST_F(AuthenticationFilterTest, ACookieOfAnotherFilterTypeIsIgnored) {
  // Two filters sharing a secret file: the signature checks, the type not.
  const std::filesystem::path secret =
      std::filesystem::temp_directory_path() / ("spindle-auth-secret-" + std::to_string(getpid()));
  std::ofstream(secret) << "shared";
  HttpAuthOptions plain = Simple();
  plain.filter = AuthFilterKind::kHadoop;
  plain.anonymous_allowed = false;
  plain.secret_file = secret.string();
  HttpAuthOptions rm = plain;
  rm.filter = AuthFilterKind::kResourceManager;
  auto hadoop = Chain(plain);
  auto chain = Chain(rm);
  std::filesystem::remove(secret);
  const std::string cookie = CookieOf(Run(*hadoop, Request({{"user.name", "alice"}})));
  EXPECT_NE(cookie.find("t=simple&"), std::string::npos);
  EXPECT_EQ(Run(*hadoop, Request({}, cookie)).status, 200);
  HttpResponse refused = Run(*chain, Request({}, cookie));
  EXPECT_EQ(refused.status, 401);
  EXPECT_NE(refused.body.find("Invalid AuthenticationToken type"), std::string::npos)
      << refused.body;
}

TEST_F(AuthenticationFilterTest, AnonymousRequestsRunAsTheStaticUserOrNobody) {
  auto chain = Chain(Simple());
  EXPECT_EQ(Run(*chain, Request()).status, 200);
  EXPECT_EQ(seen_, "dr.who");
  HttpAuthOptions before = Simple();
  before.static_user_last = false;
  auto overridden = Chain(before);
  EXPECT_EQ(Run(*overridden, Request()).status, 200);
  EXPECT_EQ(seen_, "");
  HttpAuthOptions none;
  none.static_user_filter = false;
  auto bare = Chain(none);
  EXPECT_EQ(Run(*bare, Request({{"user.name", "mallory"}})).status, 200);
  EXPECT_EQ(seen_, "");  // no authentication filter: ?user.name means nothing
  HttpAuthOptions only_static;
  only_static.static_user_filter = true;
  auto fixed = Chain(only_static);
  EXPECT_EQ(Run(*fixed, Request({{"user.name", "mallory"}})).status, 200);
  EXPECT_EQ(seen_, "dr.who");
}

TEST_F(AuthenticationFilterTest, AnEmptyUserNameIsRefused) {
  auto chain = Chain(Simple());
  EXPECT_EQ(Run(*chain, Request({{"user.name", ""}})).status, 403);
  EXPECT_FALSE(seen_.has_value());
}

TEST_F(AuthenticationFilterTest, DoAsNeedsAProxyUserRule) {
  auto chain = Chain(Simple());
  HttpResponse refused = Run(*chain, Request({{"user.name", "alice"}, {"DOAS", "bob"}}));
  EXPECT_EQ(refused.status, 403);
  EXPECT_FALSE(seen_.has_value());
  EXPECT_EQ(refused.body,
            "{\"RemoteException\":{\"message\":\"User: alice is not allowed to impersonate bob\","
            "\"exception\":\"AuthorizationException\",\"javaClassName\":"
            "\"org.apache.hadoop.security.authorize.AuthorizationException\"}}");
  authorize_proxy_ = [](const std::string& real, const std::string& doas, const std::string&) {
    return real == "alice" && doas == "bob" ? Status::OK() : Status::Unauthorized("no");
  };
  auto proxying = Chain(Simple());
  EXPECT_EQ(Run(*proxying, Request({{"user.name", "alice"}, {"doAs", "bob"}})).status, 200);
  EXPECT_EQ(seen_, "bob");
  // getUserPrincipal() names the proxy user too; getAuthType() is the
  // handler's method.
  EXPECT_EQ(seen_request_.user_principal, "bob");
  EXPECT_EQ(seen_request_.auth_type, "SIMPLE");
  EXPECT_FALSE(seen_request_.by_delegation_token);
  authorize_proxy_ = [](const std::string& real, const std::string& doas, const std::string& ip) {
    return Status::Unauthorized("Unauthorized connection for super-user: " + real + " from IP " +
                                ip + " (for " + doas + ")");
  };
  auto strict = Chain(Simple());
  HttpRequest from_elsewhere = Request({{"user.name", "alice"}, {"doAs", "bob"}});
  from_elsewhere.remote_address = "10.1.2.3";
  HttpResponse not_from_there = Run(*strict, from_elsewhere);
  EXPECT_EQ(not_from_there.status, 403);
  EXPECT_NE(not_from_there.body.find("Unauthorized connection for super-user: alice from IP "
                                     "10.1.2.3 (for bob)"),
            std::string::npos)
      << not_from_there.body;
  // The plain hadoop-auth filter has no doAs.
  HttpAuthOptions plain = Simple();
  plain.filter = AuthFilterKind::kHadoop;
  auto hadoop = Chain(plain);
  EXPECT_EQ(Run(*hadoop, Request({{"user.name", "alice"}, {"doAs", "carol"}})).status, 200);
  EXPECT_EQ(seen_, "alice");
}

// The RM's filter takes an RM delegation token as authentication
// (DelegationTokenAuthenticationHandler): X-Hadoop-Delegation-Token, else the
// old header when the new one is absent or empty, else ?delegation=.
TEST_F(AuthenticationFilterTest, ADelegationTokenAuthenticatesItsOwner) {
  verify_delegation_token_ = [](std::string_view token) -> Result<std::string> {
    if (token == "good") return std::string("alice@SPINDLE.TEST");
    return Status::Remote("org.apache.hadoop.security.token.SecretManager$InvalidToken",
                          "token (" + std::string(token) + ") can't be found in cache",
                          Status::Code::kUnauthorized);
  };
  authorize_proxy_ = [](const std::string&, const std::string&, const std::string&) {
    return Status::OK();
  };
  auto chain = Chain(Simple());
  HttpRequest by_header = Request({{"doAs", "bob"}});
  by_header.headers.emplace_back("X-Hadoop-Delegation-Token", "good");
  HttpResponse accepted = Run(*chain, by_header);
  EXPECT_EQ(accepted.status, 200);
  // The owner's short name; ?doAs= ignored; an ephemeral token: no cookie.
  EXPECT_EQ(seen_, "alice");
  EXPECT_EQ(seen_request_.user_principal, "alice@SPINDLE.TEST");
  EXPECT_TRUE(seen_request_.by_delegation_token);
  EXPECT_EQ(seen_request_.auth_type, "SIMPLE");
  EXPECT_EQ(Header(accepted, "Set-Cookie"), "");

  EXPECT_EQ(Run(*chain, Request({{"delegation", "good"}})).status, 200);
  EXPECT_EQ(seen_, "alice");
  HttpRequest old_header = Request();
  old_header.headers.emplace_back("X-Hadoop-Delegation-Token", "");
  old_header.headers.emplace_back("Hadoop-YARN-Auth-Delegation-Token", "good");
  EXPECT_EQ(Run(*chain, old_header).status, 200);
  EXPECT_EQ(seen_, "alice");

  // A token that does not verify: 403 with the AuthenticationException JSON,
  // and the request goes no further (no fallback to ?user.name=).
  HttpResponse refused = Run(*chain, Request({{"delegation", "stale"}, {"user.name", "eve"}}));
  EXPECT_EQ(refused.status, 403);
  EXPECT_FALSE(seen_.has_value());
  EXPECT_EQ(refused.body,
            "{\"RemoteException\":{\"message\":\"org.apache.hadoop.security.token."
            "SecretManager$InvalidToken: token (stale) can't be found in cache\",\"exception\":"
            "\"AuthenticationException\",\"javaClassName\":\"org.apache.hadoop.security."
            "authentication.client.AuthenticationException\"}}");
  // A valid cookie wins over the token (the handler runs only without one).
  const std::string cookie = CookieOf(Run(*chain, Request({{"user.name", "carol"}})));
  EXPECT_EQ(Run(*chain, Request({{"delegation", "stale"}}, cookie)).status, 200);
  EXPECT_EQ(seen_, "carol");
  EXPECT_FALSE(seen_request_.by_delegation_token);
  // hadoop-auth's own filter knows no delegation tokens.
  HttpAuthOptions plain = Simple();
  plain.filter = AuthFilterKind::kHadoop;
  auto hadoop = Chain(plain);
  EXPECT_EQ(Run(*hadoop, Request({{"delegation", "stale"}, {"user.name", "eve"}})).status, 200);
  EXPECT_EQ(seen_, "eve");
  EXPECT_EQ(seen_request_.auth_type, "simple");
}

TEST_F(AuthenticationFilterTest, AnInactiveIntervalRenewsSessionCookies) {
  HttpAuthOptions options = Simple();
  options.max_inactive_seconds = 10;
  auto chain = Chain(options);
  const std::string cookie = CookieOf(Run(*chain, Request({{"user.name", "alice"}})));
  HttpResponse renewed = Run(*chain, Request({}, cookie));
  EXPECT_EQ(renewed.status, 200);
  const std::string second = CookieOf(renewed);
  EXPECT_NE(second.find("&i=" + std::to_string(kStartMillis + 10000) + "&"), std::string::npos)
      << second;
  clock_.Advance(11s);
  EXPECT_EQ(Run(*chain, Request({}, second)).status, 200);
  EXPECT_EQ(seen_, "dr.who");  // stale: anonymous
}

}  // namespace
}  // namespace spindle::web::auth
