#include "rm/apps/app_lifetime_monitor.h"

#include <gtest/gtest.h>

namespace spindle::rm {
namespace {

TEST(AppLifetimeMonitorTest, ExpiresAppsPastTheirTimeEarliestFirst) {
  AppLifetimeMonitor monitor;
  const ApplicationId a{1, 1}, b{1, 2}, c{1, 3};
  monitor.Register(a, 3000);
  monitor.Register(b, 1000);
  monitor.Register(c, 2000);
  EXPECT_TRUE(monitor.Expired(1000).empty());  // at the time: not yet
  EXPECT_EQ(monitor.Expired(2001), (std::vector<ApplicationId>{b, c}));
  // Expired apps stay watched until unregistered.
  EXPECT_EQ(monitor.Expired(2001).size(), 2u);
  monitor.Unregister(b);
  EXPECT_EQ(monitor.Expired(2001), (std::vector<ApplicationId>{c}));
  // A new expiry replaces the old one.
  monitor.Register(c, 5000);
  EXPECT_TRUE(monitor.Expired(2001).empty());
  EXPECT_EQ(monitor.ExpiryOf(c), 5000);
  EXPECT_EQ(monitor.size(), 2u);
  monitor.Unregister(a);
  monitor.Unregister(c);
  monitor.Unregister(c);
  EXPECT_EQ(monitor.size(), 0u);
  EXPECT_FALSE(monitor.ExpiryOf(a).has_value());
}

}  // namespace
}  // namespace spindle::rm
