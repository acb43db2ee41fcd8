// thrift_codec: round trips, what a peer could get wrong, and the figures
// behind the protocol choice (README.md): bytes of a DiffSync slice and of a
// commit under TBinaryProtocol and TCompactProtocol, and their encode cost
// (printed only; CPU time on a shared box is not asserted).
#include "scheduler_pool/remote/thrift_codec.h"

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <ctime>
#include <iostream>
#include <memory>

#include "tests/scheduler_pool/test_util.h"

namespace spindle::pool::remote {
namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::transport::TMemoryBuffer;
using pool::testing::kSlot;

NodeState SomeNode(uint64_t i) {
  NodeState n;
  n.total = Resource::Of(65536, 32);
  n.allocated = Resource::Of(1024 * static_cast<int64_t>(i % 64), static_cast<int64_t>(i % 32));
  n.version = 1000 + i;
  n.score = 1.0;
  n.rack = RackId(static_cast<uint32_t>(i / 40));
  n.status = NodeStatus::kRunning;
  return n;
}

// A slice as a 500-node partition's full copy, or its 16 changed nodes.
wire::SyncReply Slice(bool full) {
  PartitionSlice s;
  s.partition = 3;
  s.info.version = 123456;
  s.info.full = full;
  s.node_count = 500;
  for (uint32_t slot = 0; slot < 500; ++slot) {
    if (full) {
      s.nodes.push_back(SomeNode(slot));
    } else if (slot % 31 == 0) {
      s.changes.emplace_back(slot, SomeNode(slot));
    }
  }
  CellFigures figures;
  figures.capacity = Resource::Of(65536LL * 10000, 32 * 10000);
  return EncodeSync({s}, figures);
}

// A step's transaction: 256 claims of one slot.
wire::CommitRequest Commit256() {
  Transaction txn;
  for (uint32_t i = 0; i < 256; ++i) {
    txn.claims.push_back(Claim{NodeId(i % 20, i * 7), kSlot, 1000 + i, kDefaultLabel});
    txn.owners.push_back(ClaimOwner{AppId(1000 + i % 8), 1, -1, 2, false});
  }
  return EncodeCommit(MemberToken{3, 1764300000000}, 42, txn);
}

template <typename Protocol, typename Message>
size_t Encode(const Message& m, double* cpu_ns_each) {
  auto buffer = std::make_shared<TMemoryBuffer>();
  Protocol protocol(buffer);
  constexpr int kRounds = 200;
  const std::clock_t start = std::clock();
  for (int i = 0; i < kRounds; ++i) {
    buffer->resetBuffer();
    m.write(&protocol);
  }
  *cpu_ns_each = 1e9 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC / kRounds;
  return buffer->available_read();
}

template <typename Message>
void Compare(const char* name, const Message& m) {
  double binary_ns = 0;
  double compact_ns = 0;
  const size_t binary = Encode<TBinaryProtocol>(m, &binary_ns);
  const size_t compact = Encode<TCompactProtocol>(m, &compact_ns);
  std::cout << name << ": binary " << binary << " B (" << static_cast<int64_t>(binary_ns)
            << " ns CPU), compact " << compact << " B (" << static_cast<int64_t>(compact_ns)
            << " ns CPU)\n";
  EXPECT_LT(compact, binary) << name;
}

TEST(ThriftCodecTest, CompactIsSmallerForSyncSlicesAndCommits) {
  Compare("full slice, 500 nodes", Slice(true));
  Compare("delta slice, 17 of 500 nodes", Slice(false));
  Compare("commit, 256 claims", Commit256());
}

TEST(ThriftCodecTest, SyncAndCommitRoundTrip) {
  std::vector<PartitionSlice> slices;
  CellFigures figures;
  ASSERT_TRUE(DecodeSync(Slice(false), &slices, &figures).ok());
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_FALSE(slices[0].info.full);
  EXPECT_EQ(slices[0].node_count, 500u);
  ASSERT_EQ(slices[0].changes.size(), 17u);
  EXPECT_EQ(slices[0].changes[1].first, 31u);
  EXPECT_EQ(slices[0].changes[1].second.allocated, SomeNode(31).allocated);
  EXPECT_EQ(slices[0].changes[1].second.version, SomeNode(31).version);
  EXPECT_EQ(figures.capacity, Resource::Of(65536LL * 10000, 32 * 10000));

  Transaction txn;
  ASSERT_TRUE(DecodeCommit(Commit256(), &txn).ok());
  ASSERT_EQ(txn.claims.size(), 256u);
  ASSERT_EQ(txn.owners.size(), 256u);
  EXPECT_EQ(txn.claims[5].node, NodeId(5, 35));
  EXPECT_EQ(txn.claims[5].resource, kSlot);
  EXPECT_EQ(txn.claims[5].seen_version, 1005u);
  EXPECT_EQ(txn.owners[5].app, AppId(1005));

  CommitResult result;
  result.outcomes = {ClaimOutcome::kCommitted, ClaimOutcome::kNoFit};
  result.refreshed.emplace_back(NodeId(1, 2), SomeNode(2));
  result.committed = 1;
  result.conflicted = 1;
  CommitResult back;
  ASSERT_TRUE(DecodeCommitResult(EncodeCommitResult(result), &back).ok());
  EXPECT_EQ(back.outcomes, result.outcomes);
  ASSERT_EQ(back.refreshed.size(), 1u);
  EXPECT_EQ(back.refreshed[0].first, NodeId(1, 2));
  EXPECT_EQ(back.refreshed[0].second.allocated, SomeNode(2).allocated);
}

// Through TCompactProtocol and back, as the wire carries it (isset flags
// are those a reader sets).
template <typename Message>
Message OverTheWire(const Message& m) {
  auto buffer = std::make_shared<TMemoryBuffer>();
  TCompactProtocol protocol(buffer);
  m.write(&protocol);
  Message back;
  back.read(&protocol);
  return back;
}

TEST(ThriftCodecTest, QueueOrderingsAndAppUsageReachTheMember) {
  JoinInfo info;
  info.token = MemberToken{2, 9};
  info.lease = std::chrono::milliseconds(300);
  info.num_partitions = 4;
  info.queues = {MemberQueue{"a", QueueOrdering::kFifo, false},
                 MemberQueue{"b", QueueOrdering::kFair, true}};
  info.queues_generation = 5;
  Result<JoinInfo> joined = DecodeJoin(OverTheWire(EncodeJoin(info)));
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  ASSERT_EQ(joined->queues.size(), 2u);
  EXPECT_EQ(joined->queues[1].name, "b");
  EXPECT_EQ(joined->queues[1].ordering, QueueOrdering::kFair);
  EXPECT_TRUE(joined->queues[1].fair_size_based_weight);
  EXPECT_EQ(joined->queues[0].ordering, QueueOrdering::kFifo);
  EXPECT_EQ(joined->queues_generation, 5u);
  // A service that sends names only: the queues are FIFO.
  wire::JoinReply names_only = EncodeJoin(info);
  names_only.__isset.queue_orderings = false;
  Result<JoinInfo> old = DecodeJoin(OverTheWire(names_only));
  ASSERT_TRUE(old.ok());
  ASSERT_EQ(old->queues.size(), 2u);
  EXPECT_EQ(old->queues[1].ordering, QueueOrdering::kFifo);

  Assignments board;
  board.version = 7;
  AssignedApp& app = board.apps.emplace_back();
  app.spec.id = AppId(3);
  app.spec.queue = QueueId(1);
  app.used = kSlot * 5;
  Result<Assignments> same = DecodeAssignments(OverTheWire(EncodeAssignments(board)));
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same->queues_changed);
  ASSERT_EQ(same->apps.size(), 1u);
  EXPECT_EQ(same->apps[0].used, kSlot * 5);
  board.queues_changed = true;
  board.queues_generation = 6;
  board.queues = info.queues;
  Result<Assignments> moved = DecodeAssignments(OverTheWire(EncodeAssignments(board)));
  ASSERT_TRUE(moved.ok());
  EXPECT_TRUE(moved->queues_changed);
  EXPECT_EQ(moved->queues_generation, 6u);
  ASSERT_EQ(moved->queues.size(), 2u);
  EXPECT_EQ(moved->queues[1].ordering, QueueOrdering::kFair);
}

TEST(ThriftCodecTest, WhatAPeerGetsWrongIsInvalidArgument) {
  EXPECT_EQ(DecodeResource(std::vector<int64_t>(kMaxResourceTypes + 1, 1)).status().code(),
            Status::Code::kInvalidArgument);
  wire::SyncReply outside = Slice(false);
  outside.slices[0].nodes[0].node = static_cast<int32_t>(NodeId(4, 0).value());
  std::vector<PartitionSlice> slices;
  CellFigures figures;
  EXPECT_EQ(DecodeSync(outside, &slices, &figures).code(), Status::Code::kInvalidArgument);
  wire::SyncReply short_full = Slice(true);
  short_full.slices[0].nodes.pop_back();
  EXPECT_EQ(DecodeSync(short_full, &slices, &figures).code(), Status::Code::kInvalidArgument);
  wire::CommitRequest bad_mode = Commit256();
  bad_mode.mode = 7;
  Transaction txn;
  EXPECT_EQ(DecodeCommit(bad_mode, &txn).code(), Status::Code::kInvalidArgument);
  wire::CommitReply bad_outcome = EncodeCommitResult(CommitResult());
  bad_outcome.outcomes = std::string(1, static_cast<char>(42));
  CommitResult r;
  EXPECT_EQ(DecodeCommitResult(bad_outcome, &r).code(), Status::Code::kInvalidArgument);
  JoinInfo info;
  info.lease = std::chrono::milliseconds(300);
  info.num_partitions = 4;
  info.queues = {MemberQueue{"a"}};
  wire::JoinReply bad_ordering = EncodeJoin(info);
  bad_ordering.queue_orderings[0].ordering = 9;
  EXPECT_EQ(DecodeJoin(bad_ordering).status().code(), Status::Code::kInvalidArgument);
  wire::JoinReply short_orderings = EncodeJoin(info);
  short_orderings.queue_orderings.clear();
  EXPECT_EQ(DecodeJoin(short_orderings).status().code(), Status::Code::kInvalidArgument);
  // The service's errors keep their meaning across the wire.
  EXPECT_EQ(DecodeError(EncodeError(Status::Aborted("lease expired"))).code(),
            Status::Code::kAborted);
  EXPECT_EQ(EncodeError(Status::Aborted("stale commit 3")).kind, wire::ErrorKind::STALE_COMMIT);
  EXPECT_EQ(DecodeError(EncodeError(Status::InvalidArgument("x"))).code(),
            Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace spindle::pool::remote
