#include "security/server_principal.h"

#include <gtest/gtest.h>

namespace spindle::security {
namespace {

// SecurityUtil.getServerPrincipal (3.3): only "x/_HOST@R" is rewritten, with
// the host lower-cased.
TEST(ServerPrincipalTest, HostPlaceholderIsReplacedByTheLowerCasedHost) {
  EXPECT_EQ(*ServerPrincipal("rm/_HOST@EXAMPLE.COM", "Node1.Example.COM", "local"),
            "rm/node1.example.com@EXAMPLE.COM");
}

TEST(ServerPrincipalTest, WildcardOrEmptyHostMeansThisMachine) {
  EXPECT_EQ(*ServerPrincipal("rm/_HOST@EXAMPLE.COM", "0.0.0.0", "Me.Local"),
            "rm/me.local@EXAMPLE.COM");
  EXPECT_EQ(*ServerPrincipal("rm/_HOST@EXAMPLE.COM", "", "me.local"), "rm/me.local@EXAMPLE.COM");
  Result<std::string> real = ServerPrincipal("rm/_HOST@EXAMPLE.COM", "0.0.0.0");
  ASSERT_TRUE(real.ok());
  EXPECT_EQ(real->find("_HOST"), std::string::npos);
  EXPECT_EQ(real->rfind("rm/", 0), 0u);
}

TEST(ServerPrincipalTest, OtherShapesAreUsedAsWritten) {
  for (const char* written : {"rm/fixed.host@EXAMPLE.COM", "rm@EXAMPLE.COM", "rm/_HOST",
                              "_HOST/rm@EXAMPLE.COM", "rm/_HOST@A@B", "rm/_host@EXAMPLE.COM"}) {
    EXPECT_EQ(*ServerPrincipal(written, "h", "local"), written);
  }
  // Java's split drops trailing empty parts: "rm/_HOST@" has two.
  EXPECT_EQ(*ServerPrincipal("rm/_HOST@", "h", "local"), "rm/_HOST@");
}

}  // namespace
}  // namespace spindle::security
