#include "security/authentication_method.h"

#include <gtest/gtest.h>

namespace spindle::security {
namespace {

TEST(AuthenticationMethodTest, SimpleAndKerberosInAnyCase) {
  EXPECT_EQ(*ParseAuthenticationMethod("simple"), AuthenticationMethod::kSimple);
  EXPECT_EQ(*ParseAuthenticationMethod("KERBEROS"), AuthenticationMethod::kKerberos);
  EXPECT_EQ(*ParseAuthenticationMethod("Kerberos"), AuthenticationMethod::kKerberos);
  rm::Configuration unset;
  EXPECT_EQ(*AuthenticationMethodFromConfiguration(unset), AuthenticationMethod::kSimple);
}

// SecurityUtil.getAuthenticationMethod (3.3): no trimming, Hadoop's message.
TEST(AuthenticationMethodTest, UnknownValueIsRefusedInHadoopsWords) {
  for (const char* bad : {"kerberos ", "krb5", ""}) {
    Result<AuthenticationMethod> method = ParseAuthenticationMethod(bad);
    ASSERT_FALSE(method.ok()) << bad;
    EXPECT_EQ(method.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(method.status().message(),
              std::string("Invalid attribute value for hadoop.security.authentication of ") + bad);
  }
}

TEST(AuthenticationMethodTest, OtherJavaMethodsAreRefusedAsUnsupported) {
  for (const char* other : {"token", "certificate", "kerberos_ssl", "proxy"}) {
    Result<AuthenticationMethod> method = ParseAuthenticationMethod(other);
    ASSERT_FALSE(method.ok()) << other;
    EXPECT_EQ(method.status().code(), Status::Code::kNotSupported);
  }
}

}  // namespace
}  // namespace spindle::security
