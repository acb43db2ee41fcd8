// User limits through the whole pool: placement in every pool mode,
// concurrent schedulers placing one user's work, releases and moves.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "scheduler_pool/scheduler_pool.h"
#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool {
namespace {

using std::chrono::milliseconds;
using testing::kSlot;
using testing::SlotAsk;

// A queue of `capacity` slots (its max too unless given) whose users are
// limited by MULP/ULF under `rules`.
QueueSpec LimitedQueue(std::string name, int64_t capacity_slots, int64_t max_slots,
                       int64_t cluster_slots, int32_t mulp, double ulf, UserLimitRules rules) {
  QueueSpec q;
  q.name = std::move(name);
  q.min = kSlot * capacity_slots;
  q.max = kSlot * max_slots;
  q.user_limits.enabled = true;
  q.user_limits.minimum_user_limit_percent = mulp;
  q.user_limits.user_limit_factor = ulf;
  q.user_limits.capacity = kSlot * capacity_slots;
  q.user_limits.cluster = kSlot * cluster_slots;
  q.user_limits.minimum_allocation = kSlot;
  q.user_limits.rules = rules;
  return q;
}

struct PoolCase {
  SyncMode mode;
  int schedulers;
};

class UserLimitPoolTest : public ::testing::TestWithParam<PoolCase> {};

// Three users, one app each asking for far more than the queue, MULP 33:
// under 3.3 each converges to a third of the 300-slot queue, in every pool
// mode (the limit is max(ceil((held + 1 slot) / 3), ceil(300 x 33%)) = 99
// slots until the others fill up; a user not above it gets one more).
TEST_P(UserLimitPoolTest, ThreeUsersWithMulp33EachGetAThird) {
  const PoolCase c = GetParam();
  testing::ManualPool mp(testing::SmallOptions(c.mode, c.schedulers, 6));
  SchedulerPool& pool = *mp.pool;
  const QueueId q = mp.Queue(LimitedQueue("a", 300, 300, 300, 33, 1, UserLimitRules::kHadoop3_3));
  std::vector<UserId> users = {pool.InternUser("alice"), pool.InternUser("bob"),
                               pool.InternUser("carol")};
  EXPECT_EQ(pool.InternUser("bob"), users[1]);
  for (int a = 0; a < 3; ++a) {
    ASSERT_TRUE(pool.AddApp(AppSpec(AppId(a + 1), q, 0, users[static_cast<size_t>(a)])).ok());
    ASSERT_TRUE(pool.SetAsks(AppId(a + 1), {SlotAsk(1000)}).ok());
  }
  // The three users are active from the moment their asks reach the pool,
  // before any scheduler has stepped (Hadoop activates them inside the
  // allocate call), so whichever scheduler steps first sees all three.
  EXPECT_EQ(pool.queues().User(q, users[0], kSlot).active_users, 3);
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(pool.AddNode(testing::Node(10)).ok());
  int64_t idle_steps = 0;
  for (int i = 0; i < 2000 && idle_steps < 20; ++i) {
    const StepResult r = mp.Step(milliseconds(50));
    idle_steps = r.placed == 0 ? idle_steps + 1 : 0;
  }
  for (int a = 0; a < 3; ++a) {
    const std::vector<Placement> got = mp.Take(AppId(a + 1));
    EXPECT_EQ(got.size(), 100u) << "user " << a;
    for (const Placement& p : got) EXPECT_EQ(p.user, users[static_cast<size_t>(a)]);
    EXPECT_EQ(pool.queues().User(q, users[static_cast<size_t>(a)], kSlot).used, kSlot * 100);
  }
  EXPECT_EQ(pool.queues().Usage(q), kSlot * 300);
  EXPECT_TRUE(pool.cell().CheckInvariants().ok());
}

INSTANTIATE_TEST_SUITE_P(Modes, UserLimitPoolTest,
                         ::testing::Values(PoolCase{SyncMode::kParSync, 3},
                                           PoolCase{SyncMode::kSameSync, 2},
                                           PoolCase{SyncMode::kStateSync, 3},
                                           PoolCase{SyncMode::kMonolithic, 1}));

// The same under Hadoop 2.7's formula, where the limit divides the queue by
// the ACTIVE users: each may have capacity / 3 = 100 slots at once, and the
// '>' check lets the first two through with 101; the last gets what is
// left. The room is there before the asks, so the first scheduler to step
// would give its user the whole queue if the others' users were not yet
// active (TestLeafQueue#testUserLimits' divisor): in every pool mode the
// users are active from SetAsks on, and the queue's order (pool-wide)
// serves the apps in id order.
TEST_P(UserLimitPoolTest, ThreeUsersUnderHadoop27) {
  const PoolCase c = GetParam();
  testing::ManualPool mp(testing::SmallOptions(c.mode, c.schedulers, 6));
  SchedulerPool& pool = *mp.pool;
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(pool.AddNode(testing::Node(10)).ok());
  QueueSpec spec = LimitedQueue("a", 300, 300, 300, 33, 1, UserLimitRules::kHadoop2_7);
  spec.pool_wide_order = true;
  const QueueId q = mp.Queue(spec);
  for (int a = 0; a < 3; ++a) {
    const UserId u = pool.InternUser("user" + std::to_string(a));
    ASSERT_TRUE(pool.AddApp(AppSpec(AppId(a + 1), q, 0, u)).ok());
    ASSERT_TRUE(pool.SetAsks(AppId(a + 1), {SlotAsk(1000)}).ok());
  }
  for (int i = 0; i < 50; ++i) mp.Step(milliseconds(50));
  EXPECT_EQ(mp.Take(AppId(1)).size(), 101u);
  EXPECT_EQ(mp.Take(AppId(2)).size(), 101u);
  EXPECT_EQ(mp.Take(AppId(3)).size(), 98u);
}

// A user stays active while any of its apps has pending asks (a set per
// user, as ActiveUsersManager.usersApplications): the pool activating an
// app at SetAsks and its scheduler confirming it count once, and the user
// leaves only when its last app's asks are gone.
TEST(UserLimitPoolTest, AUserIsActiveWhileAnyOfItsAppsAsks) {
  testing::ManualPool mp(testing::SmallOptions(SyncMode::kParSync, 2, 2));
  SchedulerPool& pool = *mp.pool;
  const QueueId q = mp.Queue(LimitedQueue("a", 10, 10, 10, 100, 1, UserLimitRules::kHadoop2_7));
  const UserId alice = pool.InternUser("alice");
  ASSERT_TRUE(pool.AddApp(AppSpec(AppId(1), q, 0, alice)).ok());
  ASSERT_TRUE(pool.AddApp(AppSpec(AppId(2), q, 0, alice)).ok());
  const auto active = [&] { return pool.queues().User(q, alice, kSlot).active_users; };
  EXPECT_EQ(active(), 0);
  ASSERT_TRUE(pool.SetAsks(AppId(1), {SlotAsk(3)}).ok());
  EXPECT_EQ(active(), 1);  // at once, no scheduler has stepped
  ASSERT_TRUE(pool.SetAsks(AppId(2), {SlotAsk(3)}).ok());
  mp.Step();
  EXPECT_EQ(active(), 1);  // one user, however many apps and reports
  ASSERT_TRUE(pool.SetAsks(AppId(1), {SlotAsk(0)}).ok());
  mp.Step();
  EXPECT_TRUE(pool.queues().User(q, alice, kSlot).active);  // app 2 still asks
  ASSERT_TRUE(pool.SetAsks(AppId(2), {SlotAsk(0)}).ok());
  mp.Step();
  EXPECT_EQ(active(), 0);
  EXPECT_FALSE(pool.queues().User(q, alice, kSlot).active);
}

// An application held by the AM limit (AppSpec::held) has no asks in the
// pool. Hadoop 2.x's ActiveUsersManager counts its user anyway (its AM
// request is outstanding), 3.3's UsersManager does not (the user has no
// activated application). User A asks for the whole 100-slot queue (MULP
// 50) while user B's only app is held: under 2.7 A stops at 100 / 2 (+1),
// under 3.3 A is alone and takes everything.
TEST(UserLimitPoolTest, HeldAppsMakeTheirUsersActiveUnderHadoop2Only) {
  for (const UserLimitRules rules : {UserLimitRules::kHadoop2_7, UserLimitRules::kHadoop3_3}) {
    testing::ManualPool mp(testing::SmallOptions(SyncMode::kMonolithic, 1, 1));
    SchedulerPool& pool = *mp.pool;
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(pool.AddNode(testing::Node(10)).ok());
    const QueueId q = mp.Queue(LimitedQueue("a", 100, 100, 100, 50, 1, rules));
    const UserId a = pool.InternUser("a");
    const UserId b = pool.InternUser("b");
    AppSpec held(AppId(2), q, 0, b);
    held.held = true;
    ASSERT_TRUE(pool.AddApp(AppSpec(AppId(1), q, 0, a)).ok());
    ASSERT_TRUE(pool.AddApp(held).ok());
    ASSERT_TRUE(pool.SetAsks(AppId(1), {SlotAsk(1000)}).ok());
    for (int i = 0; i < 20; ++i) mp.Step(milliseconds(50));
    const bool hadoop2 = rules == UserLimitRules::kHadoop2_7;
    EXPECT_EQ(pool.queues().User(q, b, kSlot).active, hadoop2);
    EXPECT_EQ(mp.Take(AppId(1)).size(), hadoop2 ? 51u : 100u);
    // Activated: the AM ask arrives first, then the hold is lifted. Under
    // 2.7 it is placed in the room A left; under 3.3 the queue is full and
    // B is active by its ask now.
    ASSERT_TRUE(pool.SetAsks(AppId(2), {SlotAsk(1)}).ok());
    held.held = false;
    ASSERT_TRUE(pool.UpdateApp(held).ok());
    mp.Step(milliseconds(50));
    EXPECT_EQ(mp.Take(AppId(2)).size(), hadoop2 ? 1u : 0u);
    EXPECT_EQ(pool.queues().User(q, b, kSlot).active, !hadoop2);
    // Nothing pending, not held: inactive on every line.
    ASSERT_TRUE(pool.SetAsks(AppId(2), {SlotAsk(0)}).ok());
    mp.Step(milliseconds(50));
    EXPECT_FALSE(pool.queues().User(q, b, kSlot).active);
    EXPECT_EQ(pool.queues().User(q, a, kSlot).active_users, 1);
  }
}

// The pool's own threads: 4 schedulers, one user's 8 apps pinned across
// them, each asking for 50 slots of a 100-slot cell whose queue has a
// capacity of 10 slots (ULF 1, maximum unlimited). However the schedulers
// interleave, the user holds 11 slots (the limit, 10, plus the one the '>'
// check lets through), never more: a sweeper watches the ledger throughout.
TEST(UserLimitPoolTest, ConcurrentSchedulersNeverExceedTheUserLimit) {
  for (const UserLimitRules rules : {UserLimitRules::kHadoop2_7, UserLimitRules::kHadoop3_3}) {
    PoolOptions o = testing::SmallOptions(SyncMode::kParSync, 4, 8);
    o.sync_gap = milliseconds(5);
    auto pool = std::move(SchedulerPool::Create(o, SystemClock::Get())).value();
    QueueSpec spec = LimitedQueue("a", 10, 0, 100, 100, 1, rules);
    spec.max = Resource::Unlimited();
    const QueueId q = (*pool->SetQueues({spec}))[0];
    for (int i = 0; i < 25; ++i) ASSERT_TRUE(pool->AddNode(testing::Node(4)).ok());
    const UserId user = pool->InternUser("dave");
    const UserId other = pool->InternUser("erin");
    std::set<int> schedulers;
    for (int a = 1; a <= 8; ++a) {
      ASSERT_TRUE(pool->AddApp(AppSpec(AppId(a), q, 0, user)).ok());
      schedulers.insert(pool->SchedulerFor(AppId(a), "a"));
    }
    EXPECT_GT(schedulers.size(), 1u);
    ASSERT_TRUE(pool->Start().ok());
    std::atomic<bool> done{false};
    std::atomic<int64_t> worst{0};
    std::thread sweeper([&] {
      while (!done.load()) {
        const int64_t used = pool->queues().User(q, user, kSlot).used.memory_mb();
        if (used > worst.load()) worst = used;
        std::this_thread::yield();
      }
    });
    for (int a = 1; a <= 8; ++a) ASSERT_TRUE(pool->SetAsks(AppId(a), {SlotAsk(50)}).ok());
    // Another user of the queue is not held back by the first.
    ASSERT_TRUE(pool->AddApp(AppSpec(AppId(9), q, 0, other)).ok());
    ASSERT_TRUE(pool->SetAsks(AppId(9), {SlotAsk(3)}).ok());
    std::vector<Placement> taken;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline && taken.size() < 14) {
      for (int a = 1; a <= 9; ++a) ASSERT_TRUE(pool->TakePlacements(AppId(a), &taken).ok());
      std::this_thread::yield();
    }
    pool->Stop();
    done = true;
    sweeper.join();
    for (int a = 1; a <= 9; ++a) ASSERT_TRUE(pool->TakePlacements(AppId(a), &taken).ok());
    int64_t mine = 0;
    for (const Placement& p : taken) mine += p.user == user ? 1 : 0;
    EXPECT_EQ(mine, 11);
    EXPECT_EQ(taken.size() - static_cast<size_t>(mine), 3u);
    EXPECT_LE(worst.load(), 11 * kSlot.memory_mb());
    EXPECT_EQ(pool->queues().User(q, user, kSlot).used, kSlot * 11);
    // Releases give the user room again, and its usage back to zero.
    ASSERT_TRUE(pool->ReleaseBatch(taken).ok());
    EXPECT_TRUE(pool->queues().User(q, user, kSlot).used.IsZero());
    EXPECT_TRUE(pool->queues().Usage(q).IsZero());
  }
}

// Untaken placements of a removed app, a move to another queue and a
// recovered container all keep the user's usage in step.
TEST(UserLimitPoolTest, RemoveMoveAndRecoverKeepTheUsersUsage) {
  testing::ManualPool mp(testing::SmallOptions(SyncMode::kMonolithic, 1, 1));
  SchedulerPool& pool = *mp.pool;
  std::vector<NodeId> nodes;
  for (int i = 0; i < 4; ++i) nodes.push_back(*pool.AddNode(testing::Node(10)));
  auto ids = pool.SetQueues({LimitedQueue("a", 10, 40, 40, 100, 1, UserLimitRules::kHadoop3_3),
                             LimitedQueue("b", 10, 40, 40, 100, 1, UserLimitRules::kHadoop3_3)});
  ASSERT_TRUE(ids.ok());
  const QueueId a = (*ids)[0];
  const QueueId b = (*ids)[1];
  const UserId u = pool.InternUser("frank");
  ASSERT_TRUE(pool.AddApp(AppSpec(AppId(1), a, 0, u)).ok());
  ASSERT_TRUE(pool.AddApp(AppSpec(AppId(2), a, 0, u)).ok());
  ASSERT_TRUE(pool.SetAsks(AppId(1), {SlotAsk(4)}).ok());
  ASSERT_TRUE(pool.SetAsks(AppId(2), {SlotAsk(4)}).ok());
  mp.Step();
  EXPECT_EQ(pool.queues().User(a, u, kSlot).used, kSlot * 8);
  EXPECT_FALSE(pool.queues().User(a, u, kSlot).active);  // nothing pending
  // App 2 goes with its placements untaken.
  ASSERT_TRUE(pool.RemoveApp(AppId(2)).ok());
  EXPECT_EQ(pool.queues().User(a, u, kSlot).used, kSlot * 4);
  // App 1 moves to b: taken placements with MoveCharge.
  std::vector<Placement> got = mp.Take(AppId(1));
  ASSERT_TRUE(pool.UpdateApp(AppSpec(AppId(1), b, 0)).ok());
  for (Placement& p : got) ASSERT_TRUE(pool.MoveCharge(&p, b).ok());
  EXPECT_TRUE(pool.queues().User(a, u, kSlot).used.IsZero());
  EXPECT_EQ(pool.queues().User(b, u, kSlot).used, kSlot * 4);
  // A recovered container counts for the user in its app's queue, and the
  // app still has its user after the update.
  auto recovered = pool.RecoverPlacement(AppId(1), nodes[0], kSlot, 0, -1);
  ASSERT_TRUE(recovered.ok());
  EXPECT_EQ(recovered->user, u);
  EXPECT_EQ(pool.queues().User(a, u, kSlot).used, Resource());
  ASSERT_TRUE(pool.SetAsks(AppId(1), {SlotAsk(6)}).ok());
  mp.Step();
  // Queue b: capacity 10, ULF 1: 4 + 1 held, the limit lets 11 through.
  const std::vector<Placement> more = mp.Take(AppId(1));
  for (const Placement& p : more) EXPECT_EQ(p.user, u);
  EXPECT_EQ(more.size(), 6u);
  got.push_back(*recovered);
  got.insert(got.end(), more.begin(), more.end());
  ASSERT_TRUE(pool.ReleaseBatch(got).ok());
  EXPECT_TRUE(pool.queues().User(b, u, kSlot).used.IsZero());
  EXPECT_TRUE(pool.queues().Usage(b).IsZero());
}

}  // namespace
}  // namespace spindle::pool
