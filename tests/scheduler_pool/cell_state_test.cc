#include "scheduler_pool/cell_state.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>
#include <tuple>

#include "base/random.h"
#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool {
namespace {

using testing::AddNodes;
using testing::kSlot;
using testing::Node;

CellStateOptions Options(int partitions, int log = 64) {
  CellStateOptions o;
  o.num_partitions = partitions;
  o.change_log_entries = log;
  return o;
}

TEST(CellStateTest, AddNodeBalancesPartitionsAndEncodesThem) {
  CellState cell(Options(4));
  auto ids = AddNodes(&cell, 8, 2);
  std::map<uint32_t, int> per_partition;
  for (NodeId id : ids) ++per_partition[id.partition()];
  EXPECT_EQ(per_partition.size(), 4u);
  for (const auto& [p, n] : per_partition) EXPECT_EQ(n, 2) << p;
  auto node = cell.GetNode(ids[0]);
  ASSERT_TRUE(node.ok());
  EXPECT_EQ(node->total, kSlot * 2);
  EXPECT_EQ(node->status, NodeStatus::kRunning);
  EXPECT_EQ(cell.Capacity(), kSlot * 16);
  EXPECT_EQ(cell.FindRack("/r0")->value(), 0u);
  EXPECT_TRUE(cell.FindRack("/nope").status().IsNotFound());
  EXPECT_TRUE(cell.CheckInvariants().ok());
}

TEST(CellStateTest, RejectsBadNodes) {
  CellState cell(Options(1));
  EXPECT_EQ(cell.AddNode(NodeSpec{Resource::Of(-1, 1), "/r", 1}).status().code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(cell.AddNode(NodeSpec{kSlot, "/r", 0}).status().code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(cell.UpdateNode(NodeId(0, 5), NodeUpdate{}).IsNotFound());
  EXPECT_TRUE(cell.RemoveNode(NodeId(3, 0)).IsNotFound());
}

// The two Omega knobs against two situations of node A, which another
// scheduler changed after our view was taken: A still has room ("changed"),
// or A is now full ("full"). Node B is untouched. The transaction claims one
// slot on A and one on B.
struct KnobCase {
  ConflictMode conflict;
  TransactionMode mode;
  bool a_full;
  ClaimOutcome expect_a;
  ClaimOutcome expect_b;
};

class TransactionKnobsTest : public ::testing::TestWithParam<KnobCase> {};

TEST_P(TransactionKnobsTest, OutcomesFollowTheKnobs) {
  const KnobCase& k = GetParam();
  CellState cell(Options(2));
  const NodeId a = *cell.AddNode(Node(2));
  const NodeId b = *cell.AddNode(Node(2));
  ASSERT_NE(a.partition(), b.partition());
  const uint64_t seen_a = cell.GetNode(a)->version;
  const uint64_t seen_b = cell.GetNode(b)->version;
  // Another scheduler takes one or two slots on A.
  Transaction other;
  other.claims.push_back(Claim{a, kSlot * (k.a_full ? 2 : 1), seen_a});
  CommitResult r;
  cell.Commit(other, &r);
  ASSERT_EQ(r.committed, 1);
  const NodeState a_before = *cell.GetNode(a);
  const NodeState b_before = *cell.GetNode(b);

  Transaction txn;
  txn.conflict = k.conflict;
  txn.mode = k.mode;
  txn.claims.push_back(Claim{a, kSlot, seen_a});
  txn.claims.push_back(Claim{b, kSlot, seen_b});
  cell.Commit(txn, &r);
  EXPECT_EQ(r.outcomes[0], k.expect_a) << ClaimOutcomeName(r.outcomes[0]);
  EXPECT_EQ(r.outcomes[1], k.expect_b) << ClaimOutcomeName(r.outcomes[1]);

  const NodeState a_after = *cell.GetNode(a);
  const NodeState b_after = *cell.GetNode(b);
  const bool a_ok = k.expect_a == ClaimOutcome::kCommitted;
  const bool b_ok = k.expect_b == ClaimOutcome::kCommitted;
  EXPECT_EQ(r.committed, a_ok + b_ok);
  EXPECT_EQ(r.conflicted, 2 - a_ok - b_ok);
  EXPECT_EQ(a_after.allocated, a_before.allocated + (a_ok ? kSlot : Resource()));
  EXPECT_EQ(b_after.allocated, b_before.allocated + (b_ok ? kSlot : Resource()));
  // Versions move only with applied changes (an aborted gang leaves none).
  EXPECT_EQ(a_after.version, a_before.version + (a_ok ? 1 : 0));
  EXPECT_EQ(b_after.version, b_before.version + (b_ok ? 1 : 0));
  // Every node with a refused claim comes back with its master state.
  for (const auto& [id, state] : r.refreshed) {
    EXPECT_EQ(state.allocated, cell.GetNode(id)->allocated);
    EXPECT_EQ(state.version, cell.GetNode(id)->version);
  }
  EXPECT_EQ(r.refreshed.size(), static_cast<size_t>(!a_ok) + static_cast<size_t>(!b_ok));
  EXPECT_TRUE(cell.CheckInvariants().ok()) << cell.CheckInvariants().ToString();
}

constexpr auto kFine = ConflictMode::kFineGrained;
constexpr auto kCoarse = ConflictMode::kCoarseGrained;
constexpr auto kInc = TransactionMode::kIncremental;
constexpr auto kAon = TransactionMode::kAllOrNothing;
constexpr auto kOk = ClaimOutcome::kCommitted;

INSTANTIATE_TEST_SUITE_P(
    AllCombinations, TransactionKnobsTest,
    ::testing::Values(
        // Fine-grained: a changed node that still fits is no conflict.
        KnobCase{kFine, kInc, false, kOk, kOk}, KnobCase{kFine, kAon, false, kOk, kOk},
        KnobCase{kFine, kInc, true, ClaimOutcome::kNoFit, kOk},
        KnobCase{kFine, kAon, true, ClaimOutcome::kNoFit, ClaimOutcome::kAborted},
        // Coarse-grained: any change to the node is a conflict.
        KnobCase{kCoarse, kInc, false, ClaimOutcome::kChanged, kOk},
        KnobCase{kCoarse, kAon, false, ClaimOutcome::kChanged, ClaimOutcome::kAborted},
        KnobCase{kCoarse, kInc, true, ClaimOutcome::kChanged, kOk},
        KnobCase{kCoarse, kAon, true, ClaimOutcome::kChanged, ClaimOutcome::kAborted}));

TEST(CellStateTest, CoarseGrainedAcceptsSeveralClaimsOnOneNodeInOneTransaction) {
  CellState cell(Options(1));
  const NodeId a = *cell.AddNode(Node(3));
  const uint64_t v = cell.GetNode(a)->version;
  for (auto mode : {kInc, kAon}) {
    Transaction txn;
    txn.conflict = kCoarse;
    txn.mode = mode;
    const uint64_t base = cell.GetNode(a)->version;
    txn.claims.push_back(Claim{a, kSlot, base});
    if (mode == kInc) txn.claims.push_back(Claim{a, kSlot, base + 1});
    CommitResult r;
    cell.Commit(txn, &r);
    EXPECT_EQ(r.conflicted, 0);
  }
  EXPECT_EQ(cell.GetNode(a)->allocated, kSlot * 3);
  EXPECT_EQ(cell.GetNode(a)->version, v + 3);
}

TEST(CellStateTest, AllOrNothingAcrossPartitionsAppliesNothingOnFailure) {
  CellState cell(Options(4));
  auto ids = AddNodes(&cell, 4, 1);
  Transaction txn;
  txn.mode = kAon;
  for (NodeId id : ids) txn.claims.push_back(Claim{id, kSlot, 0});
  txn.claims.push_back(Claim{ids[2], kSlot, 0});  // one too many on node 2
  CommitResult r;
  cell.Commit(txn, &r);
  EXPECT_EQ(r.committed, 0);
  EXPECT_EQ(r.outcomes[4], ClaimOutcome::kNoFit);
  for (NodeId id : ids) EXPECT_TRUE(cell.GetNode(id)->allocated.IsZero());
  EXPECT_TRUE(cell.CheckInvariants().ok());
  txn.claims.pop_back();
  cell.Commit(txn, &r);
  EXPECT_EQ(r.committed, 4);
  EXPECT_TRUE(cell.CheckInvariants().ok());
}

// Allocated() reads each partition's published total instead of locking
// the partitions: it follows every change that finished (claims of both
// transaction modes, batched releases, recoveries, removals), equal to the
// sum taken under the locks, and shows nothing of an all-or-nothing commit
// that was taken back.
TEST(CellStateTest, AllocatedFollowsEveryFinishedChangeWithoutLocking) {
  CellState cell(Options(4));
  const auto ids = AddNodes(&cell, 8, 2);
  const auto expect_total = [&](int slots) {
    EXPECT_EQ(cell.Allocated(), kSlot * slots);
    EXPECT_EQ(cell.Allocated(), cell.Totals().allocated);
  };
  expect_total(0);
  Transaction txn;
  for (NodeId id : ids) txn.claims.push_back(Claim{id, kSlot, 0});
  CommitResult r;
  cell.Commit(txn, &r);
  ASSERT_EQ(r.committed, 8);
  expect_total(8);
  Transaction aon;
  aon.mode = kAon;
  for (NodeId id : ids) aon.claims.push_back(Claim{id, kSlot, 0});
  aon.claims.push_back(Claim{ids[0], kSlot, 0});  // a third slot on a node of two
  cell.Commit(aon, &r);
  ASSERT_EQ(r.committed, 0);
  expect_total(8);
  aon.claims.pop_back();
  cell.Commit(aon, &r);
  ASSERT_EQ(r.committed, 8);
  expect_total(16);
  std::vector<NodeRelease> releases;
  for (NodeId id : ids) releases.push_back(NodeRelease{id, kSlot});
  ASSERT_TRUE(cell.ReleaseBatch(releases.data(), releases.size()).ok());
  expect_total(8);
  ASSERT_EQ(*cell.Recover(ids[1], kSlot), RecoveredFit::kFits);
  expect_total(9);
  ASSERT_EQ(*cell.Recover(ids[1], kSlot * 2), RecoveredFit::kOvercommitted);
  expect_total(11);
  // ids[1] held four slots.
  ASSERT_TRUE(cell.RemoveNode(ids[1]).ok());
  expect_total(7);
  EXPECT_TRUE(cell.CheckInvariants().ok());
}

TEST(CellStateTest, NodesThatAreNotRunningRefuseClaims) {
  CellState cell(Options(1));
  auto ids = AddNodes(&cell, 3, 2);
  NodeUpdate decommission;
  decommission.set_status = true;
  decommission.status = NodeStatus::kDecommissioning;
  ASSERT_TRUE(cell.UpdateNode(ids[0], decommission).ok());
  ASSERT_TRUE(cell.RemoveNode(ids[1]).ok());
  Transaction txn;
  txn.claims = {Claim{ids[0], kSlot, 0}, Claim{ids[1], kSlot, 0}, Claim{NodeId(0, 99), kSlot, 0},
                Claim{ids[2], kSlot, 0}};
  CommitResult r;
  cell.Commit(txn, &r);
  EXPECT_EQ(r.outcomes[0], ClaimOutcome::kNotRunning);
  EXPECT_EQ(r.outcomes[1], ClaimOutcome::kNotRunning);
  EXPECT_EQ(r.outcomes[2], ClaimOutcome::kUnknownNode);
  EXPECT_EQ(r.outcomes[3], ClaimOutcome::kCommitted);
  EXPECT_EQ(cell.Capacity(), kSlot * 2);  // only node 2 is running
}

TEST(CellStateTest, ReleaseAndCapacityChanges) {
  CellState cell(Options(1));
  const NodeId a = *cell.AddNode(Node(4));
  Transaction txn;
  txn.claims = {Claim{a, kSlot * 3, 0}};
  CommitResult r;
  cell.Commit(txn, &r);
  ASSERT_EQ(r.committed, 1);
  EXPECT_EQ(cell.Release(a, kSlot * 4).code(), Status::Code::kInvalidArgument);
  ASSERT_TRUE(cell.Release(a, kSlot).ok());
  EXPECT_EQ(cell.GetNode(a)->allocated, kSlot * 2);
  // A heartbeat shrinks the node below its allocation: allowed, flagged,
  // and no claim fits until releases catch up.
  NodeUpdate shrink;
  shrink.set_total = true;
  shrink.total = kSlot;
  ASSERT_TRUE(cell.UpdateNode(a, shrink).ok());
  EXPECT_TRUE(cell.GetNode(a)->overcommitted);
  EXPECT_TRUE(cell.CheckInvariants().ok());
  txn.claims = {Claim{a, Resource::Of(1, 0), 0}};
  cell.Commit(txn, &r);
  EXPECT_EQ(r.outcomes[0], ClaimOutcome::kNotRunning);
  ASSERT_TRUE(cell.Release(a, kSlot).ok());
  EXPECT_FALSE(cell.GetNode(a)->overcommitted);
  EXPECT_EQ(cell.Capacity(), kSlot);
  // Releases on a removed node are accepted and ignored.
  ASSERT_TRUE(cell.RemoveNode(a).ok());
  EXPECT_TRUE(cell.Release(a, kSlot).ok());
  EXPECT_TRUE(cell.Release(NodeId(0, 77), kSlot).IsNotFound());
  EXPECT_TRUE(cell.CheckInvariants().ok());
}

TEST(CellStateTest, RecoverRecordsRunningContainersEvenBeyondCapacity) {
  CellState cell(Options(1));
  const auto ids = AddNodes(&cell, 2, 2);
  const NodeId a = ids[0];
  const uint64_t before = cell.partition_version(0);
  // Within capacity: applied like a committed claim, versions bumped.
  ASSERT_EQ(*cell.Recover(a, kSlot), RecoveredFit::kFits);
  EXPECT_EQ(cell.GetNode(a)->allocated, kSlot);
  EXPECT_FALSE(cell.GetNode(a)->overcommitted);
  EXPECT_EQ(cell.partition_version(0), before + 1);
  // Beyond it: recorded anyway, the node is flagged and refuses claims.
  ASSERT_EQ(*cell.Recover(a, kSlot * 2), RecoveredFit::kOvercommitted);
  EXPECT_EQ(cell.GetNode(a)->allocated, kSlot * 3);
  EXPECT_TRUE(cell.GetNode(a)->overcommitted);
  EXPECT_TRUE(cell.CheckInvariants().ok());
  Transaction txn;
  txn.claims = {Claim{a, kSlot, 0}};
  CommitResult r;
  cell.Commit(txn, &r);
  EXPECT_EQ(r.outcomes[0], ClaimOutcome::kNotRunning);
  ASSERT_TRUE(cell.Release(a, kSlot).ok());
  EXPECT_FALSE(cell.GetNode(a)->overcommitted);
  EXPECT_EQ(cell.Allocated(), kSlot * 2);
  // A node that takes no claims still records what it runs.
  NodeUpdate decommission;
  decommission.set_status = true;
  decommission.status = NodeStatus::kDecommissioning;
  ASSERT_TRUE(cell.UpdateNode(ids[1], decommission).ok());
  ASSERT_EQ(*cell.Recover(ids[1], kSlot), RecoveredFit::kFits);
  EXPECT_EQ(cell.GetNode(ids[1])->status, NodeStatus::kDecommissioning);
  EXPECT_EQ(cell.GetNode(ids[1])->allocated, kSlot);
  // Errors change nothing.
  EXPECT_TRUE(cell.Recover(NodeId(0, 77), kSlot).status().IsNotFound());
  EXPECT_TRUE(cell.Recover(NodeId(5, 0), kSlot).status().IsNotFound());
  EXPECT_EQ(cell.Recover(a, Resource()).status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(cell.Recover(a, Resource::Of(-1, 1)).status().code(), Status::Code::kInvalidArgument);
  ASSERT_TRUE(cell.RemoveNode(ids[1]).ok());
  EXPECT_TRUE(cell.Recover(ids[1], kSlot).status().IsNotFound());
  EXPECT_EQ(cell.Allocated(), kSlot * 2);
  EXPECT_TRUE(cell.CheckInvariants().ok());
}

TEST(CellStateTest, SyncCopiesOnlyChangesWhileTheLogCoversThem) {
  CellState cell(Options(1, /*log=*/8));
  auto ids = AddNodes(&cell, 20, 4);
  std::vector<NodeState> copy;
  std::vector<uint32_t> changed;
  SyncInfo info = cell.SyncPartition(0, false, 0, &copy, &changed);
  EXPECT_TRUE(info.full);
  ASSERT_EQ(copy.size(), 20u);
  // Three changes: a delta of three slots.
  ASSERT_TRUE(cell.Release(ids[3], Resource()).ok());
  Transaction txn;
  txn.claims = {Claim{ids[5], kSlot, 0}, Claim{ids[7], kSlot, 0}};
  CommitResult r;
  cell.Commit(txn, &r);
  changed.clear();
  info = cell.SyncPartition(0, true, info.version, &copy, &changed);
  EXPECT_FALSE(info.full);
  EXPECT_EQ(changed, (std::vector<uint32_t>{ids[3].slot(), ids[5].slot(), ids[7].slot()}));
  EXPECT_EQ(copy[ids[5].slot()].allocated, kSlot);
  // Unchanged: nothing copied.
  changed.clear();
  info = cell.SyncPartition(0, true, info.version, &copy, &changed);
  EXPECT_FALSE(info.full);
  EXPECT_TRUE(changed.empty());
  // More changes than the log holds: a full copy.
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(cell.Release(ids[5], Resource()).ok());
  info = cell.SyncPartition(0, true, info.version, &copy, &changed);
  EXPECT_TRUE(info.full);
  EXPECT_EQ(info.version, cell.partition_version(0));
}

// A full sync writes only the nodes whose version differs from the
// master's; the copy ends equal to the master whatever it held: nodes the
// master changed, a claim of the holder's own that the master committed (as
// CellView::Claim keeps it: allocated and version both moved), and nodes
// added since the copy was taken.
TEST(CellStateTest, AFullSyncLeavesTheCopyEqualToTheMaster) {
  CellState cell(Options(1, /*log=*/8));
  auto ids = AddNodes(&cell, 20, 4);
  std::vector<NodeState> copy;
  std::vector<uint32_t> changed;
  SyncInfo info = cell.SyncPartition(0, false, 0, &copy, &changed);
  ASSERT_TRUE(info.full);
  // The holder's own claim, committed.
  NodeState& mine = copy[ids[2].slot()];
  Transaction txn;
  txn.claims = {Claim{ids[2], kSlot, mine.version}};
  mine.allocated += kSlot;
  ++mine.version;
  CommitResult r;
  cell.Commit(txn, &r);
  ASSERT_EQ(r.committed, 1);
  // Others' changes, more than the log holds, and a node added since.
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(cell.Release(ids[5], Resource()).ok());
  txn.claims = {Claim{ids[9], kSlot, 0}, Claim{ids[9], kSlot, 0}};
  cell.Commit(txn, &r);
  ASSERT_EQ(r.committed, 2);
  NodeUpdate rescore;
  rescore.set_score = true;
  rescore.score = 7.5;
  ASSERT_TRUE(cell.UpdateNode(ids[11], rescore).ok());
  const NodeId added = *cell.AddNode(NodeSpec{kSlot * 4, "/r0", 1.0});
  changed.clear();
  info = cell.SyncPartition(0, true, info.version, &copy, &changed);
  EXPECT_TRUE(info.full);
  EXPECT_EQ(info.version, cell.partition_version(0));
  ASSERT_EQ(copy.size(), 21u);
  for (uint32_t slot = 0; slot < copy.size(); ++slot) {
    const NodeState master = *cell.GetNode(NodeId(0, slot));
    EXPECT_EQ(copy[slot].version, master.version) << slot;
    EXPECT_EQ(copy[slot].allocated, master.allocated) << slot;
    EXPECT_EQ(copy[slot].total, master.total) << slot;
    EXPECT_EQ(copy[slot].score, master.score) << slot;
    EXPECT_EQ(copy[slot].status, master.status) << slot;
  }
  EXPECT_EQ(copy[ids[9].slot()].allocated, kSlot * 2);
  EXPECT_EQ(copy[ids[11].slot()].score, 7.5);
  EXPECT_EQ(copy[added.slot()].total, kSlot * 4);
}

// Many threads commit random transactions (every knob combination, stale
// versions, multi-partition gangs) and release, while another sweeps the
// invariants. No node is ever over-committed, and at the end each node's
// allocation is exactly what was committed and not released.
TEST(CellStateTest, ConcurrentCommitsNeverOverCommit) {
  constexpr int kThreads = 8;
  constexpr int kIterations = 10000;
  constexpr int kNodes = 48;
  CellState cell(Options(6, 128));
  auto ids = AddNodes(&cell, kNodes, 3);
  std::atomic<bool> done{false};
  std::atomic<int64_t> sweeps{0};
  std::vector<std::map<uint32_t, int64_t>> held(kThreads);  // node -> slots held by thread
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Random rng(1000 + t);
      CommitResult r;
      std::vector<std::pair<NodeId, int64_t>> mine;
      for (int it = 0; it < kIterations; ++it) {
        if (!mine.empty() && rng.OneIn(3)) {
          const size_t k = rng.Uniform(mine.size());
          EXPECT_TRUE(cell.Release(mine[k].first, kSlot * mine[k].second).ok());
          held[t][mine[k].first.value()] -= mine[k].second;
          mine[k] = mine.back();
          mine.pop_back();
          continue;
        }
        Transaction txn;
        txn.conflict = rng.OneIn(2) ? kFine : kCoarse;
        txn.mode = rng.OneIn(3) ? kAon : kInc;
        const int claims = 1 + static_cast<int>(rng.Uniform(5));
        for (int c = 0; c < claims; ++c) {
          const NodeId id = ids[rng.Uniform(kNodes)];
          // A possibly stale version, as a scheduler's view would have.
          const uint64_t v = cell.GetNode(id)->version - rng.Uniform(2);
          txn.claims.push_back(Claim{id, kSlot * (1 + static_cast<int64_t>(rng.Uniform(2))), v});
        }
        cell.Commit(txn, &r);
        EXPECT_EQ(r.committed + r.conflicted, static_cast<int64_t>(txn.claims.size()));
        if (txn.mode == kAon) {
          EXPECT_TRUE(r.committed == 0 || r.conflicted == 0);
        }
        for (size_t i = 0; i < txn.claims.size(); ++i) {
          if (r.outcomes[i] != ClaimOutcome::kCommitted) continue;
          const int64_t slots = txn.claims[i].resource.memory_mb() / kSlot.memory_mb();
          mine.emplace_back(txn.claims[i].node, slots);
          held[t][txn.claims[i].node.value()] += slots;
        }
      }
    });
  }
  std::thread sweeper([&] {
    while (!done.load()) {
      const Status s = cell.CheckInvariants();
      EXPECT_TRUE(s.ok()) << s.ToString();
      sweeps.fetch_add(1);
    }
  });
  for (auto& th : threads) th.join();
  done = true;
  sweeper.join();
  EXPECT_GT(sweeps.load(), 0);
  ASSERT_TRUE(cell.CheckInvariants().ok());
  for (NodeId id : ids) {
    int64_t slots = 0;
    for (const auto& h : held) {
      auto it = h.find(id.value());
      if (it != h.end()) slots += it->second;
    }
    EXPECT_EQ(cell.GetNode(id)->allocated, kSlot * slots) << id;
    EXPECT_LE(slots, 3) << id;
  }
}

}  // namespace
}  // namespace spindle::pool
