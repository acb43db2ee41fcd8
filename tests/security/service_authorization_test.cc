#include "security/service_authorization.h"

#include <gtest/gtest.h>

#include "wire/ipc/error_mapping.h"

namespace spindle::security {
namespace {

constexpr char kClient[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kTracker[] = "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";
constexpr char kAdmin[] =
    "org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocolPB";

std::vector<std::string> NoNames(const std::string&) { return {}; }

rm::Configuration Policy(const std::map<std::string, std::string>& values) {
  rm::Configuration conf;
  for (const auto& [key, value] : values) conf.Set(key, value);
  return conf;
}

AuthorizedCaller Kerberos(const std::string& principal, const std::string& short_name,
                          std::vector<std::string> groups = {}, std::string ip = "127.0.0.1") {
  return AuthorizedCaller{principal, short_name, std::move(groups), principal + " (auth:KERBEROS)",
                          std::move(ip)};
}

TEST(ServiceAuthorizationTest, EmptyPolicyAllowsEveryoneOnKnownProtocols) {
  const ServiceAuthorization policy =
      ServiceAuthorization::FromPolicy(Policy({}), rm::HadoopLine::k3_3, &NoNames);
  EXPECT_TRUE(policy.Authorize(Kerberos("alice@R", "alice"), kClient, std::nullopt).ok());
  EXPECT_TRUE(policy.Authorize(Kerberos("alice@R", "alice"), kTracker, std::nullopt).ok());
  Status unknown =
      policy.Authorize(Kerberos("alice@R", "alice"), "org.example.Nothing", std::nullopt);
  EXPECT_EQ(unknown.java_class(), ipc::java::kAuthorization);
  EXPECT_EQ(unknown.message(), "Unknown protocol: org.example.Nothing");
  EXPECT_EQ(policy.Authorize(Kerberos("alice@R", "alice"), "", std::nullopt).message(),
            "Null protocol not authorized");
}

TEST(ServiceAuthorizationTest, AclsInHadoop33Words) {
  const ServiceAuthorization policy = ServiceAuthorization::FromPolicy(
      Policy({{"security.resourcetracker.protocol.acl", "yarn"},
              {"security.applicationclient.protocol.acl", "alice analysts"},
              {"security.resourcemanager-administration.protocol.acl", " "}}),
      rm::HadoopLine::k3_3, &NoNames);
  EXPECT_TRUE(policy.Authorize(Kerberos("nm/h@R", "yarn"), kTracker, std::nullopt).ok());
  Status forged = policy.Authorize(Kerberos("alice@R", "alice"), kTracker, std::nullopt);
  ASSERT_FALSE(forged.ok());
  EXPECT_EQ(forged.java_class(), ipc::java::kAuthorization);
  EXPECT_EQ(forged.message(),
            "User alice@R (auth:KERBEROS) is not authorized for protocol interface "
            "org.apache.hadoop.yarn.server.api.ResourceTrackerPB: denied by configured ACL");
  EXPECT_TRUE(policy.Authorize(Kerberos("alice@R", "alice"), kClient, std::nullopt).ok());
  EXPECT_TRUE(
      policy.Authorize(Kerberos("bob@R", "bob", {"staff", "analysts"}), kClient, std::nullopt)
          .ok());
  EXPECT_FALSE(policy.Authorize(Kerberos("bob@R", "bob", {"staff"}), kClient, std::nullopt).ok());
  // A blank ACL: nobody.
  EXPECT_FALSE(policy.Authorize(Kerberos("alice@R", "alice"), kAdmin, std::nullopt).ok());
  // The client principal a protocol insists on.
  Status wrong_nm = policy.Authorize(Kerberos("nm/h@R", "yarn"), kTracker, "nm/other@R");
  EXPECT_EQ(wrong_nm.message(),
            "User nm/h@R (auth:KERBEROS) is not authorized for protocol interface "
            "org.apache.hadoop.yarn.server.api.ResourceTrackerPB: this service is only "
            "accessible by nm/other@R");
  EXPECT_TRUE(policy.Authorize(Kerberos("nm/h@R", "yarn"), kTracker, "nm/h@R").ok());
}

TEST(ServiceAuthorizationTest, Hadoop26WordsAndNoHostLists) {
  const ServiceAuthorization policy = ServiceAuthorization::FromPolicy(
      Policy({{"security.applicationclient.protocol.acl", "alice"},
              {"security.applicationclient.protocol.hosts", "10.9.9.9"}}),
      rm::HadoopLine::k2_6, &NoNames);
  EXPECT_EQ(policy.Authorize(Kerberos("bob@R", "bob"), kClient, std::nullopt).message(),
            "User bob@R (auth:KERBEROS) is not authorized for protocol interface "
            "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB, expected client Kerberos "
            "principal is null");
  // 2.6 has no host lists: the .hosts key is not read.
  EXPECT_TRUE(policy.Authorize(Kerberos("alice@R", "alice"), kClient, std::nullopt).ok());
  // Nor distributed scheduling (3.3 only).
  EXPECT_EQ(
      policy
          .Authorize(Kerberos("alice@R", "alice"),
                     "org.apache.hadoop.yarn.server.api.DistributedSchedulingAMProtocolPB",
                     std::nullopt)
          .message(),
      "Unknown protocol: org.apache.hadoop.yarn.server.api.DistributedSchedulingAMProtocolPB");
}

TEST(ServiceAuthorizationTest, BlockedAclsDefaultsAndHostLists) {
  const ServiceAuthorization policy = ServiceAuthorization::FromPolicy(
      Policy({{"security.service.authorization.default.acl", "alice,bob"},
              {"security.service.authorization.default.acl.blocked", "bob"},
              {"security.applicationclient.protocol.hosts", "127.0.0.0/8"},
              {"security.applicationclient.protocol.hosts.blocked", "127.0.0.9"}}),
      rm::HadoopLine::k3_3, &NoNames);
  EXPECT_TRUE(policy.Authorize(Kerberos("alice@R", "alice"), kAdmin, std::nullopt).ok());
  EXPECT_FALSE(policy.Authorize(Kerberos("bob@R", "bob"), kAdmin, std::nullopt).ok());
  EXPECT_FALSE(policy.Authorize(Kerberos("carol@R", "carol"), kAdmin, std::nullopt).ok());
  EXPECT_TRUE(policy.Authorize(Kerberos("alice@R", "alice"), kClient, std::nullopt).ok());
  EXPECT_EQ(policy.Authorize(Kerberos("alice@R", "alice", {}, "10.0.0.1"), kClient, std::nullopt)
                .message(),
            "Host 10.0.0.1 is not authorized for protocol interface "
            "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB");
  EXPECT_FALSE(
      policy.Authorize(Kerberos("alice@R", "alice", {}, "127.0.0.9"), kClient, std::nullopt).ok());
}

}  // namespace
}  // namespace spindle::security
