#include "security/auth_to_local.h"

#include <gtest/gtest.h>

namespace spindle::security {
namespace {

// The realm Hadoop's KerberosTestUtils.getRealm() gives its tests.
constexpr char kRealm[] = "EXAMPLE.COM";

// The rules of Hadoop 3.3's TestKerberosName.setUp (hadoop-auth,
// org.apache.hadoop.security.authentication.util).
constexpr char kTestKerberosNameRules[] =
    "RULE:[1:$1@$0](.*@YAHOO\\.COM)s/@.*//\n"
    "RULE:[2:$1](johndoe)s/^.*$/guest/\n"
    "RULE:[2:$1;$2](^.*;admin$)s/;admin$//\n"
    "RULE:[2:$2](root)\n"
    "DEFAULT";

AuthToLocal Rules(std::string_view rules, RuleMechanism mechanism = RuleMechanism::kHadoop) {
  Result<AuthToLocal> parsed = AuthToLocal::Parse(rules, mechanism, kRealm);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  return std::move(parsed).value();
}

std::string Short(const AuthToLocal& rules, std::string_view principal) {
  Result<std::string> name = rules.ShortName(principal);
  EXPECT_TRUE(name.ok()) << principal << ": " << name.status().ToString();
  return name.ok() ? *name : "<error>";
}

// TestKerberosName.testRules.
TEST(AuthToLocalTest, TestKerberosNameRules) {
  const AuthToLocal rules = Rules(kTestKerberosNameRules);
  EXPECT_EQ(Short(rules, "omalley@EXAMPLE.COM"), "omalley");
  EXPECT_EQ(Short(rules, "hdfs/10.0.0.1@EXAMPLE.COM"), "hdfs");
  EXPECT_EQ(Short(rules, "oom@YAHOO.COM"), "oom");
  EXPECT_EQ(Short(rules, "johndoe/zoo@FOO.COM"), "guest");
  EXPECT_EQ(Short(rules, "joe/admin@FOO.COM"), "joe");
  EXPECT_EQ(Short(rules, "joe/root@FOO.COM"), "root");
}

// TestKerberosName.testAntiPatterns: the translations that must fail with
// the hadoop mechanism, and map to themselves with mit.
TEST(AuthToLocalTest, TestKerberosNameAntiPatterns) {
  const AuthToLocal hadoop = Rules(kTestKerberosNameRules, RuleMechanism::kHadoop);
  Result<std::string> foo = hadoop.ShortName("foo@ACME.COM");
  ASSERT_FALSE(foo.ok());
  EXPECT_EQ(foo.status().message(), "No rules applied to foo@ACME.COM");
  Result<std::string> root_joe = hadoop.ShortName("root/joe@FOO.COM");
  ASSERT_FALSE(root_joe.ok());
  EXPECT_EQ(root_joe.status().message(), "No rules applied to root/joe@FOO.COM");

  const AuthToLocal mit = Rules(kTestKerberosNameRules, RuleMechanism::kMit);
  EXPECT_EQ(Short(mit, "foo@ACME.COM"), "foo@ACME.COM");
  EXPECT_EQ(Short(mit, "root/joe@FOO.COM"), "root/joe@FOO.COM");
}

// TestKerberosName.testToLowerCase: the /L flag of Hadoop 3.x.
TEST(AuthToLocalTest, TestKerberosNameToLowerCase) {
  const AuthToLocal rules = Rules(
      "RULE:[1:$1]/L\n"
      "RULE:[2:$1]/L\n"
      "RULE:[2:$1;$2](^.*;admin$)s/;admin$///L\n"
      "RULE:[2:$1;$2](^.*;guest$)s/;guest$//g/L\n"
      "DEFAULT");
  EXPECT_EQ(Short(rules, "Joe@FOO.COM"), "joe");
  EXPECT_EQ(Short(rules, "Joe/root@FOO.COM"), "joe");
  EXPECT_EQ(Short(rules, "Joe/admin@FOO.COM"), "joe");
  EXPECT_EQ(Short(rules, "Joe/guestguest@FOO.COM"), "joe");
}

// TestKerberosName.testInvalidRuleMechanism, and the names Java accepts.
TEST(AuthToLocalTest, RuleMechanismNames) {
  Result<RuleMechanism> invalid = AuthToLocal::ParseMechanism("INVALID_MECHANISM");
  ASSERT_FALSE(invalid.ok());
  EXPECT_EQ(invalid.status().message(), "Invalid rule mechanism: INVALID_MECHANISM");
  EXPECT_EQ(*AuthToLocal::ParseMechanism("HADOOP"), RuleMechanism::kHadoop);
  EXPECT_EQ(*AuthToLocal::ParseMechanism("Mit"), RuleMechanism::kMit);
}

// KerberosName.getRules prints each rule back as it was written.
TEST(AuthToLocalTest, RulesPrintBackAsWritten) {
  const AuthToLocal rules = Rules(
      "  RULE:[1:$1@$0](.*@YAHOO\\.COM)s/@.*//\n"
      "RULE:[2:$1;$2](^.*;guest$)s/;guest$//g/L\tRULE:[2:$2](root) DEFAULT/L");
  EXPECT_EQ(rules.ToString(),
            "RULE:[1:$1@$0](.*@YAHOO\\.COM)s/@.*//\n"
            "RULE:[2:$1;$2](^.*;guest$)s/;guest$//g/L\n"
            "RULE:[2:$2](root)\n"
            "DEFAULT");
}

TEST(AuthToLocalTest, UnparsableRulesAreRefusedNamingTheRest) {
  for (const char* bad : {"RULE:[1:$1", "DEFAULT garbage", "RULE[1:$1]", "RULE:[x:$1]"}) {
    Result<AuthToLocal> parsed = AuthToLocal::Parse(bad, RuleMechanism::kHadoop, kRealm);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().message().rfind("Invalid rule: ", 0), 0u)
        << parsed.status().message();
  }
  // Integer.parseInt("") fails in Java: a rule without a component count.
  Result<AuthToLocal> no_count = AuthToLocal::Parse("RULE:[:$1]", RuleMechanism::kHadoop, kRealm);
  ASSERT_FALSE(no_count.ok());
  EXPECT_NE(no_count.status().message().find("For input string: \"\""), std::string::npos);
  // A pattern that does not compile is refused, never skipped.
  Result<AuthToLocal> bad_pattern =
      AuthToLocal::Parse("RULE:[1:$1](a[)", RuleMechanism::kHadoop, kRealm);
  ASSERT_FALSE(bad_pattern.ok());
  EXPECT_NE(bad_pattern.status().message().find("does not compile"), std::string::npos);
}

// A substitution that is not closed leaves the rule without it; the rest is
// then not a rule (Java's ruleParser backs off the same way).
TEST(AuthToLocalTest, UnclosedSubstitutionIsNotPartOfTheRule) {
  Result<AuthToLocal> parsed =
      AuthToLocal::Parse("RULE:[1:$1]s/a/b", RuleMechanism::kHadoop, kRealm);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), "Invalid rule: s/a/b");
}

TEST(AuthToLocalTest, NonSimpleResultIsAnErrorWithHadoopMechanism) {
  const AuthToLocal rules = Rules("RULE:[1:$1@$0]");
  Result<std::string> name = rules.ShortName("alice@EXAMPLE.COM");
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.status().message(),
            "Non-simple name alice@EXAMPLE.COM after auth_to_local rule RULE:[1:$1@$0]");
  const AuthToLocal mit = Rules("RULE:[1:$1@$0]", RuleMechanism::kMit);
  EXPECT_EQ(Short(mit, "alice@EXAMPLE.COM"), "alice@EXAMPLE.COM");
}

TEST(AuthToLocalTest, FormatIndexOutsideTheComponentsIsAnError) {
  const AuthToLocal rules = Rules("RULE:[1:$2]");
  Result<std::string> name = rules.ShortName("alice@EXAMPLE.COM");
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.status().message(), "index 2 from $2 is outside of the valid range 0 to 1");
  Result<std::string> dangling = Rules("RULE:[1:$1$]").ShortName("alice@EXAMPLE.COM");
  ASSERT_FALSE(dangling.ok());
  EXPECT_EQ(dangling.status().message(), "bad format in username mapping in ");
}

// Replacement strings as Java's Matcher expands them: group references,
// backslash escapes, first match or every match (g), and empty matches.
TEST(AuthToLocalTest, SubstitutionFollowsJavaReplacementRules) {
  EXPECT_EQ(Short(Rules("RULE:[1:$1]s/(a+)(b)/$2$1/"), "xaabaab@EXAMPLE.COM"), "xbaaaab");
  EXPECT_EQ(Short(Rules("RULE:[1:$1]s/(a+)(b)/$2$1/g"), "xaabaab@EXAMPLE.COM"), "xbaabaa");
  EXPECT_EQ(Short(Rules("RULE:[1:$1]s/a/\\$/g"), "banana@EXAMPLE.COM"), "b$n$n$");
  // $12 with one group is group 1 then '2'.
  EXPECT_EQ(Short(Rules("RULE:[1:$1]s/(n)/$12/"), "ana@EXAMPLE.COM"), "an2a");
  // Java's find moves one character on after an empty match.
  EXPECT_EQ(Short(Rules("RULE:[1:$1]s/x*/-/g"), "abc@EXAMPLE.COM"), "-a-b-c-");
  Result<std::string> illegal = Rules("RULE:[1:$1]s/a/$x/").ShortName("a@EXAMPLE.COM");
  ASSERT_FALSE(illegal.ok());
  EXPECT_EQ(illegal.status().message(), "Illegal group reference");
}

TEST(AuthToLocalTest, DefaultRuleMapsOnlyTheDefaultRealm) {
  const AuthToLocal rules = Rules("DEFAULT");
  EXPECT_EQ(Short(rules, "alice@EXAMPLE.COM"), "alice");
  EXPECT_EQ(Short(rules, "nm/host1.example.com@EXAMPLE.COM"), "nm");
  EXPECT_FALSE(rules.ShortName("alice@OTHER.COM").ok());
  // A name with neither host nor realm is already short.
  EXPECT_EQ(Short(rules, "bob"), "bob");
}

TEST(AuthToLocalTest, FromConfigurationDefaultsByAuthenticationMethod) {
  rm::Configuration conf;
  // Kerberos: DEFAULT, and a default realm is required.
  Result<AuthToLocal> kerberos =
      AuthToLocal::FromConfiguration(conf, AuthenticationMethod::kKerberos, kRealm);
  ASSERT_TRUE(kerberos.ok()) << kerberos.status().ToString();
  EXPECT_EQ(kerberos->ToString(), "DEFAULT");
  Result<AuthToLocal> no_realm =
      AuthToLocal::FromConfiguration(conf, AuthenticationMethod::kKerberos, "");
  ASSERT_FALSE(no_realm.ok());
  EXPECT_EQ(no_realm.status().message(), "Can't get Kerberos realm");
  // Simple: the first component of one- and two-part names.
  Result<AuthToLocal> simple =
      AuthToLocal::FromConfiguration(conf, AuthenticationMethod::kSimple, "");
  ASSERT_TRUE(simple.ok());
  EXPECT_EQ(Short(*simple, "carol/h@ANY.REALM"), "carol");

  conf.Set(std::string(kAuthToLocalKey), "RULE:[2:$1@$0](nm@.*)s/.*/yarn/ DEFAULT");
  conf.Set(std::string(kAuthToLocalMechanismKey), "bogus");
  EXPECT_FALSE(AuthToLocal::FromConfiguration(conf, AuthenticationMethod::kKerberos, kRealm).ok());
  conf.Set(std::string(kAuthToLocalMechanismKey), "HADOOP");
  Result<AuthToLocal> configured =
      AuthToLocal::FromConfiguration(conf, AuthenticationMethod::kKerberos, kRealm);
  ASSERT_TRUE(configured.ok()) << configured.status().ToString();
  EXPECT_EQ(Short(*configured, "nm/host1@EXAMPLE.COM"), "yarn");
  EXPECT_EQ(Short(*configured, "rm/host1@EXAMPLE.COM"), "rm");
}

}  // namespace
}  // namespace spindle::security
