// ConnectionTable: the total and per-address limits (connection_table.h).
#include "wire/ipc/connection_table.h"

#include <gtest/gtest.h>

namespace spindle::ipc {
namespace {

TEST(ConnectionTableTest, NoLimitsAdmitsEveryone) {
  ConnectionTable table(ConnectionLimits{});
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(table.Admit("10.0.0.1"), Admission::kAdmitted);
  EXPECT_EQ(table.open(), 1000);
  EXPECT_EQ(table.open_from("10.0.0.1"), 1000);
}

TEST(ConnectionTableTest, PerAddressLimitRefusesOnlyThatAddress) {
  ConnectionTable table(ConnectionLimits{.max_connections = 0, .max_per_address = 2});
  EXPECT_EQ(table.Admit("10.0.0.1"), Admission::kAdmitted);
  EXPECT_EQ(table.Admit("10.0.0.1"), Admission::kAdmitted);
  EXPECT_EQ(table.Admit("10.0.0.1"), Admission::kAddressFull);
  EXPECT_EQ(table.Admit("10.0.0.2"), Admission::kAdmitted);
  EXPECT_EQ(table.open(), 3);
  EXPECT_EQ(table.open_from("10.0.0.1"), 2);
  EXPECT_EQ(table.open_from("10.0.0.3"), 0);
}

TEST(ConnectionTableTest, ServerLimitIsHadoopsIsFull) {
  // isFull(): maxConnections > 0 && size() >= maxConnections.
  ConnectionTable table(ConnectionLimits{.max_connections = 3, .max_per_address = 0});
  EXPECT_EQ(table.Admit("10.0.0.1"), Admission::kAdmitted);
  EXPECT_EQ(table.Admit("10.0.0.2"), Admission::kAdmitted);
  EXPECT_EQ(table.Admit("10.0.0.3"), Admission::kAdmitted);
  EXPECT_EQ(table.Admit("10.0.0.4"), Admission::kServerFull);
  EXPECT_EQ(table.open_from("10.0.0.4"), 0);
}

TEST(ConnectionTableTest, NegativeLimitsMeanNone) {
  ConnectionTable table(ConnectionLimits{.max_connections = -1, .max_per_address = -5});
  for (int i = 0; i < 10; ++i) ASSERT_EQ(table.Admit("10.0.0.1"), Admission::kAdmitted);
}

}  // namespace
}  // namespace spindle::ipc
