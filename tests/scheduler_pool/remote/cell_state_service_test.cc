// The cell-state service's membership, board and commit rules on a
// ManualClock, called in-process (the service is its own connection).
#include "scheduler_pool/remote/cell_state_service.h"

#include <gtest/gtest.h>

#include "scheduler_pool/remote/remote_cell.h"
#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool::remote {
namespace {

using std::chrono::milliseconds;
using testing::kSlot;
using testing::SlotAsk;

constexpr Duration kLease = milliseconds(300);

struct Fixture {
  ManualClock clock;
  CellState cell{CellStateOptions{4, 64}};
  QueueLedger queues;
  CellStateService service{&cell, &queues, &clock, CellStateServiceOptions{kLease, 7}};
  std::vector<NodeId> nodes = testing::AddNodes(&cell, 8, 2);

  Fixture() { EXPECT_TRUE(queues.SetQueues({testing::NamedQueue("default")}).ok()); }

  MemberToken Join(const std::string& name) {
    Result<JoinInfo> info = service.Join(name);
    EXPECT_TRUE(info.ok()) << info.status().ToString();
    EXPECT_EQ(info->num_partitions, 4);
    EXPECT_EQ(info->queues.size(), 1u);
    if (!info->queues.empty()) {
      EXPECT_EQ(info->queues[0].name, "default");
    }
    return info->token;
  }
  void AddApp(AppId app, int64_t slots) {
    ASSERT_TRUE(service.AddApp(AppSpec{app, QueueId(0)}).ok());
    ASSERT_TRUE(service.SetAsks(app, {SlotAsk(slots)}).ok());
  }
  static Transaction Claims(AppId app, const std::vector<NodeId>& on) {
    Transaction txn;
    for (NodeId n : on) {
      txn.claims.push_back(Claim{n, kSlot, 0, kDefaultLabel});
      txn.owners.push_back(ClaimOwner{app, 0, -1, 2, false});
    }
    return txn;
  }
  int64_t Forwarded(const MemberToken& t, AppId app) {
    Result<Assignments> a = service.AssignmentsSince(t, 0, 0);
    EXPECT_TRUE(a.ok()) << a.status().ToString();
    for (const AssignedApp& x : a->apps) {
      if (x.spec.id == app) return x.asks.empty() ? 0 : x.asks[0].count;
    }
    return -1;
  }
};

TEST(CellStateServiceTest, CommittedClaimsBecomeTheAppsPlacementsInTheCommit) {
  Fixture f;
  const MemberToken a = f.Join("a");
  const AppId app(1);
  f.AddApp(app, 3);
  EXPECT_EQ(*f.service.OwnerOf(app), a.member);
  EXPECT_EQ(f.Forwarded(a, app), 3);

  CommitResult result;
  ASSERT_TRUE(f.service.Commit(a, 1, Fixture::Claims(app, {f.nodes[0], f.nodes[1]}), &result).ok());
  EXPECT_EQ(result.committed, 2);
  EXPECT_EQ(f.cell.Allocated(), kSlot * 2);
  std::vector<Placement> got;
  ASSERT_TRUE(f.service.TakePlacements(app, &got).ok());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].app, app);
  EXPECT_EQ(got[0].node, f.nodes[0]);
  EXPECT_EQ(got[1].node, f.nodes[1]);
  EXPECT_NE(got[0].id, got[1].id);
  // Charged to the app's queue in the pool's ledger at commit.
  EXPECT_EQ(f.queues.Usage(QueueId(0)), kSlot * 2);
  EXPECT_TRUE(f.cell.CheckInvariants().ok());
}

TEST(CellStateServiceTest, ARetriedCommitIsAnsweredFromMemoryNeverAppliedTwice) {
  Fixture f;
  const MemberToken a = f.Join("a");
  const AppId app(1);
  f.AddApp(app, 4);
  const Transaction txn = Fixture::Claims(app, {f.nodes[2]});
  CommitResult first;
  ASSERT_TRUE(f.service.Commit(a, 5, txn, &first).ok());
  CommitResult again;
  ASSERT_TRUE(f.service.Commit(a, 5, txn, &again).ok());
  EXPECT_EQ(again.outcomes, first.outcomes);
  EXPECT_EQ(again.committed, 1);
  EXPECT_EQ(f.cell.Allocated(), kSlot);  // once
  CommitResult older;
  const Status stale = f.service.Commit(a, 4, txn, &older);
  EXPECT_EQ(stale.code(), Status::Code::kAborted) << stale.ToString();
  EXPECT_EQ(f.cell.Allocated(), kSlot);
  std::vector<Placement> got;
  ASSERT_TRUE(f.service.TakePlacements(app, &got).ok());
  EXPECT_EQ(got.size(), 1u);
  const ServiceMetrics m = f.service.Metrics();
  EXPECT_EQ(m.commits, 1);
  EXPECT_EQ(m.commits_replayed, 1);
  EXPECT_EQ(m.commits_refused, 1);
}

TEST(CellStateServiceTest, AMemberThatStopsRenewingLosesItsAppsWithinOneLease) {
  Fixture f;
  const MemberToken a = f.Join("a");
  const AppId app(1);
  f.AddApp(app, 5);
  const MemberToken b = f.Join("b");
  ASSERT_EQ(*f.service.OwnerOf(app), a.member);
  // a commits 2 (one of which the RM takes), then goes silent; b renews.
  CommitResult result;
  ASSERT_TRUE(f.service.Commit(a, 1, Fixture::Claims(app, {f.nodes[0], f.nodes[1]}), &result).ok());
  std::vector<Placement> taken;
  ASSERT_TRUE(f.service.TakePlacements(app, &taken).ok());
  ASSERT_EQ(taken.size(), 2u);
  f.clock.Advance(kLease / 2);
  ASSERT_TRUE(f.service.Renew(b, MemberReport()).ok());
  EXPECT_EQ(*f.service.OwnerOf(app), a.member);  // a's lease holds until then
  f.clock.Advance(kLease / 2);
  ASSERT_TRUE(f.service.Renew(b, MemberReport()).ok());
  EXPECT_EQ(*f.service.OwnerOf(app), b.member);
  // b is told of the app with what the AM has not yet seen deducted: 5 asked,
  // 2 handed out since the AM's total.
  EXPECT_EQ(f.Forwarded(b, app), 3);
  EXPECT_EQ(f.service.Metrics().leases_expired, 1);
  EXPECT_EQ(f.service.Metrics().apps_reassigned, 1);
}

TEST(CellStateServiceTest, ALateCommitFromAnExpiredMemberIsRefusedAndNothingApplied) {
  Fixture f;
  const MemberToken a = f.Join("a");
  const MemberToken b = f.Join("b");
  const AppId app(1);
  f.AddApp(app, 2);
  const MemberToken owner = *f.service.OwnerOf(app) == a.member ? a : b;
  const MemberToken other = owner.member == a.member ? b : a;
  // The owner is partitioned away for a whole lease; the other renews.
  f.clock.Advance(kLease - milliseconds(1));
  ASSERT_TRUE(f.service.Renew(other, MemberReport()).ok());
  f.clock.Advance(milliseconds(1));
  CommitResult late;
  const Status refused = f.service.Commit(owner, 1, Fixture::Claims(app, {f.nodes[0]}), &late);
  EXPECT_EQ(refused.code(), Status::Code::kAborted) << refused.ToString();
  EXPECT_EQ(f.cell.Allocated(), Resource());
  EXPECT_EQ(*f.service.OwnerOf(app), other.member);
  // Its renewals and syncs are refused too: it must join again.
  EXPECT_EQ(f.service.Renew(owner, MemberReport()).code(), Status::Code::kAborted);
  // A token of another service epoch is refused whatever its member id.
  MemberToken foreign = other;
  foreign.epoch += 1;
  EXPECT_EQ(f.service.Renew(foreign, MemberReport()).code(), Status::Code::kAborted);
  // The new owner's commit goes through.
  CommitResult ok;
  ASSERT_TRUE(f.service.Commit(other, 1, Fixture::Claims(app, {f.nodes[0]}), &ok).ok());
  EXPECT_EQ(ok.committed, 1);
}

TEST(CellStateServiceTest, ClaimsForAppsPinnedElsewhereAreRefused) {
  Fixture f;
  const MemberToken a = f.Join("a");
  const AppId mine(1);
  f.AddApp(mine, 2);
  const MemberToken b = f.Join("b");
  const AppId theirs(2);
  f.AddApp(theirs, 2);  // the least loaded member: b
  ASSERT_EQ(*f.service.OwnerOf(theirs), b.member);
  Transaction txn = Fixture::Claims(mine, {f.nodes[0]});
  Transaction foreign = Fixture::Claims(theirs, {f.nodes[1]});
  txn.claims.push_back(foreign.claims[0]);
  txn.owners.push_back(foreign.owners[0]);
  CommitResult r;
  ASSERT_TRUE(f.service.Commit(a, 1, txn, &r).ok());
  ASSERT_EQ(r.outcomes.size(), 2u);
  EXPECT_EQ(r.outcomes[0], ClaimOutcome::kCommitted);
  EXPECT_EQ(r.outcomes[1], ClaimOutcome::kAborted);
  // All-or-nothing: a gang with a foreign claim is not applied at all.
  txn.mode = TransactionMode::kAllOrNothing;
  txn.claims[0].node = f.nodes[2];
  ASSERT_TRUE(f.service.Commit(a, 2, txn, &r).ok());
  EXPECT_EQ(r.committed, 0);
  EXPECT_EQ(f.cell.Allocated(), kSlot);
  // Malformed: owners not parallel to claims, a negative resource.
  txn.owners.pop_back();
  EXPECT_EQ(f.service.Commit(a, 3, txn, &r).code(), Status::Code::kInvalidArgument);
  Transaction negative = Fixture::Claims(mine, {f.nodes[3]});
  negative.claims[0].resource = kSlot * -1;
  EXPECT_EQ(f.service.Commit(a, 4, negative, &r).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(f.cell.Allocated(), kSlot);
}

// A member's claims meet the pool's queue rules in the service, where an
// in-process scheduler meets them before it places (QueueLedger::Reserve):
// a claim past the queue's maximum is refused and nothing of it is charged;
// a claim the cell refuses gives its reservation back; the ledger sees the
// members' apps' users come and go as their asks are placed.
TEST(CellStateServiceTest, MembersClaimsMeetThePoolsQueueRules) {
  ManualClock clock;
  CellState cell{CellStateOptions{4, 64}};
  QueueLedger queues;
  QueueSpec capped = testing::NamedQueue("capped");
  capped.max = kSlot * 2;
  ASSERT_TRUE(queues.SetQueues({capped, testing::NamedQueue("open")}).ok());
  const QueueId capped_q(0);
  const QueueId open_q(1);
  CellStateService service{&cell, &queues, &clock, CellStateServiceOptions{kLease, 7}};
  const std::vector<NodeId> nodes = testing::AddNodes(&cell, 8, 2);
  const MemberToken a = service.Join("a")->token;
  const UserId alice(3);
  const UserId bob(5);
  const AppId first(1);
  const AppId second(2);
  ASSERT_TRUE(service.AddApp(AppSpec{first, capped_q, 0, alice}).ok());
  ASSERT_TRUE(service.SetAsks(first, {SlotAsk(4)}).ok());
  ASSERT_TRUE(service.AddApp(AppSpec{second, open_q, 0, bob}).ok());
  ASSERT_TRUE(service.SetAsks(second, {SlotAsk(2)}).ok());
  EXPECT_TRUE(queues.User(capped_q, alice, kSlot).active);
  EXPECT_TRUE(queues.User(open_q, bob, kSlot).active);

  // Three claims, room for two in the queue.
  CommitResult r;
  ASSERT_TRUE(
      service.Commit(a, 1, Fixture::Claims(first, {nodes[0], nodes[1], nodes[2]}), &r).ok());
  EXPECT_EQ(r.committed, 2);
  EXPECT_EQ(r.outcomes[2], ClaimOutcome::kAborted);
  EXPECT_EQ(cell.Allocated(), kSlot * 2);
  EXPECT_EQ(queues.Usage(capped_q), kSlot * 2);
  EXPECT_EQ(service.Metrics().claims_refused_by_queue, 1);
  // A gang past the maximum is not applied at all.
  Transaction gang = Fixture::Claims(first, {nodes[3]});
  gang.mode = TransactionMode::kAllOrNothing;
  ASSERT_TRUE(service.Commit(a, 2, gang, &r).ok());
  EXPECT_EQ(r.committed, 0);
  EXPECT_EQ(queues.Usage(capped_q), kSlot * 2);

  // One container completes (what the pool's ReleaseBatch does): room again.
  std::vector<Placement> taken;
  ASSERT_TRUE(service.TakePlacements(first, &taken).ok());
  ASSERT_EQ(taken.size(), 2u);
  ASSERT_TRUE(cell.Release(taken[0].node, taken[0].resource).ok());
  queues.Release(taken[0].queue, taken[0].resource, taken[0].user, taken[0].label);
  service.OnReleased(first, taken[0].resource);
  ASSERT_TRUE(service.Commit(a, 3, Fixture::Claims(first, {nodes[3]}), &r).ok());
  EXPECT_EQ(r.committed, 1);
  EXPECT_EQ(queues.Usage(capped_q), kSlot * 2);

  // The cell refuses the third claim on a two-slot node: its reservation
  // goes back. Then the app has all it asked for: bob is no longer active.
  ASSERT_TRUE(
      service.Commit(a, 4, Fixture::Claims(second, {nodes[4], nodes[4], nodes[4]}), &r).ok());
  EXPECT_EQ(r.committed, 2);
  EXPECT_EQ(r.outcomes[2], ClaimOutcome::kNoFit);
  EXPECT_EQ(queues.Usage(open_q), kSlot * 2);
  EXPECT_FALSE(queues.User(open_q, bob, kSlot).active);
  EXPECT_TRUE(queues.User(capped_q, alice, kSlot).active);  // one more to place
  // Removed: the ledger forgets it.
  std::vector<Placement> untaken;
  ASSERT_TRUE(service.RemoveApp(first, &untaken).ok());
  EXPECT_FALSE(queues.User(capped_q, alice, kSlot).active);
  EXPECT_TRUE(cell.CheckInvariants().ok());
}

TEST(CellStateServiceTest, FineAndCoarseConflictsAreTheCellStates) {
  Fixture f;
  const MemberToken a = f.Join("a");
  const AppId app(1);
  f.AddApp(app, 8);
  Transaction txn = Fixture::Claims(app, {f.nodes[0], f.nodes[0], f.nodes[0]});
  txn.claims[1].seen_version = 1;
  txn.claims[2].seen_version = 2;
  CommitResult fine;
  ASSERT_TRUE(f.service.Commit(a, 1, txn, &fine).ok());
  // 2 slots: the third claim does not fit (fine-grained).
  EXPECT_EQ(fine.committed, 2);
  EXPECT_EQ(fine.outcomes[2], ClaimOutcome::kNoFit);
  ASSERT_EQ(fine.refreshed.size(), 1u);
  EXPECT_EQ(fine.refreshed[0].second.allocated, kSlot * 2);
  Transaction coarse = Fixture::Claims(app, {f.nodes[1]});
  coarse.conflict = ConflictMode::kCoarseGrained;
  coarse.claims[0].seen_version = 99;  // not the node's version
  CommitResult c;
  ASSERT_TRUE(f.service.Commit(a, 2, coarse, &c).ok());
  EXPECT_EQ(c.outcomes[0], ClaimOutcome::kChanged);
}

TEST(CellStateServiceTest, RemoteCellSyncsOnlyWhatChangedAndMatchesTheMaster) {
  Fixture f;
  const MemberToken a = f.Join("a");
  RemoteCell remote(&f.service, a, f.cell.num_partitions());
  const int p = static_cast<int>(f.nodes[0].partition());
  std::vector<NodeState> copy;
  std::vector<uint32_t> changed;
  SyncInfo first = remote.SyncPartition(p, false, 0, &copy, &changed);
  EXPECT_TRUE(first.full);
  ASSERT_TRUE(f.cell.Recover(f.nodes[0], kSlot).ok());
  SyncInfo delta = remote.SyncPartition(p, true, first.version, &copy, &changed);
  EXPECT_FALSE(delta.full);
  EXPECT_EQ(delta.version, first.version + 1);
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_EQ(changed[0], f.nodes[0].slot());
  std::vector<NodeState> master;
  std::vector<uint32_t> ignored;
  f.cell.SyncPartition(p, false, 0, &master, &ignored);
  ASSERT_EQ(copy.size(), master.size());
  for (size_t i = 0; i < copy.size(); ++i) {
    EXPECT_EQ(copy[i].allocated, master[i].allocated);
    EXPECT_EQ(copy[i].version, master[i].version);
  }
  EXPECT_EQ(remote.Capacity(), f.cell.Capacity());
  // Current: nothing copied.
  changed.clear();
  SyncInfo same = remote.SyncPartition(p, true, delta.version, &copy, &changed);
  EXPECT_FALSE(same.full);
  EXPECT_TRUE(changed.empty());
}

}  // namespace
}  // namespace spindle::pool::remote
