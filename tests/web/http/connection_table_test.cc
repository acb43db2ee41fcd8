#include "web/http/connection_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace spindle::web {
namespace {

using Ids = std::vector<uint64_t>;

TEST(ConnectionTableTest, UnderTheLimitsEveryConnectionIsTaken) {
  ConnectionTable table(3, 2);
  EXPECT_TRUE(table.Admit(1, "a").admitted);
  EXPECT_TRUE(table.Admit(2, "a").admitted);
  EXPECT_TRUE(table.Admit(3, "b").admitted);
  EXPECT_EQ(table.size(), 3);
  EXPECT_EQ(table.waiting(), 3);
  EXPECT_EQ(table.OpenFrom("a"), 2);
  EXPECT_EQ(table.OpenFrom("b"), 1);
  EXPECT_EQ(table.OpenFrom("c"), 0);
}

TEST(ConnectionTableTest, AtTheTotalLimitTheOldestWaitingIsDisplaced) {
  ConnectionTable table(3, 0);
  for (uint64_t id : {1, 2, 3}) ASSERT_TRUE(table.Admit(id, "a").admitted);
  auto admission = table.Admit(4, "b");
  EXPECT_TRUE(admission.admitted);
  EXPECT_EQ(admission.displaced, Ids{1});
  EXPECT_EQ(table.size(), 3);
  EXPECT_EQ(table.OpenFrom("a"), 2);
  // Answered connections wait again as the newest: 2 was answered, so 3 is
  // now the one that has waited longest.
  table.SetBusy(2);
  table.SetWaiting(2);
  EXPECT_EQ(table.Admit(5, "c").displaced, Ids{3});
}

TEST(ConnectionTableTest, BusyConnectionsAreNeverDisplaced) {
  ConnectionTable table(2, 0);
  ASSERT_TRUE(table.Admit(1, "a").admitted);
  ASSERT_TRUE(table.Admit(2, "a").admitted);
  table.SetBusy(1);
  table.SetBusy(1);  // idempotent
  EXPECT_EQ(table.waiting(), 1);
  EXPECT_EQ(table.Admit(3, "b").displaced, Ids{2});
  table.SetBusy(3);
  // Every connection busy: the new one is refused and nothing is closed.
  auto refused = table.Admit(4, "b");
  EXPECT_FALSE(refused.admitted);
  EXPECT_TRUE(refused.displaced.empty());
  EXPECT_EQ(table.size(), 2);
  // One finishes and waits: it makes room.
  table.SetWaiting(1);
  auto admitted = table.Admit(5, "c");
  EXPECT_TRUE(admitted.admitted);
  EXPECT_EQ(admitted.displaced, Ids{1});
}

TEST(ConnectionTableTest, AConnectionWithARequestWaitingToBeReadIsPassedOver) {
  // Per address: 1 and 2 from "a"; 1 has unread input, so 2 goes.
  ConnectionTable per_address(10, 2);
  ASSERT_TRUE(per_address.Admit(1, "a").admitted);
  ASSERT_TRUE(per_address.Admit(2, "a").admitted);
  const auto one_has_input = [](uint64_t id) { return id == 1; };
  EXPECT_EQ(per_address.Admit(3, "a", one_has_input).displaced, Ids{2});
  // Both "a" connections with input: the newcomer is refused, nothing closed.
  auto refused = per_address.Admit(4, "a", [](uint64_t) { return true; });
  EXPECT_FALSE(refused.admitted);
  EXPECT_TRUE(refused.displaced.empty());
  EXPECT_EQ(per_address.OpenFrom("a"), 2);
  // In all: the oldest idle one of any address.
  ConnectionTable total(2, 0);
  ASSERT_TRUE(total.Admit(1, "a").admitted);
  ASSERT_TRUE(total.Admit(2, "b").admitted);
  EXPECT_EQ(total.Admit(3, "c", one_has_input).displaced, Ids{2});
}

TEST(ConnectionTableTest, AnAddressAtItsLimitDisplacesOnlyItsOwn) {
  ConnectionTable table(100, 2);
  ASSERT_TRUE(table.Admit(1, "other").admitted);  // waited longest of all
  ASSERT_TRUE(table.Admit(2, "flood").admitted);
  ASSERT_TRUE(table.Admit(3, "flood").admitted);
  auto admission = table.Admit(4, "flood");
  EXPECT_TRUE(admission.admitted);
  EXPECT_EQ(admission.displaced, Ids{2});
  EXPECT_EQ(table.OpenFrom("flood"), 2);
  EXPECT_EQ(table.OpenFrom("other"), 1);
  // Its own all busy: refused, even with room in all.
  table.SetBusy(3);
  table.SetBusy(4);
  EXPECT_FALSE(table.Admit(5, "flood").admitted);
  EXPECT_TRUE(table.Admit(6, "other").admitted);
}

TEST(ConnectionTableTest, BothLimitsAtOnce) {
  ConnectionTable table(3, 2);
  ASSERT_TRUE(table.Admit(1, "x").admitted);
  ASSERT_TRUE(table.Admit(2, "y").admitted);
  ASSERT_TRUE(table.Admit(3, "y").admitted);
  // y is at its limit: its own oldest (2) makes room, which also keeps the
  // total within its limit, so x's connection stays.
  auto from_y = table.Admit(4, "y");
  EXPECT_EQ(from_y.displaced, Ids{2});
  // z is under its limit but the total is not: the oldest of all goes (1).
  auto from_z = table.Admit(5, "z");
  EXPECT_EQ(from_z.displaced, Ids{1});
  EXPECT_EQ(table.size(), 3);
  // y at its limit with only busy ones, and the total at its limit: refused.
  table.SetBusy(3);
  table.SetBusy(4);
  EXPECT_FALSE(table.Admit(6, "y").admitted);
  EXPECT_EQ(table.size(), 3);
}

TEST(ConnectionTableTest, RemoveAndTakeOldest) {
  ConnectionTable table(10, 0);
  ASSERT_TRUE(table.Admit(1, "a").admitted);
  ASSERT_TRUE(table.Admit(2, "b").admitted);
  ASSERT_TRUE(table.Admit(3, "b").admitted);
  table.Remove(2);
  table.Remove(2);   // already gone
  table.Remove(42);  // never there
  table.SetWaiting(42);
  table.SetBusy(42);
  EXPECT_EQ(table.size(), 2);
  EXPECT_EQ(table.OpenFrom("b"), 1);
  table.SetBusy(1);
  EXPECT_EQ(table.TakeOldestWaiting(), std::optional<uint64_t>(3));
  EXPECT_EQ(table.OpenFrom("b"), 0);
  EXPECT_EQ(table.TakeOldestWaiting(), std::nullopt);  // 1 is busy
  EXPECT_EQ(table.size(), 1);
}

}  // namespace
}  // namespace spindle::web
