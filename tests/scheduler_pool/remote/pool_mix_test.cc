// A SchedulerPool mixing in-process schedulers with the members of its
// cell-state service (one over Thrift on 127.0.0.1, one in-process): the
// RM's calls (AddApp, SetAsks, TakePlacements, Release, RemoveApp) work the
// same for every app wherever it is pinned.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "scheduler_pool/remote/scheduler_member.h"
#include "scheduler_pool/remote/thrift_connection.h"
#include "scheduler_pool/remote/thrift_server.h"
#include "tests/scheduler_pool/remote/remote_test_util.h"

namespace spindle::pool::remote {
namespace {

using pool::testing::kSlot;
using std::chrono::milliseconds;

TEST(PoolMixTest, InProcessAndRemoteSchedulersServeOnePool) {
  PoolOptions options = pool::testing::SmallOptions(SyncMode::kParSync, 1, 4);
  options.remote_schedulers = 2;
  options.remote_lease = testing::kLease;
  pool::testing::ManualPool mp(options);
  const QueueId q = mp.Queue(pool::testing::NamedQueue("default"));
  for (int i = 0; i < 24; ++i) ASSERT_TRUE(mp.pool->AddNode(pool::testing::Node(4)).ok());
  CellStateService* service = mp.pool->remote_service();
  ASSERT_NE(service, nullptr);
  auto server = ThriftCellServer::Start(service, "127.0.0.1", 0);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  ThriftConnectionOptions wire;
  wire.port = (*server)->port();
  ThriftConnection connection(wire);
  SchedulerMember remote(&connection, &mp.clock, testing::Member(0, 2));
  SchedulerMember local(service, &mp.clock, testing::Member(1, 2));
  ASSERT_TRUE(remote.Join().ok());
  ASSERT_TRUE(local.Join().ok());

  constexpr uint64_t kApps = 30;
  std::set<int> slots;
  int64_t asked = 0;
  for (uint64_t i = 1; i <= kApps; ++i) {
    const AppId app(i);
    ASSERT_TRUE(mp.pool->AddApp(AppSpec{app, q}).ok());
    slots.insert(mp.pool->SchedulerFor(app, "default"));
    ASSERT_TRUE(mp.pool->SetAsks(app, {pool::testing::SlotAsk(1 + i % 3)}).ok());
    asked += static_cast<int64_t>(1 + i % 3);
  }
  ASSERT_EQ(slots, (std::set<int>{0, 1, 2}));  // every kind of scheduler has apps
  std::map<uint64_t, std::vector<Placement>> got;
  for (int step = 0; step < 30; ++step) {
    mp.Step(milliseconds(10));
    ASSERT_TRUE(remote.Step(mp.clock.Now()).ok());
    ASSERT_TRUE(local.Step(mp.clock.Now()).ok());
    for (uint64_t i = 1; i <= kApps; ++i) {
      ASSERT_TRUE(mp.pool->TakePlacements(AppId(i), &got[i]).ok());
    }
  }
  std::set<uint64_t> ids;
  for (uint64_t i = 1; i <= kApps; ++i) {
    EXPECT_EQ(static_cast<int64_t>(got[i].size()), static_cast<int64_t>(1 + i % 3)) << i;
    for (const Placement& p : got[i]) EXPECT_TRUE(ids.insert(p.id).second);
  }
  EXPECT_EQ(mp.pool->cell().Allocated(), kSlot * asked);
  // Members' commits are charged to the pool's ledger like its own.
  EXPECT_EQ(mp.pool->queues().Usage(q), kSlot * asked);
  EXPECT_GT(remote.scheduler()->Metrics().placements, 0);
  EXPECT_GT(local.scheduler()->Metrics().placements, 0);
  EXPECT_GT(mp.pool->Metrics().overall.placements, 0);

  // Releases and removals go back the same way.
  for (uint64_t i = 1; i <= kApps; ++i) {
    ASSERT_TRUE(mp.pool->ReleaseBatch(got[i]).ok());
    ASSERT_TRUE(mp.pool->RemoveApp(AppId(i)).ok());
  }
  EXPECT_EQ(mp.pool->cell().Allocated(), Resource());
  EXPECT_EQ(mp.pool->queues().Usage(q), Resource());
  EXPECT_TRUE(mp.pool->cell().CheckInvariants().ok());
  ASSERT_TRUE(remote.Step(mp.clock.Now()).ok());
  EXPECT_EQ(remote.apps(), 0);
}

}  // namespace
}  // namespace spindle::pool::remote
