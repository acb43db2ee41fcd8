#include "rm/queues/access_control_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace spindle::rm {
namespace {

using ::testing::ElementsAre;

TEST(AccessControlListTest, Wildcard) {
  for (const char* text : {"*", " * ", "* ", " *", "*  "}) {
    AccessControlList acl = AccessControlList::Parse(text);
    EXPECT_TRUE(acl.allows_all()) << "'" << text << "'";
    EXPECT_TRUE(acl.IsUserAllowed("anyone", {}));
    EXPECT_EQ(acl.ToString(), "*");
  }
  // A "*" among names is not the wildcard (Hadoop: the part must be "*").
  EXPECT_FALSE(AccessControlList::Parse("alice,*").allows_all());
}

TEST(AccessControlListTest, Nobody) {
  for (const char* text : {" ", "", "  ", ","}) {
    AccessControlList acl = AccessControlList::Parse(text);
    EXPECT_FALSE(acl.allows_all());
    EXPECT_FALSE(acl.IsUserAllowed("alice", {"alice", "users"})) << "'" << text << "'";
    EXPECT_EQ(acl.ToString(), " ");
  }
  EXPECT_FALSE(AccessControlList().IsUserAllowed("root", {"root"}));
  EXPECT_EQ(AccessControlList(), AccessControlList::AllowNone());
}

TEST(AccessControlListTest, UsersBeforeTheFirstSpaceGroupsAfter) {
  AccessControlList acl = AccessControlList::Parse("alice,bob admins , ops,");
  EXPECT_THAT(acl.users(), ElementsAre("alice", "bob"));
  EXPECT_THAT(acl.groups(), ElementsAre("admins", "ops"));
  EXPECT_TRUE(acl.IsUserAllowed("alice", {}));
  EXPECT_TRUE(acl.IsUserAllowed("carol", {"staff", "ops"}));
  EXPECT_FALSE(acl.IsUserAllowed("carol", {"staff"}));
  // Group names are not user names and vice versa.
  EXPECT_FALSE(acl.IsUserAllowed("admins", {}));
  EXPECT_FALSE(acl.IsUserAllowed("dave", {"alice"}));
  EXPECT_EQ(acl.ToString(), "alice,bob admins,ops");
  // As in Hadoop, the first space ends the users, even after a comma.
  AccessControlList spaced = AccessControlList::Parse("alice, bob ops");
  EXPECT_THAT(spaced.users(), ElementsAre("alice"));
  EXPECT_THAT(spaced.groups(), ElementsAre("bob ops"));

  AccessControlList groups_only = AccessControlList::Parse(" hadoop");
  EXPECT_TRUE(groups_only.users().empty());
  EXPECT_TRUE(groups_only.IsUserAllowed("x", {"hadoop"}));
  EXPECT_FALSE(groups_only.IsUserAllowed("hadoop", {}));

  AccessControlList users_only = AccessControlList::Parse("alice");
  EXPECT_TRUE(users_only.groups().empty());
  EXPECT_EQ(users_only.ToString(), "alice ");
}

}  // namespace
}  // namespace spindle::rm
