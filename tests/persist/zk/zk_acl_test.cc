#include "persist/zk/zk_acl.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/persist/temp_dir.h"

namespace spindle::zk {
namespace {

TEST(ZkAclTest, ParsesHadoopDefault) {  // yarn.resourcemanager.zk-acl's default
  auto acls = ParseZkAcls("world:anyone:rwcda");
  ASSERT_TRUE(acls.ok()) << acls.status().ToString();
  ASSERT_EQ(acls->size(), 1u);
  EXPECT_EQ((*acls)[0], WorldAnyone(kPermAll));
  EXPECT_EQ(ToString((*acls)[0]), "world:anyone:rwcda");
}

TEST(ZkAclTest, DigestIdKeepsItsColonAndListsTrimAndSkipEmpties) {
  auto acls = ParseZkAcls(" digest:rm1:qlzQzCLKhBROghkooLvb+Mlwv4A=:cd ,, sasl:yarn@EXAMPLE:r,");
  ASSERT_TRUE(acls.ok()) << acls.status().ToString();
  ASSERT_EQ(acls->size(), 2u);
  EXPECT_EQ((*acls)[0].scheme, "digest");
  EXPECT_EQ((*acls)[0].id, "rm1:qlzQzCLKhBROghkooLvb+Mlwv4A=");
  EXPECT_EQ((*acls)[0].perms, kPermCreate | kPermDelete);
  EXPECT_EQ((*acls)[1].scheme, "sasl");
  EXPECT_EQ((*acls)[1].id, "yarn@EXAMPLE");
  EXPECT_EQ((*acls)[1].perms, kPermRead);
  EXPECT_TRUE(ParseZkAcls("")->empty());
}

TEST(ZkAclTest, RefusesWhatHadoopRefuses) {
  for (const char* bad : {"world:anyone", "world", "world:anyone:rwx"}) {
    auto acls = ParseZkAcls(bad);
    ASSERT_FALSE(acls.ok()) << bad;
    EXPECT_EQ(acls.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(acls.status().java_class(), "org.apache.hadoop.util.ZKUtil$BadAclFormatException");
  }
}

TEST(ZkAclTest, ParsesAuthsAtTheFirstColon) {
  auto auths = ParseZkAuths("digest:user:pa:ss, digest:other:x");
  ASSERT_TRUE(auths.ok()) << auths.status().ToString();
  ASSERT_EQ(auths->size(), 2u);
  EXPECT_EQ((*auths)[0], (ZkAuth{"digest", "user:pa:ss"}));
  EXPECT_EQ((*auths)[1], (ZkAuth{"digest", "other:x"}));
  auto bad = ParseZkAuths("digest");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().java_class(), "org.apache.hadoop.util.ZKUtil$BadAuthFormatException");
}

TEST(ZkAclTest, DigestIdIsBase64OfSha1) {
  // What ZooKeeper 3.8's own `java -cp zookeeper.jar
  // org.apache.zookeeper.server.auth.DigestAuthenticationProvider super:secret rm1:pw
  // rm1.example.com:8032:-4242` printed (generateDigest). The last is
  // Hadoop's root-node identity: the RM address as user, so the user ends
  // at the first colon.
  EXPECT_EQ(DigestId("super:secret"), "super:lK75jTNcA+U9vtVEw5vB51mj/w4=");
  EXPECT_EQ(DigestId("rm1:pw"), "rm1:jHA3yzteKzHb1dXF/S6rWQKsB8I=");
  EXPECT_EQ(DigestId("rm1.example.com:8032:-4242"), "rm1.example.com:JyWChFGoJinnYHFXKgRVm9GXR0A=");
}

TEST(ZkAclTest, PermsStringIsTheParsersInverse) {
  EXPECT_EQ(PermsString(kPermAll), "rwcda");
  EXPECT_EQ(PermsString(kPermRead | kPermAdmin), "ra");
  EXPECT_EQ(*ParseZkAcls("ip:10.0.0.1:" + PermsString(kPermWrite | kPermDelete)),
            (std::vector<ZkAcl>{{kPermWrite | kPermDelete, "ip", "10.0.0.1"}}));
}

TEST(ZkAclTest, ResolvesAtFileIndirection) {
  persist::TempDir dir;
  std::ofstream(dir.Sub("acl")) << "  digest:rm1:hash:rwcda\n";
  EXPECT_EQ(*ResolveConfIndirection("@ " + dir.Sub("acl") + " "), "digest:rm1:hash:rwcda");
  EXPECT_EQ(*ResolveConfIndirection("world:anyone:rwcda"), "world:anyone:rwcda");
  EXPECT_EQ(ResolveConfIndirection("@" + dir.Sub("missing")).status().code(),
            Status::Code::kIoError);
}

}  // namespace
}  // namespace spindle::zk
