#include "security/machine_list.h"

#include <gtest/gtest.h>

namespace spindle::security {
namespace {

std::vector<std::string> TableResolver(const std::string& host) {
  if (host == "gateway.example") return {"10.1.2.3", "::1"};
  return {};
}

TEST(MachineListTest, WildcardAloneAllowsEveryAddress) {
  EXPECT_TRUE(MachineList::Parse("*").Includes("192.0.2.7"));
  EXPECT_TRUE(MachineList::Parse(" * ").Includes("::1"));
  // Java: the wildcard counts only as the whole list.
  EXPECT_FALSE(MachineList::Parse("*,10.0.0.1").Includes("192.0.2.7"));
  EXPECT_TRUE(MachineList::Parse("*,10.0.0.1").Includes("10.0.0.1"));
}

TEST(MachineListTest, EmptyAllowsNobody) {
  EXPECT_FALSE(MachineList::Parse("").Includes("127.0.0.1"));
  EXPECT_FALSE(MachineList().Includes("127.0.0.1"));
}

TEST(MachineListTest, AddressesRangesAndResolvedNames) {
  const MachineList list =
      MachineList::Parse(" 127.0.0.1 , 192.168.0.0/16,,gateway.example,nowhere", &TableResolver);
  EXPECT_TRUE(list.Includes("127.0.0.1"));
  EXPECT_TRUE(list.Includes("192.168.44.5"));
  EXPECT_FALSE(list.Includes("192.169.0.1"));
  EXPECT_TRUE(list.Includes("10.1.2.3"));
  EXPECT_TRUE(list.Includes("0:0:0:0:0:0:0:1"));  // canonical form of ::1
  EXPECT_FALSE(list.Includes("10.1.2.4"));
  EXPECT_FALSE(list.Includes("not-an-ip"));
}

TEST(MachineListTest, MalformedRangesMatchNothing) {
  const MachineList list = MachineList::Parse("10.0.0.0/33,10.0.0.0/x,10.0.0.0/", &TableResolver);
  EXPECT_FALSE(list.Includes("10.0.0.1"));
  EXPECT_TRUE(MachineList::Parse("0.0.0.0/0").Includes("203.0.113.9"));
}

}  // namespace
}  // namespace spindle::security
