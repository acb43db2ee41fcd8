#include "security/proxy_users.h"

#include <gtest/gtest.h>

#include "wire/ipc/error_mapping.h"

namespace spindle::security {
namespace {

std::vector<std::string> NoNames(const std::string&) { return {}; }

rm::Configuration Conf(const std::map<std::string, std::string>& values) {
  rm::Configuration conf;
  for (const auto& [key, value] : values) conf.Set(key, value);
  return conf;
}

Impersonation As(std::string real, std::string user, std::vector<std::string> groups = {},
                 std::string ip = "10.0.0.5") {
  const size_t at = real.find_first_of("/@");
  return Impersonation{std::move(user), std::move(groups), real,
                       at == std::string::npos ? real : real.substr(0, at), std::move(ip)};
}

TEST(ProxyUsersTest, NoRulesRefusesInHadoopsWords) {
  const ProxyUsers none;
  Status s = none.Authorize(As("oozie@EXAMPLE.COM", "bob"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.java_class(), ipc::java::kAuthorization);
  EXPECT_EQ(s.message(), "User: oozie@EXAMPLE.COM is not allowed to impersonate bob");
}

TEST(ProxyUsersTest, UsersGroupsAndHosts) {
  const ProxyUsers rules =
      ProxyUsers::FromConfiguration(Conf({{"hadoop.proxyuser.oozie.users", "bob, carol"},
                                          {"hadoop.proxyuser.oozie.groups", "analysts"},
                                          {"hadoop.proxyuser.oozie.hosts", "10.0.0.0/24"}}),
                                    rm::HadoopLine::k3_3, &NoNames);
  EXPECT_TRUE(rules.Authorize(As("oozie@EXAMPLE.COM", "bob")).ok());
  EXPECT_TRUE(rules.Authorize(As("oozie@EXAMPLE.COM", "carol")).ok());
  EXPECT_TRUE(rules.Authorize(As("oozie@EXAMPLE.COM", "dave", {"staff", "analysts"})).ok());
  EXPECT_EQ(rules.Authorize(As("oozie@EXAMPLE.COM", "dave", {"staff"})).message(),
            "User: oozie@EXAMPLE.COM is not allowed to impersonate dave");
  EXPECT_EQ(rules.Authorize(As("oozie@EXAMPLE.COM", "bob", {}, "10.0.1.5")).message(),
            "Unauthorized connection for super-user: oozie@EXAMPLE.COM from IP 10.0.1.5");
  // Another super-user has no rules.
  EXPECT_FALSE(rules.Authorize(As("hive", "bob")).ok());
}

TEST(ProxyUsersTest, HostsWithoutUsersOrGroupsAllowNobody) {
  const ProxyUsers rules = ProxyUsers::FromConfiguration(
      Conf({{"hadoop.proxyuser.oozie.hosts", "*"}}), rm::HadoopLine::k3_3, &NoNames);
  EXPECT_FALSE(rules.Authorize(As("oozie", "bob")).ok());
  // And users without hosts: from nowhere.
  const ProxyUsers no_hosts = ProxyUsers::FromConfiguration(
      Conf({{"hadoop.proxyuser.oozie.groups", "*"}}), rm::HadoopLine::k3_3, &NoNames);
  EXPECT_EQ(no_hosts.Authorize(As("oozie", "bob")).message(),
            "Unauthorized connection for super-user: oozie from IP 10.0.0.5");
}

TEST(ProxyUsersTest, RmPrefixOverridesHadoopPrefix) {
  // RMServerUtils.processRMProxyUsersConf copies yarn.resourcemanager.proxyuser.*.
  const ProxyUsers rules =
      ProxyUsers::FromConfiguration(Conf({{"hadoop.proxyuser.oozie.users", "bob"},
                                          {"yarn.resourcemanager.proxyuser.oozie.users", "carol"},
                                          {"yarn.resourcemanager.proxyuser.oozie.hosts", "*"}}),
                                    rm::HadoopLine::k3_3, &NoNames);
  EXPECT_TRUE(rules.Authorize(As("oozie", "carol")).ok());
  EXPECT_FALSE(rules.Authorize(As("oozie", "bob")).ok());
}

TEST(ProxyUsersTest, SuperUserNamesWithDotsOnlyFrom33) {
  const rm::Configuration conf =
      Conf({{"hadoop.proxyuser.svc.etl.users", "*"}, {"hadoop.proxyuser.svc.etl.hosts", "*"}});
  // 2.6/2.7: [^.]* — the key is not a proxy-user key.
  EXPECT_FALSE(ProxyUsers::FromConfiguration(conf, rm::HadoopLine::k2_6, &NoNames)
                   .Authorize(As("svc.etl", "bob"))
                   .ok());
  // 3.3: [\S]*.
  EXPECT_TRUE(ProxyUsers::FromConfiguration(conf, rm::HadoopLine::k3_3, &NoNames)
                  .Authorize(As("svc.etl", "bob"))
                  .ok());
}

}  // namespace
}  // namespace spindle::security
