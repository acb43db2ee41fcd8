// The wind tunnel with remote scheduler members (RunSpec::remote_schedulers)
// on the virtual clock: every call of a member goes through the Thrift
// codec in memory and costs a modelled round trip.
#include <gtest/gtest.h>

#include "bench/windtunnel/run_mode.h"
#include "tests/bench/windtunnel/small_spec.h"

namespace spindle::windtunnel {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

RunSpec RemoteSpec() {
  RunSpec spec = SmallSpec(pool::SyncMode::kParSync, pool::StrategyKind::kLatencyFirst);
  spec.remote_schedulers = 3;  // of N = 4: one pool scheduler, three members
  spec.remote_rtt = microseconds(500);
  return spec;
}

TEST(RemoteMembersTest, EveryTaskIsPlacedOnceAndTheWireIsCounted) {
  auto r = RunVirtual(RemoteSpec());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->invariants_ok);
  EXPECT_EQ(r->submitted, 5800);
  EXPECT_EQ(r->committed, r->submitted);
  EXPECT_TRUE(r->all_committed);
  EXPECT_EQ(r->total.jobs_done, 290);
  EXPECT_EQ(r->remote_members, 3);
  // About three quarters of the jobs are the members' (apps pinned in turn
  // over four slots); each placed once, so no more than were submitted.
  EXPECT_GT(r->member_placements, r->committed / 2);
  EXPECT_LT(r->member_placements, r->committed);
  EXPECT_GT(r->wire_calls, 0);
  EXPECT_GT(r->wire_bytes, 8 * r->wire_calls);  // more than the frames' lengths
  EXPECT_GT(r->wire_bytes_per_s, 0);
  EXPECT_GT(r->wire_bytes_per_placement, 0);
  EXPECT_GT(r->member_staleness_max_ms, 0);
}

TEST(RemoteMembersTest, SameSeedGivesAnIdenticalRun) {
  auto a = RunVirtual(RemoteSpec());
  auto b = RunVirtual(RemoteSpec());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(SummaryOf(*a), SummaryOf(*b));
}

TEST(RemoteMembersTest, TheRoundTripIsInTheDelay) {
  RunSpec slow = RemoteSpec();
  slow.remote_rtt = milliseconds(5);
  RunSpec none = RemoteSpec();
  none.remote_rtt = microseconds(0);
  auto s = RunVirtual(slow);
  auto n = RunVirtual(none);
  ASSERT_TRUE(s.ok() && n.ok());
  EXPECT_EQ(s->committed, s->submitted);
  // A member's step makes a few calls (board, sync, commit), each a round
  // trip its tasks wait for. (At 20 ms the three members fall behind the
  // peak's offer: a step of 20 tasks then lasts about 80 ms.)
  EXPECT_GT(s->total.delay_p50_ms, n->total.delay_p50_ms + 5);
}

TEST(RemoteMembersTest, RefusesAsManyMembersAsSchedulers) {
  RunSpec spec = RemoteSpec();
  spec.remote_schedulers = spec.schedulers;
  EXPECT_EQ(RunVirtual(spec).status().code(), Status::Code::kInvalidArgument);
  spec.remote_schedulers = 1;
  spec.mode = pool::SyncMode::kMonolithic;
  EXPECT_EQ(RunVirtual(spec).status().code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace spindle::windtunnel
