// TunnelMembers: the wind tunnel's remote schedulers. With
// PoolOptions::remote_schedulers = K the pool pins the apps of its last K
// slots to its cell-state service (SchedulerPool::remote_service()); these
// are K SchedulerMembers of that service (the pool's Scheduler code, over
// RemoteCell), each over its own ThriftConnection, so every call goes
// through the Thrift client, the codec, compact protocol and framing, and
// its bytes are counted:
//  - Wire::kInMemory (virtual clock): the connection hands each framed
//    request to the service's processor in the caller's thread; the driver
//    steps member j itself (Step) and models the network as a round trip
//    per call (TunnelRunOptions::remote_rtt);
//  - Wire::kLoopback (real clock): a ThriftCellServer on 127.0.0.1 (port 0)
//    and one thread per member in this process (Start/Stop), each stepping
//    as `spindle scheduler` does, with the board polled every `poll`.
//
// A member takes the sync rotation's place of the in-process scheduler it
// stands for: member j is index num_schedulers() + j of N + K, so the K
// members and N in-process schedulers sync as N + K in-process ones would
// (the in-process ones keep the pool's rotation of N: see README.md).
//
// Thread-safety: Step from the driver's thread; Start/Stop from it too; the
// counters are safe from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "scheduler_pool/remote/scheduler_member.h"
#include "scheduler_pool/remote/thrift_connection.h"
#include "scheduler_pool/remote/thrift_server.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::replay {

// What the members carried and saw.
struct MemberFigures {
  int members = 0;
  pool::remote::WireStats wire;  // summed over the members' connections
  int64_t placements = 0;
  int64_t conflicts = 0;
  double mean_staleness_ms = 0;  // over the members' steps
  double max_staleness_ms = 0;
};

class TunnelMembers {
 public:
  enum class Wire : uint8_t { kInMemory, kLoopback };

  // K = pool->options().remote_schedulers members, joined. `pool` and
  // `clock` outlive them. InvalidArgument without remote slots; IoError if
  // the loopback server cannot listen.
  static Result<std::unique_ptr<TunnelMembers>> Create(pool::SchedulerPool* pool,
                                                       const Clock* clock, Wire wire);
  ~TunnelMembers();  // Stop()s, then the members leave

  int size() const { return static_cast<int>(members_.size()); }
  // The pool's slot of member j's apps' range: pool.num_schedulers() + j.
  int first_slot() const { return first_slot_; }

  // Virtual clock: one step of member j at `now`; `calls` gets the round
  // trips it made. A lost lease joins again (the step reports nothing).
  Result<pool::StepResult> Step(int j, TimePoint now, int64_t* calls);

  // Real clock: one thread per member, stepping again at once while it
  // places, else at its next sync slot or after `poll`, whichever is first.
  void Start(Duration poll);
  void Stop();

  // Placements and conflicts of every member's steps so far.
  int64_t placed() const { return placed_.load(std::memory_order_relaxed); }
  int64_t conflicts() const { return conflicts_.load(std::memory_order_relaxed); }
  // On the real clock: after Stop().
  MemberFigures Figures() const;

 private:
  struct Member {
    std::unique_ptr<pool::remote::ThriftConnection> wire;
    std::unique_ptr<pool::remote::SchedulerMember> member;
  };
  TunnelMembers() = default;
  void Loop(int j, Duration poll);

  const Clock* clock_ = nullptr;
  int first_slot_ = 0;
  std::unique_ptr<pool::remote::ThriftCellServer> server_;
  std::vector<Member> members_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> placed_{0};
  std::atomic<int64_t> conflicts_{0};
};

}  // namespace spindle::replay
