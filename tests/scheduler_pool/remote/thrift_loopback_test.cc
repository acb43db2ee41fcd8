// The cell-state service over Thrift on 127.0.0.1 (a port picked at run
// time): two members over the wire and one in-process, the same Scheduler
// code in all three, on a ManualClock (sockets are real, time is not).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>

#include "scheduler_pool/remote/scheduler_member.h"
#include "scheduler_pool/remote/thrift_connection.h"
#include "scheduler_pool/remote/thrift_server.h"
#include "tests/scheduler_pool/remote/remote_test_util.h"

namespace spindle::pool::remote {
namespace {

using std::chrono::milliseconds;
using testing::Cluster;
using testing::kLease;
using testing::Member;

constexpr uint64_t kApps = 24;

struct Loopback {
  Cluster c;
  std::unique_ptr<ThriftCellServer> server;
  std::unique_ptr<ThriftConnection> wire1, wire2;
  std::unique_ptr<SchedulerMember> remote1, remote2, local;
  std::map<uint64_t, int64_t> got;
  std::set<uint64_t> ids;

  void Start() {
    pool::testing::AddNodes(&c.cell, 40, 4);
    auto s = ThriftCellServer::Start(&c.service, "127.0.0.1", 0);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server = std::move(s).value();
    ASSERT_GT(server->port(), 0);
    ThriftConnectionOptions o;
    o.port = server->port();
    wire1 = std::make_unique<ThriftConnection>(o);
    wire2 = std::make_unique<ThriftConnection>(o);
    remote1 = std::make_unique<SchedulerMember>(wire1.get(), &c.clock, Member(0, 3));
    remote2 = std::make_unique<SchedulerMember>(wire2.get(), &c.clock, Member(1, 3));
    local = std::make_unique<SchedulerMember>(&c.service, &c.clock, Member(2, 3));
    ASSERT_TRUE(remote1->Join().ok());
    ASSERT_TRUE(remote2->Join().ok());
    ASSERT_TRUE(local->Join().ok());
    for (uint64_t i = 1; i <= kApps; ++i) {
      ASSERT_TRUE(c.service.AddApp(AppSpec{AppId(i), QueueId(0)}).ok());
    }
  }
  int64_t AskAll() {
    int64_t asked = 0;
    for (uint64_t i = 1; i <= kApps; ++i) {
      const auto n = static_cast<int64_t>(1 + i % 6);
      EXPECT_TRUE(c.service.SetAsks(AppId(i), {pool::testing::SlotAsk(n)}).ok());
      asked += n;
    }
    return asked;
  }
  void StepAll(std::initializer_list<SchedulerMember*> members) {
    c.clock.Advance(milliseconds(10));
    for (SchedulerMember* m : members) {
      const Result<StepResult> r = m->Step(c.clock.Now());
      ASSERT_TRUE(r.ok()) << r.status().ToString();
    }
    for (uint64_t i = 1; i <= kApps; ++i) {
      std::vector<Placement> out;
      ASSERT_TRUE(c.service.TakePlacements(AppId(i), &out).ok());
      for (const Placement& p : out) {
        EXPECT_TRUE(ids.insert(p.id).second) << "placement " << p.id << " twice";
        ++got[i];
      }
    }
  }
  void ExpectEveryAskPlacedOnce(int64_t asked) {
    for (uint64_t i = 1; i <= kApps; ++i) {
      EXPECT_EQ(got[i], static_cast<int64_t>(1 + i % 6)) << "app " << i;
    }
    EXPECT_EQ(c.cell.Allocated(), pool::testing::kSlot * asked);
    EXPECT_TRUE(c.cell.CheckInvariants().ok());
  }
};

TEST(ThriftLoopbackTest, TwoRemoteSchedulersAndOneInProcessPlaceEveryAskOnce) {
  Loopback l;
  ASSERT_NO_FATAL_FAILURE(l.Start());
  const int64_t asked = l.AskAll();
  for (int step = 0; step < 30; ++step) {
    ASSERT_NO_FATAL_FAILURE(l.StepAll({l.remote1.get(), l.remote2.get(), l.local.get()}));
  }
  l.ExpectEveryAskPlacedOnce(asked);
  // Each member served apps of its own and committed over its connection.
  const ServiceMetrics m = l.c.service.Metrics();
  ASSERT_EQ(m.members.size(), 3u);
  for (const MemberStatus& s : m.members) EXPECT_GT(s.apps, 0) << s.name;
  EXPECT_GT(l.remote1->scheduler()->Metrics().placements, 0);
  EXPECT_GT(l.remote2->scheduler()->Metrics().placements, 0);
  EXPECT_GT(l.local->scheduler()->Metrics().placements, 0);
  EXPECT_EQ(m.commits_refused, 0);
}

TEST(ThriftLoopbackTest, ASchedulerThatVanishesLosesItsAsksToTheOthers) {
  Loopback l;
  ASSERT_NO_FATAL_FAILURE(l.Start());
  // Every member learns its apps, then the asks arrive.
  ASSERT_NO_FATAL_FAILURE(l.StepAll({l.remote1.get(), l.remote2.get(), l.local.get()}));
  const int vanished_apps = l.remote2->apps();
  ASSERT_GT(vanished_apps, 0);
  const MemberToken vanished = l.remote2->token();
  const int64_t asked = l.AskAll();
  // remote2 is gone as by SIGKILL: no Leave, its socket just closes.
  l.remote2.reset();
  l.wire2.reset();
  for (int step = 0; step < 60; ++step) {
    ASSERT_NO_FATAL_FAILURE(l.StepAll({l.remote1.get(), l.local.get()}));
  }
  l.ExpectEveryAskPlacedOnce(asked);
  const ServiceMetrics m = l.c.service.Metrics();
  EXPECT_EQ(m.leases_expired, 1);
  EXPECT_EQ(m.apps_reassigned, vanished_apps);
  EXPECT_EQ(m.members.size(), 2u);
  // Its late commit, over a new connection, is refused and changes nothing.
  ThriftConnectionOptions o;
  o.port = l.server->port();
  ThriftConnection late(o);
  Transaction txn;
  txn.claims.push_back(Claim{NodeId(0, 0), pool::testing::kSlot, 0, kDefaultLabel});
  txn.owners.push_back(ClaimOwner{AppId(1), 0, -1, 2, false});
  CommitResult r;
  const Status refused = late.Commit(vanished, 99, txn, &r);
  EXPECT_EQ(refused.code(), Status::Code::kAborted) << refused.ToString();
  EXPECT_EQ(l.c.cell.Allocated(), pool::testing::kSlot * asked);
}

}  // namespace
}  // namespace spindle::pool::remote
