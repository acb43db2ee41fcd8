// Keytab log-in against a real MIT KDC (tests/support/mini_kdc).
#include "security/kerberos_credentials.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "security/daemon_login.h"
#include "tests/support/mini_kdc.h"

namespace spindle::security {
namespace {

class KerberosCredentialsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("spindle-krb-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    Result<std::unique_ptr<testing::MiniKdc>> kdc = testing::MiniKdc::StartFresh(dir_.string());
    ASSERT_TRUE(kdc.ok()) << kdc.status().ToString();
    kdc_ = std::move(kdc).value();
    ASSERT_TRUE(kdc_->AddPrincipal("rm/rm1.spindle.test").ok());
    ASSERT_TRUE(kdc_->AddPrincipal("nm/nm1.spindle.test").ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"rm/rm1.spindle.test"}, keytab("rm")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"nm/nm1.spindle.test"}, keytab("nm")).ok());
  }
  void TearDown() override {
    kdc_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::string keytab(const std::string& name) const { return (dir_ / (name + ".keytab")).string(); }

  std::filesystem::path dir_;
  std::unique_ptr<testing::MiniKdc> kdc_;
};

TEST_F(KerberosCredentialsTest, LogsInFromAKeytabAndKeepsTheTicketPrivate) {
  Result<std::unique_ptr<KerberosCredentials>> login =
      KerberosCredentials::LoginFromKeytab("rm/rm1.spindle.test@SPINDLE.TEST", keytab("rm"));
  ASSERT_TRUE(login.ok()) << login.status().ToString();
  EXPECT_EQ((*login)->principal(), "rm/rm1.spindle.test@SPINDLE.TEST");
  EXPECT_EQ((*login)->cache_name().rfind("MEMORY:", 0), 0u);
  // The realm comes from krb5.conf when the principal has none.
  Result<std::unique_ptr<KerberosCredentials>> unqualified =
      KerberosCredentials::LoginFromKeytab("rm/rm1.spindle.test", keytab("rm"));
  ASSERT_TRUE(unqualified.ok()) << unqualified.status().ToString();
  EXPECT_EQ((*unqualified)->principal(), "rm/rm1.spindle.test@SPINDLE.TEST");
  EXPECT_EQ(*DefaultKerberosRealm(), "SPINDLE.TEST");
}

TEST_F(KerberosCredentialsTest, APrincipalNotInTheKeytabIsRefused) {
  Result<std::unique_ptr<KerberosCredentials>> login =
      KerberosCredentials::LoginFromKeytab("nm/nm1.spindle.test@SPINDLE.TEST", keytab("rm"));
  ASSERT_FALSE(login.ok());
  EXPECT_EQ(login.status().code(), Status::Code::kUnauthorized);
  EXPECT_EQ(
      login.status().message().rfind("Login failure for user: nm/nm1.spindle.test@SPINDLE.TEST "
                                     "from keytab " +
                                         keytab("rm") + " ",
                                     0),
      0u)
      << login.status().message();
}

TEST_F(KerberosCredentialsTest, AnUnknownPrincipalIsRefusedByTheKdc) {
  // A keytab of a principal the KDC then forgets: the KDC says no.
  ASSERT_TRUE(kdc_->AddPrincipal("gone/host").ok());
  ASSERT_TRUE(kdc_->ExportKeytab({"gone/host"}, keytab("gone")).ok());
  ASSERT_TRUE(kdc_->DeletePrincipal("gone/host").ok());
  Result<std::unique_ptr<KerberosCredentials>> login =
      KerberosCredentials::LoginFromKeytab("gone/host@SPINDLE.TEST", keytab("gone"));
  ASSERT_FALSE(login.ok());
  EXPECT_NE(login.status().message().find("not found in Kerberos database"), std::string::npos)
      << login.status().message();
}

TEST_F(KerberosCredentialsTest, AnUnreachableKdcStopsTheLogin) {
  kdc_->Stop();
  Result<std::unique_ptr<KerberosCredentials>> login =
      KerberosCredentials::LoginFromKeytab("rm/rm1.spindle.test@SPINDLE.TEST", keytab("rm"));
  ASSERT_FALSE(login.ok());
  EXPECT_NE(login.status().message().find("Cannot contact any KDC"), std::string::npos)
      << login.status().message();
}

// SecurityUtil.login as the RM does it: _HOST from the RM's address.
TEST_F(KerberosCredentialsTest, DaemonLoginFillsInHostAndReadsAuthToLocal) {
  rm::Configuration conf;
  conf.Set("hadoop.security.authentication", "kerberos");
  conf.Set("yarn.resourcemanager.principal", "rm/_HOST@SPINDLE.TEST");
  conf.Set("yarn.resourcemanager.keytab", keytab("rm"));
  conf.Set("hadoop.security.auth_to_local", "RULE:[2:$1@$0](nm@.*)s/.*/yarn/ DEFAULT");
  Result<DaemonIdentity> identity =
      LoginDaemon(conf, kResourceManagerLoginKeys, "RM1.spindle.test");
  ASSERT_TRUE(identity.ok()) << identity.status().ToString();
  EXPECT_EQ(identity->method, AuthenticationMethod::kKerberos);
  ASSERT_NE(identity->credentials, nullptr);
  EXPECT_EQ(identity->credentials->principal(), "rm/rm1.spindle.test@SPINDLE.TEST");
  EXPECT_EQ(*identity->auth_to_local.ShortName("nm/nm1.spindle.test@SPINDLE.TEST"), "yarn");
  EXPECT_EQ(*identity->auth_to_local.ShortName("alice@SPINDLE.TEST"), "alice");

  // The wrong host: no such key in the keytab.
  Result<DaemonIdentity> wrong_host =
      LoginDaemon(conf, kResourceManagerLoginKeys, "rm2.spindle.test");
  ASSERT_FALSE(wrong_host.ok());
  EXPECT_NE(wrong_host.status().message().find("rm/rm2.spindle.test@SPINDLE.TEST"),
            std::string::npos);
}

}  // namespace
}  // namespace spindle::security
