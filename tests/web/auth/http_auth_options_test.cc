// Which filters the RM's web runs, from Hadoop's keys (Hadoop 3.3's
// RMWebAppUtil.setupSecurityAndFilters and AuthenticationFilterInitializer).
#include "web/auth/http_auth_options.h"

#include <gtest/gtest.h>

namespace spindle::web::auth {
namespace {

using security::AuthenticationMethod;

rm::Configuration Conf(const std::map<std::string, std::string>& values) {
  rm::Configuration conf;
  for (const auto& [key, value] : values) conf.Set(key, value);
  return conf;
}

TEST(HttpAuthOptionsTest, ANonSecureRmTakesUserNameThenTheStaticUser) {
  Result<HttpAuthOptions> options =
      HttpAuthOptions::FromConfiguration(Conf({}), AuthenticationMethod::kSimple, "127.0.0.1");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->filter, AuthFilterKind::kResourceManager);
  EXPECT_EQ(options->type, AuthType::kSimple);
  EXPECT_EQ(options->TokenType(), "simple-dt");
  EXPECT_TRUE(options->static_user_filter);
  EXPECT_TRUE(options->static_user_last);
  EXPECT_TRUE(options->anonymous_allowed);
  EXPECT_EQ(options->validity_seconds, 36000);
  EXPECT_EQ(options->cookie_path, "/");
  // The type is forced to simple, as RMWebAppUtil sets it.
  options =
      HttpAuthOptions::FromConfiguration(Conf({{"hadoop.http.filter.initializers", ""},
                                               {"hadoop.http.authentication.type", "kerberos"}}),
                                         AuthenticationMethod::kSimple, "127.0.0.1");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->filter, AuthFilterKind::kResourceManager);
  EXPECT_EQ(options->type, AuthType::kSimple);
  EXPECT_FALSE(options->static_user_filter);
}

TEST(HttpAuthOptionsTest, ASecureRmAuthenticatesOnlyWhenTold) {
  Result<HttpAuthOptions> options =
      HttpAuthOptions::FromConfiguration(Conf({}), AuthenticationMethod::kKerberos, "127.0.0.1");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->filter, AuthFilterKind::kNone);
  EXPECT_TRUE(options->static_user_filter);

  const auto kerberos =
      Conf({{"hadoop.http.filter.initializers",
             std::string(kAuthenticationFilterInitializer) + "," + kStaticUserWebFilter},
            {"hadoop.http.authentication.type", "kerberos"},
            {"hadoop.http.authentication.kerberos.principal", "HTTP/_HOST@SPINDLE.TEST"},
            {"hadoop.http.authentication.kerberos.keytab", "/etc/http.keytab"},
            {"hadoop.http.authentication.token.validity", "60"},
            {"hadoop.http.authentication.cookie.domain", "spindle.test"}});
  options = HttpAuthOptions::FromConfiguration(kerberos, AuthenticationMethod::kKerberos,
                                               "RM1.spindle.test");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->filter, AuthFilterKind::kResourceManager);
  EXPECT_EQ(options->TokenType(), "kerberos-dt");
  EXPECT_EQ(options->principal, "HTTP/rm1.spindle.test@SPINDLE.TEST");
  EXPECT_EQ(options->keytab, "/etc/http.keytab");
  EXPECT_EQ(options->validity_seconds, 60);
  EXPECT_EQ(options->cookie_domain, "spindle.test");
  EXPECT_TRUE(options->static_user_last);
  // core-default's secret file (a random secret when it cannot be read).
  ASSERT_TRUE(options->secret_file.has_value());
  EXPECT_TRUE(options->secret_file->ends_with("/hadoop-http-auth-signature-secret"))
      << *options->secret_file;

  // Without Kerberos logins the plain filter stays: its tokens say "kerberos".
  options = HttpAuthOptions::FromConfiguration(kerberos, AuthenticationMethod::kSimple,
                                               "rm1.spindle.test");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->filter, AuthFilterKind::kHadoop);
  EXPECT_EQ(options->TokenType(), "kerberos");
}

TEST(HttpAuthOptionsTest, KerberosDefaultsAreCoreDefaults) {
  Result<HttpAuthOptions> options = HttpAuthOptions::FromConfiguration(
      Conf({{"hadoop.http.filter.initializers", kAuthenticationFilterInitializer},
            {"hadoop.http.authentication.type", "kerberos"}}),
      AuthenticationMethod::kKerberos, "web.spindle.test");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->principal, "HTTP/web.spindle.test@LOCALHOST");
  EXPECT_TRUE(options->keytab.ends_with("/hadoop.keytab")) << options->keytab;
  EXPECT_EQ(options->keytab.find("${"), std::string::npos) << options->keytab;
  EXPECT_TRUE(options->endpoint_whitelist.empty());
  options = HttpAuthOptions::FromConfiguration(
      Conf({{"hadoop.http.filter.initializers", kAuthenticationFilterInitializer},
            {"hadoop.http.authentication.type", "kerberos"},
            {"hadoop.http.authentication.kerberos.endpoint.whitelist", " /jmx ,\n/isActive,,"}}),
      AuthenticationMethod::kKerberos, "web.spindle.test");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->endpoint_whitelist, (std::vector<std::string>{"/jmx", "/isActive"}));
  options = HttpAuthOptions::FromConfiguration(
      Conf({{"hadoop.http.filter.initializers", kAuthenticationFilterInitializer},
            {"hadoop.http.authentication.type", "kerberos"},
            {"hadoop.http.authentication.kerberos.endpoint.whitelist", "/ws/v1"}}),
      AuthenticationMethod::kKerberos, "web.spindle.test");
  EXPECT_EQ(options.status().code(), Status::Code::kInvalidArgument);
}

TEST(HttpAuthOptionsTest, TheStaticUserBeforeAuthenticationIsOverridden) {
  Result<HttpAuthOptions> options = HttpAuthOptions::FromConfiguration(
      Conf({{"hadoop.http.filter.initializers",
             std::string(kStaticUserWebFilter) + " , " + kRmAuthenticationFilterInitializer}}),
      AuthenticationMethod::kKerberos, "h");
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->filter, AuthFilterKind::kResourceManager);
  EXPECT_TRUE(options->static_user_filter);
  EXPECT_FALSE(options->static_user_last);
}

TEST(HttpAuthOptionsTest, RefusesWhatItCannotHonour) {
  const auto refused = [](const std::map<std::string, std::string>& values) {
    return HttpAuthOptions::FromConfiguration(Conf(values), AuthenticationMethod::kKerberos, "h")
        .status();
  };
  const std::string afi = kAuthenticationFilterInitializer;
  Status status = refused({{"hadoop.http.filter.initializers",
                            afi + ",org.apache.hadoop.security.HttpCrossOriginFilterInitializer"}});
  EXPECT_EQ(status.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(status.message().find("org.apache.hadoop.security.HttpCrossOriginFilterInitializer"),
            std::string::npos)
      << status.ToString();
  status = refused(
      {{"hadoop.http.filter.initializers", afi}, {"hadoop.http.authentication.type", "ldap"}});
  EXPECT_NE(status.message().find("not ldap"), std::string::npos) << status.ToString();
  status = refused({{"hadoop.http.filter.initializers", afi},
                    {"hadoop.http.authentication.type", "kerberos"},
                    {"hadoop.http.authentication.kerberos.principal", " "}});
  EXPECT_NE(status.message().find("Principal not defined"), std::string::npos) << status.ToString();
  status = refused({{"hadoop.http.filter.initializers", afi},
                    {"hadoop.http.authentication.type", "kerberos"},
                    {"hadoop.http.authentication.kerberos.keytab", ""}});
  EXPECT_NE(status.message().find("Keytab not defined"), std::string::npos) << status.ToString();
  status = refused({{"hadoop.http.filter.initializers", afi},
                    {"hadoop.http.authentication.signer.secret.provider", "zookeeper"}});
  EXPECT_EQ(status.code(), Status::Code::kInvalidArgument);
  status = refused({{"hadoop.http.filter.initializers", afi},
                    {"hadoop.http.authentication.token.validity", "ten hours"}});
  EXPECT_EQ(status.code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace spindle::web::auth
