// The zk dump file format (persist/zk/zk_tree_dump.h): what it reads back,
// and what it refuses. Dumping and restoring against a real server is
// covered with the golden trees (tests/rm/recovery/zk/zk_golden_tree_test.cc).
#include "persist/zk/zk_tree_dump.h"

#include <gtest/gtest.h>

namespace spindle::zk {
namespace {

constexpr char kHeader[] = "spindle-zk-dump 1\nroot /a\n";

TEST(ZkTreeDumpTest, FormatsAndParses) {
  ZkTreeDump dump;
  dump.root = "/a";
  dump.comments = {"captured here", "and there"};
  dump.nodes = {{"/a", {WorldAnyone()}, std::nullopt},
                {"/a/b", {WorldAnyone(kPermRead), {kPermAll, "digest", "rm:abc="}}, ""},
                {"/a/b/c", {WorldAnyone()}, std::string("\x00\xff\n x", 5)}};
  const std::string text = FormatZkTreeDump(dump);
  EXPECT_EQ(text,
            "spindle-zk-dump 1\nroot /a\n# captured here\n# and there\n"
            "znode /a world:anyone:rwcda null\n"
            "znode /a/b world:anyone:r,digest:rm:abc=:rwcda 0x\n"
            "znode /a/b/c world:anyone:rwcda 0x00ff0a2078\n");
  auto parsed = ParseZkTreeDump(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->root, "/a");
  EXPECT_EQ(parsed->comments, dump.comments);
  EXPECT_EQ(parsed->nodes, dump.nodes);
  EXPECT_EQ(parsed->RelativePaths(), (std::vector<std::string>{"", "b", "b/c"}));
  ASSERT_NE(parsed->Find("/a/b"), nullptr);
  EXPECT_EQ(parsed->Find("/a/x"), nullptr);
  EXPECT_EQ(ExcludeSubtree(&*parsed, "/a/b"), 2u);
  EXPECT_EQ(parsed->nodes.size(), 1u);
}

TEST(ZkTreeDumpTest, RefusesWhatTheFormatDoesNotAllow) {
  const std::vector<std::string> bad = {
      "",
      "spindle-zk-dump 2\nroot /a\nznode /a - null\n",
      "spindle-zk-dump 1\nroot a\nznode /a - null\n",
      std::string(kHeader),                        // the root not listed
      std::string(kHeader) + "znode /b - null\n",  // outside the root
      std::string(kHeader) + "znode /a - null\nznode /a - null\n",
      std::string(kHeader) + "znode /a - null\nznode /a/b/c - null\n",  // no parent
      std::string(kHeader) + "znode /a - 0xzz\n",
      std::string(kHeader) + "znode /a - abc\n",
      std::string(kHeader) + "znode /a world:anyone:q null\n",
      std::string(kHeader) + "znode /a - null extra\n",
      std::string(kHeader) + "node /a - null\n",
  };
  for (const std::string& text : bad) {
    auto parsed = ParseZkTreeDump(text);
    EXPECT_FALSE(parsed.ok()) << text;
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), Status::Code::kCorruption) << text;
    }
  }
}

}  // namespace
}  // namespace spindle::zk
