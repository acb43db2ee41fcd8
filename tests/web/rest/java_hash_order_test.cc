// The iteration order of Java's HashMap / HashSet of String, checked
// against what a JDK 17 printed for the same keys (HashMap.keySet() and new
// HashSet<>(keySet()), inserted in this order).
#include "web/rest/java_hash_order.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace spindle::web::rest {
namespace {

using Keys = std::vector<std::string>;

TEST(JavaHashOrderTest, StringHashCodeAsJavaComputesIt) {
  EXPECT_EQ(JavaStringHash(""), 0);
  EXPECT_EQ(JavaStringHash("x"), 120);
  EXPECT_EQ(JavaStringHash("fpga"), 3149604);
  // Wraps as Java's int does (JDK 17's values).
  EXPECT_EQ(JavaStringHash("label10"), -63203309);
  EXPECT_EQ(JavaStringHash("zzzzzzzzz"), 918831994);
}

TEST(JavaHashOrderTest, TableSizes) {
  EXPECT_EQ(JavaHashMapTableSize(1), 16u);
  EXPECT_EQ(JavaHashMapTableSize(12), 16u);
  EXPECT_EQ(JavaHashMapTableSize(13), 32u);
  EXPECT_EQ(JavaHashSetCopyTableSize(6), 16u);
  EXPECT_EQ(JavaHashSetCopyTableSize(12), 32u);  // (int) (12 / .75f) + 1 = 17
}

// JDK 17: map6 [, a, b, fpga, x, gpu]; map14 [, a, b, ssd, label10, gpu,
// fpga, z1, x, z2, y, z3, z4, z5]; the HashSet copies print the same.
TEST(JavaHashOrderTest, IteratesAsAJdkDoes) {
  const Keys six = {"", "a", "b", "fpga", "gpu", "x"};
  EXPECT_EQ(InJavaHashOrder(six, JavaHashMapTableSize(six.size())),
            (Keys{"", "a", "b", "fpga", "x", "gpu"}));
  EXPECT_EQ(InJavaHashOrder(six, JavaHashSetCopyTableSize(six.size())),
            (Keys{"", "a", "b", "fpga", "x", "gpu"}));
  const Keys fourteen = {"",    "a",       "b",  "fpga", "gpu", "x",  "y",
                         "ssd", "label10", "z1", "z2",   "z3",  "z4", "z5"};
  const Keys java = {"",   "a", "b",  "ssd", "label10", "gpu", "fpga",
                     "z1", "x", "z2", "y",   "z3",      "z4",  "z5"};
  EXPECT_EQ(InJavaHashOrder(fourteen, JavaHashMapTableSize(fourteen.size())), java);
  EXPECT_EQ(InJavaHashOrder(fourteen, JavaHashSetCopyTableSize(fourteen.size())), java);
}

}  // namespace
}  // namespace spindle::web::rest
