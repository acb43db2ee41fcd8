#include "security/kerberos_name.h"

#include <gtest/gtest.h>

namespace spindle::security {
namespace {

// Hadoop 3.3's TestKerberosName.testParsing.
TEST(KerberosNameTest, TestKerberosNameParsing) {
  Result<KerberosName> full = KerberosName::Parse("HTTP/abc.com@EXAMPLE.COM");
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->service, "HTTP");
  EXPECT_EQ(full->host, "abc.com");
  EXPECT_EQ(full->realm, "EXAMPLE.COM");

  Result<KerberosName> no_realm = KerberosName::Parse("HTTP/abc.com");
  ASSERT_TRUE(no_realm.ok());
  EXPECT_EQ(no_realm->service, "HTTP");
  EXPECT_EQ(no_realm->host, "abc.com");
  EXPECT_EQ(no_realm->realm, std::nullopt);

  Result<KerberosName> no_host = KerberosName::Parse("HTTP@EXAMPLE.COM");
  ASSERT_TRUE(no_host.ok());
  EXPECT_EQ(no_host->service, "HTTP");
  EXPECT_EQ(no_host->host, std::nullopt);
  EXPECT_EQ(no_host->realm, "EXAMPLE.COM");
  EXPECT_EQ(no_host->ToString(), "HTTP@EXAMPLE.COM");
}

// TestKerberosName.testAntiPatterns: checkBadName.
TEST(KerberosNameTest, TestKerberosNameBadNames) {
  for (const char* bad : {"owen/owen/owen@FOO.COM", "owen@foo/bar.com"}) {
    Result<KerberosName> parsed = KerberosName::Parse(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().message(), std::string("Malformed Kerberos name: ") + bad);
  }
}

// Without '@' a name Java's pattern does not match is one simple name.
TEST(KerberosNameTest, UnmatchedNameWithoutRealmIsTakenWhole) {
  Result<KerberosName> parsed = KerberosName::Parse("a/b/c");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->service, "a/b/c");
  EXPECT_EQ(parsed->host, std::nullopt);
  EXPECT_EQ(parsed->realm, std::nullopt);
}

}  // namespace
}  // namespace spindle::security
