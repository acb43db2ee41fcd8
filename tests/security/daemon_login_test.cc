#include "security/daemon_login.h"

#include <gtest/gtest.h>

namespace spindle::security {
namespace {

TEST(DaemonLoginTest, SimpleLogsNothingIn) {
  rm::Configuration conf;
  Result<DaemonIdentity> identity = LoginDaemon(conf, kResourceManagerLoginKeys, "0.0.0.0");
  ASSERT_TRUE(identity.ok()) << identity.status().ToString();
  EXPECT_EQ(identity->method, AuthenticationMethod::kSimple);
  EXPECT_EQ(identity->credentials, nullptr);
}

TEST(DaemonLoginTest, UnknownAuthenticationStopsTheDaemon) {
  rm::Configuration conf;
  conf.Set("hadoop.security.authentication", "kerberso");
  Result<DaemonIdentity> identity = LoginDaemon(conf, kNodeManagerLoginKeys, "");
  ASSERT_FALSE(identity.ok());
  EXPECT_EQ(identity.status().message(),
            "Invalid attribute value for hadoop.security.authentication of kerberso");
}

// SecurityUtil.login (3.3): secure mode without a keytab key.
TEST(DaemonLoginTest, KerberosWithoutKeytabStopsTheDaemon) {
  rm::Configuration conf;
  conf.Set("hadoop.security.authentication", "kerberos");
  conf.Set("yarn.resourcemanager.principal", "rm/_HOST@EXAMPLE.COM");
  Result<DaemonIdentity> identity = LoginDaemon(conf, kResourceManagerLoginKeys, "rm1.example.com");
  ASSERT_FALSE(identity.ok());
  EXPECT_EQ(
      identity.status().message(),
      "Running in secure mode, but config doesn't have a keytab (yarn.resourcemanager.keytab)");
}

TEST(DaemonLoginTest, KerberosWithMissingKeytabFileNamesPrincipalAndKeytab) {
  rm::Configuration conf;
  conf.Set("hadoop.security.authentication", "kerberos");
  conf.Set("yarn.nodemanager.principal", "nm/_HOST@EXAMPLE.COM");
  conf.Set("yarn.nodemanager.keytab", "/nonexistent/nm.keytab");
  Result<DaemonIdentity> identity = LoginDaemon(conf, kNodeManagerLoginKeys, "NM1.example.com");
  ASSERT_FALSE(identity.ok());
  EXPECT_EQ(identity.status().code(), Status::Code::kUnauthorized);
  EXPECT_EQ(identity.status().message(),
            "Login failure for user: nm/nm1.example.com@EXAMPLE.COM from keytab "
            "/nonexistent/nm.keytab keytab file is missing or not readable");
}

}  // namespace
}  // namespace spindle::security
