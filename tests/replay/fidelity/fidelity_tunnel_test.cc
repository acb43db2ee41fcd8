// Every fidelity scenario through the wind tunnel on the virtual clock, on
// every Hadoop line it has an expectation for: Spindle's steady state must
// match Hadoop's (memory within one container, counts exactly).
#include "replay/fidelity/fidelity_tunnel.h"

#include <gtest/gtest.h>

#include <string>

#include "replay/fidelity/fidelity_scenarios.h"

namespace spindle::replay {
namespace {

std::string Describe(const FidelityRun& run) {
  std::string out;
  for (const FidelityObservation& o : run.observations) {
    out += "  " + std::to_string(o.check.at_s) + "s " + o.check.Subject() + " " +
           FidelityMetricName(o.check.metric) + ": expected " + std::to_string(o.check.expected) +
           ", saw " + (o.observed ? std::to_string(*o.observed) : "nothing") + "\n";
  }
  for (const std::string& r : run.rejections) out += "  rejected " + r + "\n";
  for (const std::string& p : run.problems) out += "  problem: " + p + "\n";
  return out;
}

pool::PoolOptions Mode(pool::SyncMode mode) {
  pool::PoolOptions p;
  p.mode = mode;
  return p;
}

// One scheduler places in one order, as the CapacityScheduler's single
// allocation path does: every rule of every scenario holds on every line.
TEST(FidelityTunnelTest, EveryScenarioMatchesHadoopWithOneScheduler) {
  for (const FidelityScenario& s : FidelityScenarios()) {
    for (rm::HadoopLine line : s.lines) {
      auto run = RunFidelityInTunnel(s, line, Mode(pool::SyncMode::kMonolithic));
      ASSERT_TRUE(run.ok()) << s.name << ": " << run.status().ToString();
      EXPECT_TRUE(AllMatch(*run, s.container_mb))
          << s.name << " on " << rm::TraitsOf(line).name << ":\n"
          << Describe(*run);
    }
  }
}

// With several schedulers (ParSync, the RM's default; StateSync; SameSync)
// every scenario matches Hadoop on every line: the caps hold everywhere
// (user-limit-factor, AM limits, maximum-applications: the queue ledger and
// the RM check them for every scheduler), the order within and between
// queues is played pool-wide (every scheduler reports its apps' demand to
// the queue ledger, which replays Hadoop's assignment order when quota is
// reserved, never granting more than the cell's free room), and a user
// counts as active for the user limits from the moment its asks reach the
// pool (SchedulerPool::SetAsks), as Hadoop activates it inside the allocate
// call, whichever scheduler steps first.
TEST(FidelityTunnelTest, SeveralSchedulersMatchHadoop) {
  for (const pool::SyncMode mode :
       {pool::SyncMode::kParSync, pool::SyncMode::kStateSync, pool::SyncMode::kSameSync}) {
    for (const FidelityScenario& s : FidelityScenarios()) {
      for (rm::HadoopLine line : s.lines) {
        auto run = RunFidelityInTunnel(s, line, Mode(mode));
        ASSERT_TRUE(run.ok()) << s.name << ": " << run.status().ToString();
        EXPECT_TRUE(AllMatch(*run, s.container_mb)) << s.name << " on " << rm::TraitsOf(line).name
                                                    << " in " << pool::SyncModeName(mode) << ":\n"
                                                    << Describe(*run);
        EXPECT_TRUE(run->problems.empty()) << s.name << ":\n" << Describe(*run);
      }
    }
  }
}

// The same scenario, line and pool give the same run.
TEST(FidelityTunnelTest, RunsAreDeterministic) {
  const FidelityScenario& s = *FindFidelityScenario("elastic-queue");
  auto a = RunFidelityInTunnel(s, rm::HadoopLine::k3_3);
  auto b = RunFidelityInTunnel(s, rm::HadoopLine::k3_3);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->observations.size(), b->observations.size());
  for (size_t i = 0; i < a->observations.size(); ++i) {
    EXPECT_EQ(a->observations[i].observed, b->observations[i].observed) << i;
  }
}

// A scenario is only run where it has an expectation.
TEST(FidelityTunnelTest, RefusesALineWithoutAnExpectation) {
  const FidelityScenario& fair = *FindFidelityScenario("ordering-fair");
  EXPECT_FALSE(RunFidelityInTunnel(fair, rm::HadoopLine::k2_7).ok());
}

}  // namespace
}  // namespace spindle::replay
