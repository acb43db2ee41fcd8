#include "rm/recovery/zk/zk_store_layout.h"

#include <gtest/gtest.h>

namespace spindle::rm::zkstore {
namespace {

TEST(ZkStoreLayoutTest, PathsAreZkRmStateStores) {
  ZkStoreLayout layout("/rmstore", 0, 0);
  EXPECT_EQ(layout.root(), "/rmstore/ZKRMStateRoot");
  EXPECT_EQ(layout.spindle_root(), "/rmstore/SpindleRoot");
  EXPECT_EQ(layout.AppPath("application_1_0001", 0),
            "/rmstore/ZKRMStateRoot/RMAppRoot/application_1_0001");
  EXPECT_EQ(layout.AppPath("application_1_0001", 2),
            "/rmstore/ZKRMStateRoot/RMAppRoot/HIERARCHIES/2/application_1_00/01");
  EXPECT_EQ(
      layout.TokenPath(5, 0),
      "/rmstore/ZKRMStateRoot/RMDTSecretManagerRoot/RMDelegationTokensRoot/RMDelegationToken_5");
  EXPECT_EQ(layout.TokenPath(5, 1),
            "/rmstore/ZKRMStateRoot/RMDTSecretManagerRoot/RMDelegationTokensRoot/1/"
            "RMDelegationToken_000/5");
  EXPECT_EQ(layout.TokenPath(12345, 4),
            "/rmstore/ZKRMStateRoot/RMDTSecretManagerRoot/RMDelegationTokensRoot/4/"
            "RMDelegationToken_1/2345");
  EXPECT_EQ(layout.DelegationKeyPath(3),
            "/rmstore/ZKRMStateRoot/RMDTSecretManagerRoot/RMDTMasterKeysRoot/DelegationKey_3");
  EXPECT_EQ(ZkStoreLayout("/", 0, 0).root(), "/ZKRMStateRoot");
  EXPECT_EQ(ZkStoreLayout("/a/b/", 0, 0).root(), "/a/b/ZKRMStateRoot");
}

TEST(ZkStoreLayoutTest, NamesEscapeAndUnescape) {
  for (const std::string text :
       {"appattempt_1_0001_000001/row/k/1", "%2F", ".", "..", "a.b", "h:1"}) {
    const std::string name = EscapeName(text);
    EXPECT_EQ(name.find('/'), std::string::npos) << text;
    EXPECT_NE(name.front(), '.') << text;
    EXPECT_EQ(UnescapeName(name), text);
  }
  EXPECT_EQ(UnescapeName("%zz"), std::nullopt);
  EXPECT_EQ(UnescapeName(""), std::nullopt);
}

TEST(ZkStoreLayoutTest, SmallNodeFormatsAreJavasDataOutput) {
  EXPECT_EQ(EncodeInt32(5), std::string("\x00\x00\x00\x05", 4));
  EXPECT_EQ(EncodeInt32(-2), std::string("\xff\xff\xff\xfe", 4));
  EXPECT_EQ(*DecodeInt32(EncodeInt32(-2)), -2);
  EXPECT_FALSE(DecodeInt32("abc").ok());
  EXPECT_EQ(*DecodeInt64(EncodeInt64(-1700000000000)), -1700000000000);
  EXPECT_FALSE(DecodeInt64("1234").ok());
  // EpochProto{epoch = 4}: field 1 varint.
  EXPECT_EQ(EncodeEpochNode(3), std::string("\x08\x04", 2));
  EXPECT_EQ(*DecodeEpochNode(std::string("\x08\x04", 2)), 3);
  // VersionProto{1, 5}.
  EXPECT_EQ(EncodeVersion({1, 5}), std::string("\x08\x01\x10\x05", 4));
  EXPECT_EQ(*DecodeVersion(std::string("\x08\x01\x10\x02", 4)), (StoreVersion{1, 2}));
}

}  // namespace
}  // namespace spindle::rm::zkstore
