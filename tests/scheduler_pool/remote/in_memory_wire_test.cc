// ThriftConnection in memory (ThriftConnectionOptions::in_memory): the
// wire's client, codec and framing without a socket. The same calls carry
// the same bytes as over a socket on 127.0.0.1, and a member over it places
// every ask once.
#include <gtest/gtest.h>

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
using testing::Member;

// Joins, asks for 3 slots of each of 4 apps, steps the member until they
// are placed (at most 20 steps of 10 ms); returns what it placed.
int64_t PlaceThrough(Cluster* c, CellServiceConnection* wire) {
  SchedulerMember member(wire, &c->clock, Member(0, 1));
  EXPECT_TRUE(member.Join().ok());
  for (uint64_t i = 1; i <= 4; ++i) {
    EXPECT_TRUE(c->service.AddApp(AppSpec{AppId(i), QueueId(0)}).ok());
    EXPECT_TRUE(c->service.SetAsks(AppId(i), {pool::testing::SlotAsk(3)}).ok());
  }
  std::set<uint64_t> ids;
  int64_t placed = 0;
  for (int step = 0; step < 20 && placed < 12; ++step) {
    c->clock.Advance(milliseconds(10));
    Result<StepResult> r = member.Step(c->clock.Now());
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    std::vector<Placement> out;
    for (uint64_t i = 1; i <= 4; ++i) EXPECT_TRUE(c->service.TakePlacements(AppId(i), &out).ok());
    for (const Placement& p : out) EXPECT_TRUE(ids.insert(p.id).second);
    placed += static_cast<int64_t>(out.size());
  }
  return placed;
}

TEST(InMemoryWireTest, CarriesTheSocketsBytesAndPlacesEveryAskOnce) {
  Cluster on_socket;
  pool::testing::AddNodes(&on_socket.cell, 16, 4);
  auto server = ThriftCellServer::Start(&on_socket.service, "127.0.0.1", 0);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  ThriftConnectionOptions so;
  so.port = (*server)->port();
  ThriftConnection socket_wire(so);

  Cluster in_memory;
  pool::testing::AddNodes(&in_memory.cell, 16, 4);
  ThriftConnectionOptions mo;
  mo.in_memory = &in_memory.service;
  mo.port = -1;  // unused in memory
  ThriftConnection memory_wire(mo);

  EXPECT_EQ(PlaceThrough(&on_socket, &socket_wire), 12);
  EXPECT_EQ(PlaceThrough(&in_memory, &memory_wire), 12);
  const WireStats s = socket_wire.stats();
  const WireStats m = memory_wire.stats();
  EXPECT_GT(m.calls, 3);                 // join, board, sync, commit at least
  EXPECT_GT(m.bytes_sent, 4 * m.calls);  // more than the frames' lengths
  EXPECT_GT(m.bytes_received, 4 * m.calls);
  // Same calls, same clock, same seed: the same bytes either way.
  EXPECT_EQ(m.calls, s.calls);
  EXPECT_EQ(m.bytes_sent, s.bytes_sent);
  EXPECT_EQ(m.bytes_received, s.bytes_received);
  EXPECT_TRUE(in_memory.cell.CheckInvariants().ok());
}

TEST(InMemoryWireTest, TheServicesErrorsComeBackAsOverTheWire) {
  Cluster c;
  ThriftConnectionOptions mo;
  mo.in_memory = &c.service;
  ThriftConnection wire(mo);
  // A token the service never handed out: refused as a lapsed lease.
  const Status s = wire.Renew(MemberToken{42, c.service.epoch()}, MemberReport{});
  EXPECT_EQ(s.code(), Status::Code::kAborted) << s.ToString();
  EXPECT_EQ(wire.stats().calls, 1);
}

}  // namespace
}  // namespace spindle::pool::remote
