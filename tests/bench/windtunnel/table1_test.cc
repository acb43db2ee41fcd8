#include "bench/windtunnel/table1.h"

#include <gtest/gtest.h>

#include <string>

namespace spindle::windtunnel {
namespace {

ModeResult Mode(const std::string& strategy, double jsd_ms) {
  ModeResult m;
  m.mode = "parsync";
  m.strategy = strategy;
  m.label = "parsync/" + strategy;
  m.total.jsd_mean_ms = jsd_ms;
  return m;
}

// The paper's alpha = 0.9 column: 0.4 s, 0.8 s, 3.7 s.
WindTunnelReport PaperLike() {
  WindTunnelReport r;
  r.modes.push_back(Mode("latency-first", 400));
  r.modes.push_back(Mode("quality-first", 3700));
  r.modes.push_back(Mode("adaptive", 800));
  return r;
}

TEST(Table1Test, TheJsdOrderingHoldsOnThePapersNumbers) {
  WindTunnelReport r = PaperLike();
  AddTable1(&r);
  ASSERT_EQ(r.trends.size(), 1u);
  EXPECT_EQ(r.trends[0].figure, "T1");
  EXPECT_TRUE(r.trends[0].holds) << r.trends[0].detail;
  EXPECT_NE(r.trends[0].detail.find("adaptive 800.0 ms"), std::string::npos) << r.trends[0].detail;
}

TEST(Table1Test, FailsWhenAnyPairIsOutOfOrder) {
  for (const auto& [strategy, jsd] :
       {std::pair{"latency-first", 900.0}, std::pair{"adaptive", 3800.0},
        std::pair{"quality-first", 800.0}, std::pair{"adaptive", 400.0}}) {
    WindTunnelReport r = PaperLike();
    for (ModeResult& m : r.modes) {
      if (m.strategy == strategy) m.total.jsd_mean_ms = jsd;
    }
    AddTable1(&r);
    ASSERT_EQ(r.trends.size(), 1u);
    EXPECT_FALSE(r.trends[0].holds) << strategy << " at " << jsd;
  }
}

TEST(Table1Test, NoTrendWithoutTheThreeParsyncStrategies) {
  WindTunnelReport r = PaperLike();
  r.modes.pop_back();
  r.modes.push_back(Mode("adaptive", 800));
  r.modes.back().mode = "statesync";
  r.modes.back().label = "statesync/adaptive";
  AddTable1(&r);
  EXPECT_TRUE(r.trends.empty());
}

}  // namespace
}  // namespace spindle::windtunnel
