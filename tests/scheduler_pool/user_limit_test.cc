// User limits (scheduler_pool/user_limit.h) and their enforcement in the
// queue ledger's reservations, with the numbers of Hadoop's own
// TestLeafQueue cases.
#include "scheduler_pool/user_limit.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "scheduler_pool/queue_ledger.h"

namespace spindle::pool {
namespace {

constexpr int64_t kGb = 1024;

Resource Gb(int64_t gb, int64_t vcores = 1) { return Resource::Of(gb * kGb, vcores); }
Resource Mb(int64_t mb, int64_t vcores = 1) { return Resource::Of(mb, vcores); }

UserLimitSpec Spec(UserLimitRules rules, Resource capacity, Resource cluster, int32_t mulp,
                   double ulf) {
  UserLimitSpec s;
  s.enabled = true;
  s.rules = rules;
  s.capacity = capacity;
  s.cluster = cluster;
  s.minimum_user_limit_percent = mulp;
  s.user_limit_factor = ulf;
  s.minimum_allocation = Gb(1);
  return s;
}

UserLimitInput Input(Resource queue_used, Resource required, int64_t active_users,
                     Resource active_used, double usage_ratio) {
  UserLimitInput in;
  in.queue_used = queue_used;
  in.required = required;
  in.active_users = active_users;
  in.active_weight = static_cast<double>(active_users);
  in.active_users_used = active_used;
  in.usage_ratio = usage_ratio;
  return in;
}

int64_t HeadroomMb(const UserLimitSpec& spec, Resource limit, Resource user_used,
                   Resource queue_limit, Resource queue_used, Resource cluster_free) {
  return UserHeadroom(spec, HeadroomInput{limit, user_used, queue_limit, queue_used, cluster_free})
      .memory_mb();
}

// TestLeafQueue#testComputeUserLimitAndSetHeadroom (2.7.7): queue B (80% of
// a 16 GB cluster: 13 GB after multiplyAndNormalizeUp), max capacity 100%.
TEST(UserLimitTest, Hadoop27ComputeUserLimitAndSetHeadroom) {
  const Resource cluster = Gb(16, 1);
  UserLimitSpec spec = Spec(UserLimitRules::kHadoop2_7, Gb(13), cluster, 100, 1);
  // Case 1: one user, 4 GB used: limit 13 GB, headroom 13 - 4 = 9 GB.
  Resource limit = ComputeUserLimit(spec, Input(Gb(4), Gb(4), 0, {}, 0));
  EXPECT_EQ(limit.memory_mb(), 13 * kGb);
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(4), cluster, Gb(4), Gb(12)), 9 * kGb);
  // Case 2: two users with 4 GB each: the queue's 16 - 8 = 8 GB is smaller.
  limit = ComputeUserLimit(spec, Input(Gb(8), Gb(4), 0, {}, 0));
  EXPECT_EQ(limit.memory_mb(), 13 * kGb);
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(4), cluster, Gb(8), Gb(8)), 8 * kGb);
  // Case 3: MULP 50, 2 GB each, nobody pending: ceil(13 GB * 50 / 100)
  // rounded up is 7 GB; headroom 7 - 2 = 5 GB.
  spec.minimum_user_limit_percent = 50;
  limit = ComputeUserLimit(spec, Input(Gb(4), Gb(2), 0, {}, 0));
  EXPECT_EQ(limit.memory_mb(), 7 * kGb);
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(2), cluster, Gb(4), Gb(12)), 5 * kGb);
  // Case 4: user_0 reserved 6 GB more (8 GB, queue 10 GB) and is the one
  // active user: limit 13 GB. user_0 gets 13 - 8 = 5 GB, user_1 (2 GB) the
  // queue's 16 - 10 = 6 GB.
  limit = ComputeUserLimit(spec, Input(Gb(10), Gb(6), 1, Gb(8), 0));
  EXPECT_EQ(limit.memory_mb(), 13 * kGb);
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(8), cluster, Gb(10), Gb(6)), 5 * kGb);
  limit = ComputeUserLimit(spec, Input(Gb(10), Gb(2), 1, Gb(8), 0));
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(2), cluster, Gb(10), Gb(6)), 6 * kGb);
}

// The same test in 3.3.0: the capacity is the truncated effective minimum
// resource (16384 x 0.8 = 13107 MB); 3.3 divides the active users' usage
// plus one minimum allocation, so in case 4 user_0's limit is 8 + 1 = 9 GB
// and its headroom 1 GB, where 2.7 says 5 GB.
TEST(UserLimitTest, Hadoop33ComputeUserLimitAndSetHeadroom) {
  const Resource cluster = Gb(16, 1);
  UserLimitSpec spec = Spec(UserLimitRules::kHadoop3_3, Mb(13107, 0), cluster, 100, 1);
  const auto ratio = [&](Resource used) { return UsageRatio(spec, used); };
  // Case 1.
  Resource limit = ComputeUserLimit(spec, Input(Gb(4), Gb(4), 0, {}, ratio(Gb(4))));
  EXPECT_EQ(limit.memory_mb(), 13 * kGb);
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(4), cluster, Gb(4), Gb(12)), 9 * kGb);
  // Case 2.
  limit = ComputeUserLimit(spec, Input(Gb(8), Gb(4), 0, {}, ratio(Gb(4)) * 2));
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(4), cluster, Gb(8), Gb(8)), 8 * kGb);
  // Case 3.
  spec.minimum_user_limit_percent = 50;
  limit = ComputeUserLimit(spec, Input(Gb(4), Gb(2), 0, {}, ratio(Gb(2)) * 2));
  EXPECT_EQ(limit.memory_mb(), 7 * kGb);
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(2), cluster, Gb(4), Gb(12)), 5 * kGb);
  // Case 4.
  limit = ComputeUserLimit(spec, Input(Gb(10), Gb(6), 1, Gb(8), ratio(Gb(8)) + ratio(Gb(2))));
  EXPECT_EQ(limit.memory_mb(), 9 * kGb);
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(8), cluster, Gb(10), Gb(6)), 1 * kGb);
  EXPECT_EQ(HeadroomMb(spec, limit, Gb(2), cluster, Gb(10), Gb(6)), 6 * kGb);
}

// Headroom per line where they differ: 2.6 takes the smaller of the two
// whole (no rounding), 2.7 the componentwise minimum rounded down, 3.3 also
// caps it by the cluster's free resources.
TEST(UserLimitTest, HeadroomRulesPerLine) {
  const Resource cluster = Gb(16, 16);
  UserLimitSpec spec = Spec(UserLimitRules::kHadoop2_6, Gb(8), cluster, 100, 1);
  spec.calculator = LimitCalculator::kDominant;
  // User side (3.5 GB, 2 vcores) against queue side (6 GB, 1 vcore).
  const HeadroomInput in{Mb(5632, 4), Gb(2, 2), Gb(8, 2), Gb(2, 1), Gb(1, 1)};
  EXPECT_EQ(UserHeadroom(spec, in), Mb(3584, 2));  // 3.5/16 < 6/16: the user side, whole
  spec.rules = UserLimitRules::kHadoop2_7;
  EXPECT_EQ(UserHeadroom(spec, in), Mb(3072, 1));  // min per dimension, rounded down
  spec.rules = UserLimitRules::kHadoop3_3;
  EXPECT_EQ(UserHeadroom(spec, in), Gb(1, 1));  // the cluster has 1 GB free
  // The memory calculator builds rounded values from memory alone.
  spec.calculator = LimitCalculator::kMemory;
  spec.rules = UserLimitRules::kHadoop2_7;
  EXPECT_EQ(UserHeadroom(spec, in), Mb(3072, 1));
  const HeadroomInput over{Gb(2), Gb(3), Gb(8), Gb(3), Gb(5)};
  EXPECT_EQ(UserHeadroom(spec, over), Mb(0, 0));  // over the limit reads as 0
}

// One Hadoop assignContainers over a FIFO queue: the first app (in order)
// with pending asks whose user the ledger admits gets one container; an app
// whose user is at its limit is skipped; the queue's maximum stops all.
struct App {
  UserId user;
  Resource unit;
  int64_t pending = 0;
};

class LedgerQueue {
 public:
  explicit LedgerQueue(QueueSpec spec) : spec_(std::move(spec)) {
    queue_ = (*ledger_.SetQueues({spec_}))[0];
  }
  QueueSpec& spec() { return spec_; }
  void Apply() { ASSERT_TRUE(ledger_.SetQueues({spec_}).ok()); }
  int Add(UserId user, Resource unit) {
    apps_.push_back(App{user, unit, 0});
    return static_cast<int>(apps_.size()) - 1;
  }
  void Ask(int app, int64_t count) {
    App& a = apps_[static_cast<size_t>(app)];
    if (a.pending == 0 && count > 0)
      ledger_.SetAppActive(queue_, a.user, AppOf(static_cast<size_t>(app)), true);
    a.pending += count;
  }
  // The app given a container, or -1.
  static AppId AppOf(size_t index) { return AppId(index + 1); }
  int Assign() {
    for (size_t i = 0; i < apps_.size(); ++i) {
      App& a = apps_[i];
      if (a.pending <= 0) continue;
      const Reservation r = ledger_.Reserve(queue_, a.user, a.unit, 1);
      if (r.granted == 1) {
        if (--a.pending == 0) ledger_.SetAppActive(queue_, a.user, AppOf(i), false);
        return static_cast<int>(i);
      }
      if (r.block == ReserveBlock::kQueueMax) return -1;
    }
    return -1;
  }
  void Release(UserId user, Resource amount) { ledger_.Release(queue_, amount, user); }
  int64_t UsedMb(UserId user) const { return ledger_.User(queue_, user, {}).used.memory_mb(); }
  Resource Limit(UserId user) const { return ledger_.User(queue_, user, {}).limit; }
  int64_t QueueMb() const { return ledger_.Usage(queue_).memory_mb(); }
  int64_t ActiveUsers() const { return ledger_.User(queue_, UserId(), {}).active_users; }

 private:
  QueueSpec spec_;
  QueueLedger ledger_;
  QueueId queue_;
  std::vector<App> apps_;
};

QueueSpec LimitedQueue(UserLimitSpec limits, Resource max) {
  QueueSpec q;
  q.name = "a";
  q.max = max;
  q.user_limits = limits;
  return q;
}

// TestLeafQueue#testSingleQueueWithMultipleUsers (2.7.7): queue A (8.5% of
// 8 GB normalised up to 1 GB), one 8 GB node, max capacity 100%.
TEST(UserLimitLedgerTest, Hadoop27SingleQueueWithMultipleUsers) {
  const Resource cluster = Gb(8, 16);
  LedgerQueue q(LimitedQueue(Spec(UserLimitRules::kHadoop2_7, Gb(1), cluster, 100, 1), cluster));
  const UserId u0(0), u1(1), u2(2);
  const int app0 = q.Add(u0, Gb(1));
  const int app1 = q.Add(u0, Gb(1));
  const int app2 = q.Add(u1, Gb(3));
  const int app3 = q.Add(u2, Gb(1));
  q.Ask(app0, 10);
  q.Ask(app1, 10);
  EXPECT_EQ(q.Assign(), app0);
  // One container more than the user limit.
  EXPECT_EQ(q.Assign(), app0);
  EXPECT_EQ(q.UsedMb(u0), 2 * kGb);
  // Can't allocate a 3rd due to the user limit.
  q.spec().user_limits.minimum_user_limit_percent = 25;
  q.Apply();
  EXPECT_EQ(q.Assign(), -1);
  q.Ask(app2, 1);
  q.Ask(app3, 2);
  // app_2 goes: user_0 is at its limit in spite of a user-limit-factor of 10.
  q.spec().user_limits.user_limit_factor = 10;
  q.Apply();
  EXPECT_EQ(q.Assign(), app2);
  EXPECT_EQ(q.QueueMb(), 5 * kGb);
  // Then app_0: user_0 is at its limit, not above it.
  EXPECT_EQ(q.Assign(), app0);
  EXPECT_EQ(q.QueueMb(), 6 * kGb);
  // Max capacity 50%: nothing.
  q.spec().max = Gb(4, 8);
  q.Apply();
  EXPECT_EQ(q.Assign(), -1);
  // Back to 100% and a factor of 1: app_3, whose user is under its limit, twice.
  q.spec().max = cluster;
  q.spec().user_limits.user_limit_factor = 1;
  q.Apply();
  EXPECT_EQ(q.Assign(), app3);
  EXPECT_EQ(q.Assign(), app3);
  EXPECT_EQ(q.QueueMb(), 8 * kGb);
  EXPECT_EQ(q.UsedMb(u0), 3 * kGb);
  EXPECT_EQ(q.UsedMb(u1), 3 * kGb);
  EXPECT_EQ(q.UsedMb(u2), 2 * kGb);
  q.Release(u0, Gb(3));
  q.Release(u1, Gb(3));
  q.Release(u2, Gb(2));
  EXPECT_EQ(q.QueueMb(), 0);
  EXPECT_EQ(q.UsedMb(u0), 0);
}

// TestLeafQueue#testUserLimits (2.7.7): queue A (2 GB once normalised) of
// 16 GB, MULP 50, ULF 2; only user_0 is active, so it goes past half.
TEST(UserLimitLedgerTest, Hadoop27UserLimits) {
  const Resource cluster = Gb(16, 32);
  LedgerQueue q(LimitedQueue(Spec(UserLimitRules::kHadoop2_7, Gb(2), cluster, 50, 2), cluster));
  const UserId u0(0), u1(1);
  const int app0 = q.Add(u0, Gb(2));
  const int app1 = q.Add(u0, Gb(1));
  q.Add(u1, Gb(1));
  q.Ask(app0, 1);
  q.Ask(app1, 2);
  EXPECT_EQ(q.ActiveUsers(), 1);
  EXPECT_EQ(q.Assign(), app0);
  EXPECT_EQ(q.Assign(), app1);  // not yet over the limit
  EXPECT_EQ(q.Assign(), app1);  // the only active user
  EXPECT_EQ(q.QueueMb(), 4 * kGb);
}

// TestLeafQueue#testUserLimits (3.3.0): queue A's effective capacity is
// 16384 x 0.085 = 1392 MB; two active users, MULP 50, ULF 2. After user_0's
// first 3 GB container, user_1 goes first although app_0 was submitted
// earlier; then the limit is ceil((4 + 1) / 2) = 3 GB, and user_0 (3 GB) is
// not above it.
TEST(UserLimitLedgerTest, Hadoop33UserLimits) {
  const Resource cluster = Gb(16, 32);
  LedgerQueue q(
      LimitedQueue(Spec(UserLimitRules::kHadoop3_3, Mb(1392, 2), cluster, 50, 2), cluster));
  const UserId u0(0), u1(1);
  const int app0 = q.Add(u0, Gb(3));
  const int app1 = q.Add(u1, Gb(1));
  q.Ask(app0, 2);
  q.Ask(app1, 2);
  EXPECT_EQ(q.ActiveUsers(), 2);
  EXPECT_EQ(q.Assign(), app0);
  EXPECT_EQ(q.Assign(), app1);
  EXPECT_EQ(q.Assign(), app0);
  EXPECT_EQ(q.QueueMb(), 7 * kGb);
  EXPECT_EQ(q.UsedMb(u0), 6 * kGb);
  EXPECT_EQ(q.ActiveUsers(), 1);
}

// TestLeafQueue#testUserSpecificUserLimits (3.3.0): queue A, 8.5% of a
// 16 GB x 32 cluster (effective capacity 1392 MB), max capacity 100%,
// MULP 50, ULF 2, user_0 of weight 1.5 asking for 4 GB containers, user_1
// for 1 GB ones. With both active the fair part divides by 2.5; the queue
// limit goes 1 GB, 3 GB, 3 GB, and user_0's own is it x 1.5 rounded down
// to 1 GB: 1 GB, 4 GB, 4 GB. user_0 gets two containers, then only user_1.
TEST(UserLimitLedgerTest, Hadoop33UserSpecificUserLimits) {
  const Resource cluster = Gb(16, 32);
  UserLimitSpec limits = Spec(UserLimitRules::kHadoop3_3, Mb(1392, 2), cluster, 50, 2);
  const UserId u0(0), u1(1);
  limits.user_weights.push_back(UserWeight{"user_0", u0, 1.5});
  LedgerQueue q(LimitedQueue(limits, cluster));
  const int app0 = q.Add(u0, Gb(4));
  const int app1 = q.Add(u1, Gb(1));
  q.Ask(app0, 3);
  q.Ask(app1, 2);
  EXPECT_EQ(q.Limit(u0).memory_mb(), 1 * kGb);
  EXPECT_EQ(q.Assign(), app0);
  EXPECT_EQ(q.Limit(u1).memory_mb(), 3 * kGb);
  EXPECT_EQ(q.Limit(u0).memory_mb(), 4 * kGb);
  EXPECT_EQ(q.Assign(), app0);
  EXPECT_EQ(q.Limit(u1).memory_mb(), 3 * kGb);
  EXPECT_EQ(q.Limit(u0).memory_mb(), 4 * kGb);
  EXPECT_EQ(q.Assign(), app1);
  EXPECT_EQ(q.QueueMb(), 9 * kGb);
  EXPECT_EQ(q.UsedMb(u0), 8 * kGb);
  EXPECT_EQ(q.UsedMb(u1), 1 * kGb);
}

// The same queue without the weight: user_0's limit is the queue's, 1 GB
// then 3 GB (the fair part dividing by 2), so after its first 4 GB
// container user_1 is served.
TEST(UserLimitLedgerTest, Hadoop33WithoutUserWeightsEachUserGetsTheQueueLimit) {
  const Resource cluster = Gb(16, 32);
  const UserId u0(0), u1(1);
  LedgerQueue q(
      LimitedQueue(Spec(UserLimitRules::kHadoop3_3, Mb(1392, 2), cluster, 50, 2), cluster));
  const int app0 = q.Add(u0, Gb(4));
  const int app1 = q.Add(u1, Gb(1));
  q.Ask(app0, 3);
  q.Ask(app1, 2);
  EXPECT_EQ(q.Assign(), app0);
  EXPECT_EQ(q.Limit(u0).memory_mb(), 3 * kGb);
  EXPECT_EQ(q.Assign(), app1);
}

// Weights are a 3.x setting: the 2.x rules give every user the queue's limit.
TEST(UserLimitTest, UserWeightsApplyUnderHadoop33Only) {
  UserLimitSpec spec = Spec(UserLimitRules::kHadoop3_3, Gb(8), Gb(16), 50, 2);
  const UserId u(3);
  spec.user_weights.push_back(UserWeight{"u", u, 2.5});
  EXPECT_EQ(spec.WeightOf(u), 2.5);
  EXPECT_EQ(spec.WeightOf(UserId(4)), 1.0);
  // 3 GB x 2.5 = 7.5 GB, rounded down to 7 GB.
  EXPECT_EQ(UserSpecificLimit(spec, Gb(3), 2.5).memory_mb(), 7 * kGb);
  spec.rules = UserLimitRules::kHadoop2_7;
  EXPECT_EQ(spec.WeightOf(u), 1.0);
  EXPECT_EQ(UserSpecificLimit(spec, Gb(3), 2.5).memory_mb(), 3 * kGb);
}

// Where the lines differ in outcome: two active users, MULP 25, a 12 GB
// queue, only user_0 being served. 2.x gives each active user
// capacity / 2 = 6 GB at once (7 GB with the container the '>' check lets
// through); 3.3 divides what the active users hold plus one minimum
// allocation, so user_0 stops at the MULP floor, 3 GB (+1), until the other
// user's usage grows.
TEST(UserLimitLedgerTest, LinesDifferForTheFirstComer) {
  const Resource cluster = Gb(12, 12);
  const UserId u0(0), u1(1);
  for (const auto& [rules, expected_gb] :
       {std::pair{UserLimitRules::kHadoop2_7, 7}, std::pair{UserLimitRules::kHadoop3_3, 4}}) {
    QueueLedger ledger;
    const QueueId q =
        (*ledger.SetQueues({LimitedQueue(Spec(rules, Gb(12, 12), cluster, 25, 1), cluster)}))[0];
    ledger.SetAppActive(q, u0, AppId(1), true);
    ledger.SetAppActive(q, u1, AppId(2), true);
    const Reservation r = ledger.Reserve(q, u0, Gb(1), 100);
    EXPECT_EQ(r.granted, expected_gb);
    EXPECT_EQ(r.block, ReserveBlock::kUserLimit);
    // What user_1 then holds raises user_0's limit under 3.3 only: with
    // 4 + 3 GB held it is ceil(8 / 2) = 4 GB, then ceil(9 / 2) rounded up to
    // 5 GB, then 5 GB against user_0's 6: two more containers.
    EXPECT_EQ(ledger.Reserve(q, u1, Gb(1), 3).granted, 3);
    const int64_t more = ledger.Reserve(q, u0, Gb(1), 100).granted;
    EXPECT_EQ(more, rules == UserLimitRules::kHadoop3_3 ? 2 : 0);
  }
}

// Several threads reserving for one user at once: the reservations are
// atomic with the limit, so together they stop exactly where one thread
// would (the limit plus the one container the '>' check lets through).
TEST(UserLimitLedgerTest, ConcurrentReservationsNeverExceedTheLimit) {
  const Resource cluster = Gb(100, 100);
  for (const UserLimitRules rules : {UserLimitRules::kHadoop2_7, UserLimitRules::kHadoop3_3}) {
    QueueLedger ledger;
    // Capacity 10 GB, MULP 100, ULF 1: one user may have 10 GB (+1).
    const QueueId q =
        (*ledger.SetQueues({LimitedQueue(Spec(rules, Gb(10, 10), cluster, 100, 1), cluster)}))[0];
    const UserId user(7);
    for (int app = 0; app < 8; ++app) ledger.SetAppActive(q, user, AppId(app + 1), true);
    std::atomic<int64_t> granted{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&] {
        for (;;) {
          const Reservation r = ledger.Reserve(q, user, Gb(1), 1);
          granted += r.granted;
          if (r.granted == 0) {
            EXPECT_EQ(r.block, ReserveBlock::kUserLimit);
            return;
          }
        }
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(granted.load(), 11);
    EXPECT_EQ(ledger.User(q, user, Gb(1)).used, Gb(11, 11));
    EXPECT_EQ(ledger.Usage(q), Gb(11, 11));
    // A user without an id is not limited.
    EXPECT_EQ(ledger.Reserve(q, UserId(), Gb(1), 5).granted, 5);
  }
}

}  // namespace
}  // namespace spindle::pool
