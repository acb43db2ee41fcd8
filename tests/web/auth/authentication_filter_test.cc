// The web's authentication filter with simple authentication: ?user.name,
// the signed cookie, anonymous requests, the static user and ?doAs, as
// Hadoop 3.3's AuthenticationFilter and the RM's filter answer.
#include "web/auth/authentication_filter.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

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
    deps.token_operations = token_operations_;
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
  std::optional<AuthenticationFilterDeps::DelegationTokenOperations> token_operations_;
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

// A fake secret manager for the ?op= management calls: tokens are
// "tok-<n>" and know their owner, real user, renewer and service.
class TokenOperationsTest : public AuthenticationFilterTest {
 protected:
  struct Issued {
    std::string owner, real_user, renewer;
    std::optional<std::string> service;
  };
  void SetUp() override {
    verify_delegation_token_ = [this](std::string_view url) -> Result<std::string> {
      auto it = issued_.find(std::string(url));
      if (it == issued_.end()) {
        return Status::Remote("org.apache.hadoop.security.token.SecretManager$InvalidToken",
                              "token (" + std::string(url) + ") can't be found in cache",
                              Status::Code::kUnauthorized);
      }
      return it->second.owner;
    };
    AuthenticationFilterDeps::DelegationTokenOperations operations;
    operations.create = [this](const std::string& owner, const std::string& real_user,
                               const std::string& renewer,
                               const std::optional<std::string>& service) -> Result<std::string> {
      const std::string url = "tok-" + std::to_string(issued_.size());
      issued_[url] = Issued{owner, real_user, renewer, service};
      return url;
    };
    operations.renew = [this](std::string_view url, const std::string& renewer) -> Result<int64_t> {
      auto it = issued_.find(std::string(url));
      if (it == issued_.end()) {
        return Status::Remote("java.io.IOException", "not a token", Status::Code::kIoError);
      }
      if (it->second.renewer != renewer) {
        return Status::Remote(
            "org.apache.hadoop.security.AccessControlException",
            renewer + " tries to renew a token with non-matching renewer " + it->second.renewer,
            Status::Code::kUnauthorized);
      }
      return int64_t{1'700'086'400'000};
    };
    operations.cancel = [this](std::string_view url, const std::string& canceller) -> Status {
      auto it = issued_.find(std::string(url));
      if (it == issued_.end()) return Status::Unauthorized("unknown");
      if (canceller != it->second.owner && canceller != it->second.renewer) {
        return Status::Unauthorized(canceller + " is not authorized to cancel the token");
      }
      cancelled_.push_back(std::string(url));
      issued_.erase(it);
      return Status::OK();
    };
    token_operations_ = std::move(operations);
  }
  static HttpRequest Op(HttpMethod method, std::vector<std::pair<std::string, std::string>> query,
                        std::string cookie = "") {
    HttpRequest request = Request(std::move(query), std::move(cookie));
    request.method = method;
    request.path = "/cluster/apps";  // any path of the web app
    return request;
  }

  std::map<std::string, Issued> issued_;
  std::vector<std::string> cancelled_;
};

TEST_F(TokenOperationsTest, GetRenewAndCancelAnswerAsTheHandlerDoes) {
  auto chain = Chain(Simple());
  // Get: the handler's own authentication (?user.name= here), no cookie,
  // the renewer defaulting to the caller's short name; lower-case op too.
  HttpResponse got =
      Run(*chain, Op(HttpMethod::kGet, {{"op", "getdelegationtoken"}, {"user.name", "alice"}}));
  EXPECT_EQ(got.status, 200);
  EXPECT_FALSE(seen_.has_value());  // answered by the filter
  EXPECT_EQ(got.body, "{\"Token\":{\"urlString\":\"tok-0\"}}\n");
  EXPECT_EQ(Header(got, "Set-Cookie"), "");
  ASSERT_EQ(issued_.count("tok-0"), 1u);
  EXPECT_EQ(issued_["tok-0"].owner, "alice");
  EXPECT_EQ(issued_["tok-0"].renewer, "alice");
  EXPECT_EQ(issued_["tok-0"].real_user, "");
  EXPECT_FALSE(issued_["tok-0"].service.has_value());
  EXPECT_EQ(Run(*chain, Op(HttpMethod::kGet, {{"op", "GETDELEGATIONTOKEN"},
                                              {"user.name", "alice"},
                                              {"renewer", "yarn"},
                                              {"service", "10.0.0.1:8032"}}))
                .body,
            "{\"Token\":{\"urlString\":\"tok-1\"}}\n");
  EXPECT_EQ(issued_["tok-1"].renewer, "yarn");
  EXPECT_EQ(issued_["tok-1"].service, "10.0.0.1:8032");

  // Renew: as the caller (a cookie user here); the renewer check is the
  // secret manager's, its refusal the filter's 403 with the cause.
  const std::string bob = CookieOf(Run(*chain, Request({{"user.name", "bob"}})));
  HttpResponse foreign =
      Run(*chain, Op(HttpMethod::kPut, {{"op", "RENEWDELEGATIONTOKEN"}, {"token", "tok-0"}}, bob));
  EXPECT_EQ(foreign.status, 403);
  EXPECT_NE(foreign.body.find("org.apache.hadoop.security.AccessControlException: bob tries to "
                              "renew a token with non-matching renewer alice"),
            std::string::npos)
      << foreign.body;
  HttpResponse renewed =
      Run(*chain, Op(HttpMethod::kPut,
                     {{"op", "RENEWDELEGATIONTOKEN"}, {"token", "tok-0"}, {"user.name", "alice"}}));
  EXPECT_EQ(renewed.status, 200);
  EXPECT_EQ(renewed.body, "{\"long\":1700086400000}\n");
  HttpResponse garbled =
      Run(*chain, Op(HttpMethod::kPut,
                     {{"op", "RENEWDELEGATIONTOKEN"}, {"token", "zzz"}, {"user.name", "alice"}}));
  EXPECT_EQ(garbled.status, 403);
  EXPECT_NE(garbled.body.find("java.io.IOException: not a token"), std::string::npos);

  // Cancel needs no caller: the token's owner cancels; a second time it is
  // gone: 404.
  HttpResponse cancelled =
      Run(*chain, Op(HttpMethod::kPut, {{"op", "CANCELDELEGATIONTOKEN"}, {"token", "tok-0"}}));
  EXPECT_EQ(cancelled.status, 200);
  EXPECT_EQ(cancelled.body, "");
  EXPECT_EQ(cancelled_, std::vector<std::string>{"tok-0"});
  HttpResponse again =
      Run(*chain, Op(HttpMethod::kPut, {{"op", "CANCELDELEGATIONTOKEN"}, {"token", "tok-0"}}));
  EXPECT_EQ(again.status, 404);
  EXPECT_NE(again.body.find("Invalid delegation token, cannot cancel"), std::string::npos);
  // A caller who is neither owner nor renewer cannot cancel.
  EXPECT_EQ(
      Run(*chain, Op(HttpMethod::kPut, {{"op", "CANCELDELEGATIONTOKEN"}, {"token", "tok-1"}}, bob))
          .status,
      404);
  EXPECT_EQ(issued_.count("tok-1"), 1u);
}

TEST_F(TokenOperationsTest, BadCallsAreRefusedInTheHandlersTerms) {
  auto chain = Chain(Simple());
  HttpResponse wrong_method =
      Run(*chain, Op(HttpMethod::kPost, {{"op", "GETDELEGATIONTOKEN"}, {"user.name", "alice"}}));
  EXPECT_EQ(wrong_method.status, 400);
  EXPECT_NE(wrong_method.body.find("Wrong HTTP method [POST] for operation [GETDELEGATIONTOKEN], "
                                   "it should be [GET]"),
            std::string::npos)
      << wrong_method.body;
  HttpResponse no_token =
      Run(*chain, Op(HttpMethod::kPut, {{"op", "RENEWDELEGATIONTOKEN"}, {"user.name", "alice"}}));
  EXPECT_EQ(no_token.status, 400);
  EXPECT_NE(no_token.body.find("Operation [RENEWDELEGATIONTOKEN] requires the parameter [token]"),
            std::string::npos);
  EXPECT_EQ(Run(*chain, Op(HttpMethod::kPut, {{"op", "CANCELDELEGATIONTOKEN"}})).status, 400);

  // Get and renew need the caller's own credentials: a delegation token
  // does not do, and without any the handler's challenge answers.
  ASSERT_TRUE(
      Run(*chain, Op(HttpMethod::kGet, {{"op", "GETDELEGATIONTOKEN"}, {"user.name", "alice"}}))
          .status == 200);
  HttpResponse by_token =
      Run(*chain, Op(HttpMethod::kGet, {{"op", "GETDELEGATIONTOKEN"}, {"delegation", "tok-0"}}));
  EXPECT_EQ(by_token.status, 403);
  EXPECT_NE(by_token.body.find("Anonymous requests cannot carry out delegation token operations"),
            std::string::npos)
      << by_token.body;
  HttpAuthOptions named = Simple();
  named.anonymous_allowed = false;
  HttpResponse challenged = Run(
      *Chain(named), Op(HttpMethod::kPut, {{"op", "RENEWDELEGATIONTOKEN"}, {"token", "tok-0"}}));
  EXPECT_EQ(challenged.status, 403);
  EXPECT_EQ(Header(challenged, "WWW-Authenticate"), "PseudoAuth");
  EXPECT_EQ(challenged.body, "");
  EXPECT_EQ(issued_.size(), 1u);

  // ?doAs=: refused without a proxy-user rule, else the token is the
  // proxied user's, its real user the caller.
  HttpResponse not_proxy =
      Run(*chain, Op(HttpMethod::kGet,
                     {{"op", "GETDELEGATIONTOKEN"}, {"user.name", "alice"}, {"doAs", "carol"}}));
  EXPECT_EQ(not_proxy.status, 403);
  EXPECT_NE(not_proxy.body.find("AuthorizationException"), std::string::npos);
  EXPECT_NE(not_proxy.body.find("User: alice is not allowed to impersonate carol"),
            std::string::npos);
  authorize_proxy_ = [](const std::string& real, const std::string& doas, const std::string&) {
    return real == "alice" && doas == "carol" ? Status::OK() : Status::Unauthorized("no");
  };
  auto proxied = Chain(Simple());
  EXPECT_EQ(
      Run(*proxied, Op(HttpMethod::kGet,
                       {{"op", "GETDELEGATIONTOKEN"}, {"user.name", "alice"}, {"doAs", "carol"}}))
          .status,
      200);
  EXPECT_EQ(issued_["tok-1"].owner, "carol");
  EXPECT_EQ(issued_["tok-1"].real_user, "alice");
  EXPECT_EQ(issued_["tok-1"].renewer, "carol");

  // An unknown op, OPTIONS, or a filter without the operations: no
  // management call; the request goes on.
  EXPECT_EQ(
      Run(*chain, Op(HttpMethod::kGet, {{"op", "LISTSTATUS"}, {"user.name", "alice"}})).status,
      200);
  EXPECT_EQ(seen_, "alice");
  token_operations_.reset();
  auto without = Chain(Simple());
  EXPECT_EQ(
      Run(*without, Op(HttpMethod::kGet, {{"op", "GETDELEGATIONTOKEN"}, {"user.name", "alice"}}))
          .body,
      "ok");
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
