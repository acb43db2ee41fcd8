// SPNEGO on the RM's web (issue 20's HTTP proof): a real MIT KDC
// (tests/support/mini_kdc), `spindle rm` with hadoop.security.authentication
// =kerberos and Hadoop's HTTP Kerberos set-up (AuthenticationFilterInitializer,
// hadoop.http.authentication.type=kerberos, HTTP/_HOST principal and
// keytab), and Debian's curl, which speaks GSS-API/SPNEGO (`curl -V` lists
// GSS-API and SPNEGO): `curl --negotiate -u :` after kinit gets 200 and the
// signed hadoop.auth cookie, plain curl gets 401 with "WWW-Authenticate:
// Negotiate", the cookie alone gets 200 again, a tampered one 401, a
// garbled Negotiate token 403 (Hadoop's answer) with the RM still serving,
// and the REST API sees the Kerberos user; RM delegation tokens over REST
// (get, use with ?delegation=, renew, cancel) and ?doAs= by the proxy-user
// rules.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include "integration/cell_support.h"
#include "integration/wait_for.h"
#include "tests/support/mini_kdc.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr char kRealm[] = "SPINDLE.TEST";
constexpr char kCurl[] = "/usr/bin/curl";

struct CurlAnswer {
  int status = 0;
  std::string headers;
  std::string body;
  std::string log;
};

class SecureHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("spindle-secure-http-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    Result<std::unique_ptr<testing::MiniKdc>> kdc =
        testing::MiniKdc::StartFresh((dir_ / "kdc").string());
    ASSERT_TRUE(kdc.ok()) << kdc.status().ToString();
    kdc_ = std::move(kdc).value();
    for (const char* principal : {"rm/127.0.0.1", "HTTP/127.0.0.1", "alice", "stranger"}) {
      ASSERT_TRUE(kdc_->AddPrincipal(principal).ok()) << principal;
    }
    ASSERT_TRUE(kdc_->ExportKeytab({"rm/127.0.0.1"}, keytab("rm")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"HTTP/127.0.0.1"}, keytab("http")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"alice"}, keytab("alice")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"stranger"}, keytab("stranger")).ok());
    WriteConf("rm-conf", {});
    rm_ = cell::Spawn({SPINDLE_BINARY, "rm", "--conf", (dir_ / "rm-conf").string(), "--ports-file",
                       (dir_ / "rm.ports").string()},
                      (dir_ / "rm.log").string());
    ASSERT_TRUE(WaitFor(
        [&] {
          for (const std::string& line : cell::Lines((dir_ / "rm.ports").string())) {
            if (line.rfind("web=", 0) == 0) web_port_ = line.substr(4);
          }
          return !web_port_.empty();
        },
        60s))
        << cell::Tail((dir_ / "rm.log").string(), 30);
    ASSERT_NE(cell::ReadAll((dir_ / "rm.log").string())
                  .find("HTTP SPNEGO: using keytab " + keytab("http") +
                        " for principal HTTP/127.0.0.1@SPINDLE.TEST"),
              std::string::npos)
        << cell::Tail((dir_ / "rm.log").string(), 30);
  }
  void TearDown() override {
    rm_.Stop(SIGTERM, 10s);
    kdc_.reset();
    if (!HasFailure()) fs::remove_all(dir_);
  }
  std::string keytab(const std::string& name) const { return (dir_ / (name + ".keytab")).string(); }

  // A secure RM's configuration with Hadoop's HTTP Kerberos keys, plus
  // `extra` (which wins).
  void WriteConf(const std::string& name, const std::map<std::string, std::string>& extra) {
    fs::create_directories(dir_ / name);
    std::map<std::string, std::string> core = {
        {"hadoop.security.authentication", "kerberos"},
        // alice is mapped; nobody else is.
        {"hadoop.security.auth_to_local", "RULE:[1:$1@$0](alice@SPINDLE\\.TEST)s/@.*//"},
        {"hadoop.http.filter.initializers",
         "org.apache.hadoop.security.AuthenticationFilterInitializer"},
        {"hadoop.http.authentication.type", "kerberos"},
        {"hadoop.http.authentication.kerberos.principal", std::string("HTTP/_HOST@") + kRealm},
        {"hadoop.http.authentication.kerberos.keytab", keytab("http")},
        {"hadoop.http.authentication.simple.anonymous.allowed", "false"},
        // alice may act for carol from here (web ?doAs=).
        {"hadoop.proxyuser.alice.hosts", "127.0.0.1"},
        {"hadoop.proxyuser.alice.users", "carol"}};
    for (const auto& [key, value] : extra) core[key] = value;
    cell::WriteSite((dir_ / name / "core-site.xml").string(), core);
    std::map<std::string, std::string> yarn = {
        {"yarn.resourcemanager.principal", std::string("rm/_HOST@") + kRealm},
        {"yarn.resourcemanager.keytab", keytab("rm")},
        {"spindle.store.path", (dir_ / (name + "-store")).string()}};
    for (const char* key : cell::kRmAddressKeys) yarn[key] = "127.0.0.1:0";
    cell::WriteSite((dir_ / name / "yarn-site.xml").string(), yarn);
    cell::WriteSite((dir_ / name / "capacity-scheduler.xml").string(),
                    {{"yarn.scheduler.capacity.root.queues", "default"},
                     {"yarn.scheduler.capacity.root.default.capacity", "100"}});
  }

  // kinit from `user`'s keytab into a cache of its own; "FILE:<path>".
  std::string Kinit(const std::string& user) {
    const std::string cache = "FILE:" + (dir_ / (user + ".ccache")).string();
    ChildProcess kinit =
        cell::Spawn({"/usr/bin/kinit", "-kt", keytab(user), user},
                    (dir_ / ("kinit-" + user + ".log")).string(), {"KRB5CCNAME=" + cache});
    EXPECT_TRUE(kinit.WaitExit(60s));
    EXPECT_EQ(kinit.wait_status(), 0)
        << cell::ReadAll((dir_ / ("kinit-" + user + ".log")).string());
    return cache;
  }

  // curl `path` on the RM's web with `options`; KRB5CCNAME = `cache`.
  CurlAnswer Curl(const std::string& path, std::vector<std::string> options,
                  const std::string& cache = "") {
    const std::string n = std::to_string(++curls_);
    const fs::path body = dir_ / ("curl" + n + ".body");
    const fs::path headers = dir_ / ("curl" + n + ".headers");
    const fs::path log = dir_ / ("curl" + n + ".log");
    std::vector<std::string> args = {kCurl, "-sS",
                                     "-o",  body.string(),
                                     "-D",  headers.string(),
                                     "-w",  "HTTP_CODE=%{http_code}\n"};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back("http://127.0.0.1:" + web_port_ + path);
    std::vector<std::string> env = kdc_->Environment();
    env.push_back("KRB5CCNAME=" +
                  (cache.empty() ? "FILE:" + (dir_ / "none.ccache").string() : cache));
    ChildProcess curl = cell::Spawn(args, log.string(), env);
    CurlAnswer answer;
    EXPECT_TRUE(curl.WaitExit(60s));
    answer.log = cell::ReadAll(log.string());
    answer.headers = cell::ReadAll(headers.string());
    answer.body = cell::ReadAll(body.string());
    const size_t at = answer.log.rfind("HTTP_CODE=");
    if (at != std::string::npos) answer.status = std::atoi(answer.log.c_str() + at + 10);
    return answer;
  }

  fs::path dir_;
  std::unique_ptr<testing::MiniKdc> kdc_;
  ChildProcess rm_;
  std::string web_port_;
  int curls_ = 0;
};

// The header lines of the final response (curl -D keeps every response of a
// handshake; the last one starts after the last blank line).
std::string LastResponse(const std::string& headers) {
  const size_t at = headers.rfind("HTTP/1.1 ");
  return at == std::string::npos ? headers : headers.substr(at);
}

TEST_F(SecureHttpTest, NegotiateGets200AndACookiePlainCurlGets401) {
  CurlAnswer plain = Curl("/ws/v1/cluster/info", {});
  EXPECT_EQ(plain.status, 401) << plain.log << plain.headers;
  EXPECT_NE(plain.headers.find("WWW-Authenticate: Negotiate\r\n"), std::string::npos)
      << plain.headers;
  EXPECT_NE(plain.headers.find("Set-Cookie: hadoop.auth=; Path=/; HttpOnly"), std::string::npos)
      << plain.headers;

  const std::string alice = Kinit("alice");
  const std::string jar = (dir_ / "alice.cookies").string();
  CurlAnswer negotiated = Curl("/ws/v1/cluster/info", {"--negotiate", "-u", ":", "-c", jar}, alice);
  ASSERT_EQ(negotiated.status, 200)
      << negotiated.log << negotiated.headers << cell::Tail((dir_ / "rm.log").string(), 20);
  EXPECT_NE(negotiated.body.find("\"clusterInfo\""), std::string::npos) << negotiated.body;
  const std::string last = LastResponse(negotiated.headers);
  // The mutual-authentication token, and the signed cookie of the RM's
  // filter (kerberos-dt: RMAuthenticationFilterInitializer took over).
  EXPECT_NE(last.find("WWW-Authenticate: Negotiate "), std::string::npos) << last;
  EXPECT_NE(last.find("Set-Cookie: hadoop.auth=\"u=alice&p=alice@SPINDLE.TEST&t=kerberos-dt&e="),
            std::string::npos)
      << last;

  // The REST API runs as alice.
  CurlAnswer user = Curl("/ws/v1/cluster/userinfo", {"-b", jar});
  EXPECT_EQ(user.status, 200) << user.log;
  EXPECT_NE(user.body.find("\"requestedUser\":\"alice\""), std::string::npos) << user.body;

  // The cookie alone (no ticket at all) is enough.
  CurlAnswer again = Curl("/ws/v1/cluster/info", {"-b", jar});
  EXPECT_EQ(again.status, 200) << again.log << again.headers;
  EXPECT_EQ(again.headers.find("Set-Cookie"), std::string::npos) << again.headers;

  // Tampered: another user in a cookie that kept alice's signature.
  std::string cookie;
  for (const std::string& line : cell::Lines(jar)) {
    const size_t at = line.find("hadoop.auth\t");
    if (at != std::string::npos) cookie = line.substr(at + 12);
  }
  ASSERT_NE(cookie.find("u=alice&"), std::string::npos) << cell::ReadAll(jar);
  std::string tampered = cookie;
  tampered.replace(tampered.find("u=alice&"), 8, "u=admin&");
  CurlAnswer forged = Curl("/ws/v1/cluster/info", {"-H", "Cookie: hadoop.auth=" + tampered});
  EXPECT_EQ(forged.status, 401) << forged.log << forged.headers;
  EXPECT_NE(forged.body.find("Invalid signature"), std::string::npos) << forged.body;
  CurlAnswer honest = Curl("/ws/v1/cluster/info", {"-H", "Cookie: hadoop.auth=" + cookie});
  EXPECT_EQ(honest.status, 200) << honest.log;
}

TEST_F(SecureHttpTest, EveryWebPathIsBehindAuthentication) {
  const std::string alice = Kinit("alice");
  const std::string jar = (dir_ / "alice.cookies").string();
  ASSERT_EQ(Curl("/ws/v1/cluster/info", {"--negotiate", "-u", ":", "-c", jar}, alice).status, 200);
  for (const char* path : {"/ws/v1/cluster/apps", "/ws/v1/cluster/metrics", "/jmx", "/conf",
                           "/logLevel", "/metrics", "/stacks", "/isActive", "/cluster", "/ui2/"}) {
    CurlAnswer plain = Curl(path, {});
    EXPECT_EQ(plain.status, 401) << path << "\n" << plain.headers;
    CurlAnswer authenticated = Curl(path, {"-b", jar});
    EXPECT_NE(authenticated.status, 401) << path << "\n" << authenticated.headers;
    EXPECT_NE(authenticated.status, 0) << path << "\n" << authenticated.log;
  }
}

TEST_F(SecureHttpTest, GarbledOrUnmappedNegotiationIsRefusedAndTheRmKeepsServing) {
  for (const char* header : {"Authorization: Negotiate !!!not base64!!!",
                             "Authorization: Negotiate YWJjZGVm", "Authorization: Negotiate ",
                             "Authorization: Negotiate oIGfMIGcoAMKAQGhCwYJKoZIhvcSAQICog=="}) {
    CurlAnswer garbled = Curl("/ws/v1/cluster/info", {"-H", header});
    EXPECT_TRUE(garbled.status == 403 || garbled.status == 401) << header << "\n"
                                                                << garbled.headers;
    EXPECT_NE(garbled.status, 200) << header;
  }
  EXPECT_EQ(Curl("/ws/v1/cluster/info", {"-H", "Authorization: Negotiate YWJjZGVm"}).status, 403);
  // A principal the KDC vouches for but auth_to_local does not map.
  const std::string stranger = Kinit("stranger");
  CurlAnswer unmapped = Curl("/ws/v1/cluster/userinfo", {"--negotiate", "-u", ":"}, stranger);
  EXPECT_EQ(unmapped.status, 403) << unmapped.log << unmapped.headers;
  EXPECT_NE(unmapped.body.find("No rules applied to stranger@SPINDLE.TEST"), std::string::npos)
      << unmapped.body;
  // Still serving after all of it.
  const std::string alice = Kinit("alice");
  EXPECT_EQ(Curl("/ws/v1/cluster/info", {"--negotiate", "-u", ":"}, alice).status, 200);
  EXPECT_FALSE(rm_.Exited()) << cell::Tail((dir_ / "rm.log").string(), 20);
}

// The value of "key":"..." in a JSON body ("" if absent).
std::string JsonString(const std::string& body, const std::string& key) {
  const std::string field = "\"" + key + "\":\"";
  const size_t at = body.find(field);
  if (at == std::string::npos) return "";
  const size_t start = at + field.size();
  return body.substr(start, body.find('"', start) - start);
}

// RM delegation tokens over REST (Hadoop 3.3's RMWebServices and
// RMAuthenticationFilter): a SPNEGO caller gets one, the token alone then
// authenticates (?delegation= or X-Hadoop-Delegation-Token) but may not
// mint, renew or cancel tokens, the renewer renews, the owner cancels, and
// a cancelled token authenticates nobody.
TEST_F(SecureHttpTest, DelegationTokensAreIssuedUsedRenewedAndCancelled) {
  const std::string alice = Kinit("alice");
  const std::vector<std::string> negotiate = {"--negotiate", "-u", ":"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> options = negotiate;
    options.insert(options.end(), extra.begin(), extra.end());
    return options;
  };
  CurlAnswer issued = Curl(
      "/ws/v1/cluster/delegation-token",
      with({"-X", "POST", "-H", "Content-Type: application/json", "-d", R"({"renewer":"alice"})"}),
      alice);
  ASSERT_EQ(issued.status, 200) << issued.log << issued.body
                                << cell::Tail((dir_ / "rm.log").string(), 20);
  EXPECT_EQ(JsonString(issued.body, "owner"), "alice@SPINDLE.TEST") << issued.body;
  EXPECT_EQ(JsonString(issued.body, "kind"), "RM_DELEGATION_TOKEN") << issued.body;
  EXPECT_NE(issued.body.find("\"expiration-time\":"), std::string::npos) << issued.body;
  const std::string token = JsonString(issued.body, "token");
  ASSERT_FALSE(token.empty()) << issued.body;

  // The token alone (no ticket, no cookie) authenticates alice, and sets no
  // cookie.
  CurlAnswer by_param = Curl("/ws/v1/cluster/userinfo?delegation=" + token, {});
  EXPECT_EQ(by_param.status, 200) << by_param.headers << by_param.body;
  EXPECT_NE(by_param.body.find("\"requestedUser\":\"alice\""), std::string::npos) << by_param.body;
  EXPECT_EQ(by_param.headers.find("Set-Cookie"), std::string::npos) << by_param.headers;
  CurlAnswer by_header = Curl("/ws/v1/cluster/info", {"-H", "X-Hadoop-Delegation-Token: " + token});
  EXPECT_EQ(by_header.status, 200) << by_header.headers;

  // ... but not for delegation-token operations.
  CurlAnswer minted =
      Curl("/ws/v1/cluster/delegation-token?delegation=" + token,
           {"-X", "POST", "-H", "Content-Type: application/json", "-d", R"({"renewer":"alice"})"});
  EXPECT_EQ(minted.status, 403) << minted.body;
  EXPECT_EQ(minted.body,
            "Delegation token operations cannot be carried out using delegation token "
            "authentication.");

  CurlAnswer renewed =
      Curl("/ws/v1/cluster/delegation-token/expiration",
           with({"-X", "POST", "-H", "Hadoop-YARN-RM-Delegation-Token: " + token}), alice);
  EXPECT_EQ(renewed.status, 200) << renewed.body;
  EXPECT_EQ(renewed.body.rfind("{\"expiration-time\":", 0), 0u) << renewed.body;

  CurlAnswer cancelled =
      Curl("/ws/v1/cluster/delegation-token",
           with({"-X", "DELETE", "-H", "Hadoop-YARN-RM-Delegation-Token: " + token}), alice);
  EXPECT_EQ(cancelled.status, 200) << cancelled.body;
  CurlAnswer stale = Curl("/ws/v1/cluster/info?delegation=" + token, {});
  EXPECT_EQ(stale.status, 403) << stale.body;
  EXPECT_NE(stale.body.find("\"exception\":\"AuthenticationException\""), std::string::npos)
      << stale.body;
  EXPECT_NE(stale.body.find("can't be found in cache"), std::string::npos) << stale.body;
  // A forged token: refused the same way, the RM still serving.
  CurlAnswer forged = Curl("/ws/v1/cluster/info?delegation=AAAA" + token.substr(4), {});
  EXPECT_EQ(forged.status, 403) << forged.body;
  EXPECT_FALSE(rm_.Exited()) << cell::Tail((dir_ / "rm.log").string(), 20);
}

// The filter's own ?op= calls (DelegationTokenAuthenticationHandler), on
// any path, over the secret manager the REST routes use.
TEST_F(SecureHttpTest, FilterOpCallsGetRenewAndCancelTokens) {
  const std::string alice = Kinit("alice");
  CurlAnswer challenged = Curl("/cluster?op=GETDELEGATIONTOKEN&renewer=alice", {});
  EXPECT_EQ(challenged.status, 401) << challenged.body;
  EXPECT_NE(challenged.headers.find("WWW-Authenticate: Negotiate"), std::string::npos)
      << challenged.headers;
  CurlAnswer issued =
      Curl("/cluster?op=GETDELEGATIONTOKEN&renewer=alice", {"--negotiate", "-u", ":"}, alice);
  ASSERT_EQ(issued.status, 200) << issued.log << issued.body
                                << cell::Tail((dir_ / "rm.log").string(), 20);
  EXPECT_EQ(issued.body.rfind("{\"Token\":{\"urlString\":\"", 0), 0u) << issued.body;
  const std::string token = JsonString(issued.body, "urlString");
  ASSERT_FALSE(token.empty()) << issued.body;
  // Owned by the short name (AuthenticationToken.getUserName), and it
  // authenticates like a REST-issued one.
  CurlAnswer used = Curl("/ws/v1/cluster/userinfo?delegation=" + token, {});
  EXPECT_EQ(used.status, 200) << used.body;
  EXPECT_NE(used.body.find("\"requestedUser\":\"alice\""), std::string::npos) << used.body;

  CurlAnswer renewed = Curl("/ws/v1/cluster/info?op=RENEWDELEGATIONTOKEN&token=" + token,
                            {"--negotiate", "-u", ":", "-X", "PUT"}, alice);
  EXPECT_EQ(renewed.status, 200) << renewed.body;
  EXPECT_EQ(renewed.body.rfind("{\"long\":", 0), 0u) << renewed.body;
  CurlAnswer wrong_method =
      Curl("/cluster?op=RENEWDELEGATIONTOKEN&token=" + token, {"--negotiate", "-u", ":"}, alice);
  EXPECT_EQ(wrong_method.status, 400) << wrong_method.body;

  // Cancel needs no credentials: the token's holder cancels it as its owner.
  CurlAnswer cancelled = Curl("/cluster?op=CANCELDELEGATIONTOKEN&token=" + token, {"-X", "PUT"});
  EXPECT_EQ(cancelled.status, 200) << cancelled.body;
  EXPECT_EQ(Curl("/ws/v1/cluster/info?delegation=" + token, {}).status, 403);
  CurlAnswer again = Curl("/cluster?op=CANCELDELEGATIONTOKEN&token=" + token, {"-X", "PUT"});
  EXPECT_EQ(again.status, 404) << again.body;
  EXPECT_FALSE(rm_.Exited()) << cell::Tail((dir_ / "rm.log").string(), 20);
}

// ?doAs= on the web is checked against hadoop.proxyuser.* as the RPC side.
TEST_F(SecureHttpTest, DoAsFollowsTheProxyUserRules) {
  const std::string alice = Kinit("alice");
  CurlAnswer as_carol =
      Curl("/ws/v1/cluster/userinfo?doAs=carol", {"--negotiate", "-u", ":"}, alice);
  EXPECT_EQ(as_carol.status, 200) << as_carol.body;
  EXPECT_NE(as_carol.body.find("\"requestedUser\":\"carol\""), std::string::npos) << as_carol.body;
  CurlAnswer as_dave = Curl("/ws/v1/cluster/userinfo?doAs=dave", {"--negotiate", "-u", ":"}, alice);
  EXPECT_EQ(as_dave.status, 403) << as_dave.body;
  EXPECT_NE(as_dave.body.find("User: alice@SPINDLE.TEST is not allowed to impersonate dave"),
            std::string::npos)
      << as_dave.body;
  EXPECT_NE(as_dave.body.find("\"exception\":\"AuthorizationException\""), std::string::npos)
      << as_dave.body;
}

// What the RM cannot honour stops it at start, in words that name the key.
TEST_F(SecureHttpTest, AnRmWithAnUnknownFilterOrAnUnusableKeytabDoesNotStart) {
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> cases = {
      {"does not have the filter initializer org.example.SsoFilterInitializer",
       {{"hadoop.http.filter.initializers",
         "org.apache.hadoop.security.AuthenticationFilterInitializer,"
         "org.example.SsoFilterInitializer"}}},
      {"Keytab does not exist: /nonexistent.keytab",
       {{"hadoop.http.authentication.kerberos.keytab", "/nonexistent.keytab"}}},
      {"acceptor credential for HTTP/127.0.0.1@SPINDLE.TEST from " + keytab("alice"),
       {{"hadoop.http.authentication.kerberos.keytab", keytab("alice")}}}};
  int n = 0;
  for (const auto& [expected, extra] : cases) {
    const std::string name = "bad-conf-" + std::to_string(++n);
    WriteConf(name, extra);
    const std::string log = (dir_ / (name + ".log")).string();
    ChildProcess bad = cell::Spawn({SPINDLE_BINARY, "rm", "--conf", (dir_ / name).string()}, log);
    ASSERT_TRUE(bad.WaitExit(60s)) << expected;
    EXPECT_NE(bad.wait_status(), 0) << expected;
    EXPECT_NE(cell::ReadAll(log).find(expected), std::string::npos) << expected << "\n"
                                                                    << cell::Tail(log, 10);
  }
}

}  // namespace
}  // namespace spindle
