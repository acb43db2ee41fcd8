#include "security/rpc_authorizer.h"

#include <gtest/gtest.h>

#include "wire/ipc/error_mapping.h"

namespace spindle::security {
namespace {

constexpr char kClient[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kTracker[] = "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";

std::vector<std::string> NoNames(const std::string&) { return {}; }

rm::Configuration Conf(const std::map<std::string, std::string>& values) {
  rm::Configuration conf;
  for (const auto& [key, value] : values) conf.Set(key, value);
  return conf;
}

RpcAuthorizerOptions Options(bool service_authorization) {
  RpcAuthorizerOptions options;
  options.kerberos = true;
  options.service_authorization = service_authorization;
  options.resolver = &NoNames;
  options.groups = [](const std::string& user) {
    return user == "bob" ? std::vector<std::string>{"analysts"} : std::vector<std::string>{};
  };
  options.canonical_host_name = [](const std::string& ip) {
    return ip == "10.0.0.7" ? std::string("node7.example") : ip;
  };
  return options;
}

ipc::ConnectionIdentity Kerberos(const std::string& principal, const std::string& short_name,
                                 const std::string& protocol,
                                 const std::string& remote = "10.0.0.7:5000") {
  ipc::ConnectionIdentity identity;
  identity.auth_method = ipc::AuthMethod::kKerberos;
  identity.user = short_name;
  identity.kerberos_principal = principal;
  identity.protocol = protocol;
  identity.remote_address = remote;
  return identity;
}

// The session's proxy identity: the effective user, the real user's short name.
ipc::ConnectionIdentity Proxy(ipc::ConnectionIdentity identity, const std::string& effective) {
  identity.real_user = identity.user;
  identity.user = effective;
  return identity;
}

TEST(RpcAuthorizerTest, ProxyUsersApplyWithoutServiceAuthorization) {
  const RpcAuthorizer authorizer(
      Options(false),
      Conf({{"hadoop.proxyuser.oozie.groups", "analysts"}, {"hadoop.proxyuser.oozie.hosts", "*"}}),
      Conf({}));
  const auto oozie = Kerberos("oozie/gw@R", "oozie", kClient);
  EXPECT_TRUE(authorizer.Authorize(oozie).ok());
  EXPECT_TRUE(authorizer.Authorize(Proxy(oozie, "bob")).ok());
  Status refused = authorizer.Authorize(Proxy(oozie, "carol"));
  EXPECT_EQ(refused.java_class(), ipc::java::kAuthorization);
  EXPECT_EQ(refused.message(), "User: oozie/gw@R is not allowed to impersonate carol");
  // A token-authenticated connection is not checked (the token's real user
  // obtained it for the effective user).
  auto token = Proxy(oozie, "carol");
  token.auth_method = ipc::AuthMethod::kToken;
  EXPECT_TRUE(authorizer.Authorize(token).ok());
  // SIMPLE proxies are checked too, by the real user's name.
  ipc::ConnectionIdentity simple;
  simple.user = "carol";
  simple.real_user = "oozie";
  simple.protocol = kClient;
  simple.remote_address = "127.0.0.1:1";
  EXPECT_EQ(authorizer.Authorize(simple).message(),
            "User: oozie is not allowed to impersonate carol");
}

// The web's ?doAs= (DelegationTokenAuthenticationFilter: ProxyUsers.authorize
// over the same rules): the real user's short name picks the keys, its full
// name is in the refusal, the effective user's groups and the caller's
// address are checked; a refresh applies to the web too.
TEST(RpcAuthorizerTest, WebImpersonationFollowsTheProxyUserRules) {
  RpcAuthorizer authorizer(Options(false),
                           Conf({{"hadoop.proxyuser.alice.users", "carol"},
                                 {"hadoop.proxyuser.alice.groups", "analysts"},
                                 {"hadoop.proxyuser.alice.hosts", "127.0.0.1"}}),
                           Conf({}));
  EXPECT_TRUE(authorizer.AuthorizeProxyUser("carol", "alice@R", "alice", "127.0.0.1").ok());
  // bob by his group.
  EXPECT_TRUE(authorizer.AuthorizeProxyUser("bob", "alice@R", "alice", "127.0.0.1").ok());
  Status dave = authorizer.AuthorizeProxyUser("dave", "alice@R", "alice", "127.0.0.1");
  EXPECT_EQ(dave.java_class(), ipc::java::kAuthorization);
  EXPECT_EQ(dave.message(), "User: alice@R is not allowed to impersonate dave");
  EXPECT_EQ(authorizer.AuthorizeProxyUser("carol", "alice@R", "alice", "10.0.0.9").message(),
            "Unauthorized connection for super-user: alice@R from IP 10.0.0.9");
  // Another super-user has no keys.
  EXPECT_EQ(authorizer.AuthorizeProxyUser("carol", "mallory@R", "mallory", "127.0.0.1").message(),
            "User: mallory@R is not allowed to impersonate carol");
  authorizer.RefreshSuperUserGroups(Conf({}));
  EXPECT_FALSE(authorizer.AuthorizeProxyUser("carol", "alice@R", "alice", "127.0.0.1").ok());
}

TEST(RpcAuthorizerTest, ServiceAclsAndTheirRefresh) {
  RpcAuthorizer authorizer(
      Options(true),
      Conf({{"hadoop.proxyuser.oozie.users", "*"}, {"hadoop.proxyuser.oozie.hosts", "*"}}),
      Conf({{"security.applicationclient.protocol.acl", "alice"}}));
  EXPECT_TRUE(authorizer.Authorize(Kerberos("alice@R", "alice", kClient)).ok());
  EXPECT_EQ(authorizer.Authorize(Kerberos("bob@R", "bob", kClient)).message(),
            "User bob@R (auth:KERBEROS) is not authorized for protocol interface "
            "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB: denied by configured ACL");
  // A proxy is judged as its effective user, described as Java's UGI.
  EXPECT_EQ(authorizer.Authorize(Proxy(Kerberos("oozie/gw@R", "oozie", kClient), "bob")).message(),
            "User bob (auth:PROXY) via oozie/gw@R (auth:KERBEROS) is not authorized for protocol "
            "interface org.apache.hadoop.yarn.api.ApplicationClientProtocolPB: denied by "
            "configured ACL");
  ASSERT_TRUE(
      authorizer
          .RefreshServiceAcls(Conf({{"security.applicationclient.protocol.acl", "x analysts"}}))
          .ok());
  EXPECT_TRUE(authorizer.Authorize(Kerberos("bob@R", "bob", kClient)).ok());
  EXPECT_FALSE(authorizer.Authorize(Kerberos("alice@R", "alice", kClient)).ok());
}

TEST(RpcAuthorizerTest, RefreshServiceAclsNeedsAuthorizationOn) {
  RpcAuthorizer authorizer(Options(false), Conf({}), Conf({}));
  Status s = authorizer.RefreshServiceAcls(Conf({}));
  EXPECT_EQ(s.java_class(), ipc::java::kIoException);
  EXPECT_EQ(s.message(), "Service Authorization (hadoop.security.authorization) not enabled.");
  // And with it off, no ACL is checked.
  EXPECT_TRUE(authorizer.Authorize(Kerberos("x@R", "x", "org.example.Unknown")).ok());
}

TEST(RpcAuthorizerTest, RefreshSuperUserGroupsReplacesTheRules) {
  RpcAuthorizer authorizer(Options(false), Conf({}), Conf({}));
  const auto proxy = Proxy(Kerberos("oozie/gw@R", "oozie", kClient), "bob");
  EXPECT_FALSE(authorizer.Authorize(proxy).ok());
  authorizer.RefreshSuperUserGroups(Conf(
      {{"hadoop.proxyuser.oozie.users", "bob"}, {"hadoop.proxyuser.oozie.hosts", "10.0.0.7"}}));
  EXPECT_TRUE(authorizer.Authorize(proxy).ok());
}

TEST(RpcAuthorizerTest, ResourceTrackerTakesOnlyTheNmPrincipal) {
  RpcAuthorizerOptions options = Options(true);
  options.nm_principal = "nm/_HOST@R";
  const RpcAuthorizer authorizer(options, Conf({}), Conf({}));
  EXPECT_TRUE(authorizer.Authorize(Kerberos("nm/node7.example@R", "yarn", kTracker)).ok());
  EXPECT_EQ(authorizer.Authorize(Kerberos("nm/node8.example@R", "yarn", kTracker)).message(),
            "User nm/node8.example@R (auth:KERBEROS) is not authorized for protocol interface "
            "org.apache.hadoop.yarn.server.api.ResourceTrackerPB: this service is only "
            "accessible by nm/node7.example@R");
  // Other protocols are not bound to it.
  EXPECT_TRUE(authorizer.Authorize(Kerberos("alice@R", "alice", kClient)).ok());
}

}  // namespace
}  // namespace spindle::security
