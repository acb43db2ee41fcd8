#include "bench/wire/timed_tracker.h"

#include <gtest/gtest.h>

#include <vector>

namespace spindle::bench::wire {
namespace {

namespace y = hadoop::yarn;

// Answers each call when told to, with the given status.
class ScriptedTracker final : public nm::TrackerTransport {
 public:
  void Register(const y::RegisterNodeManagerRequestProto&,
                Done<y::RegisterNodeManagerResponseProto> done) override {
    registers.push_back(std::move(done));
  }
  void Heartbeat(const y::NodeHeartbeatRequestProto& request,
                 Done<y::NodeHeartbeatResponseProto> done) override {
    last_response_id = request.last_known_container_token_master_key().key_id();
    heartbeats.push_back(std::move(done));
  }
  void Unregister(const y::UnRegisterNodeManagerRequestProto&,
                  Done<y::UnRegisterNodeManagerResponseProto> done) override {
    done(Status::OK(), y::UnRegisterNodeManagerResponseProto());
  }
  std::vector<Done<y::RegisterNodeManagerResponseProto>> registers;
  std::vector<Done<y::NodeHeartbeatResponseProto>> heartbeats;
  int32_t last_response_id = 0;
};

TEST(TimedTrackerTest, ForwardsCallsAndAnswersAndCountsThem) {
  ScriptedTracker inner;
  TimedTracker timed(&inner);
  y::NodeHeartbeatRequestProto request;
  request.mutable_last_known_container_token_master_key()->set_key_id(42);
  std::vector<Status> seen;
  std::vector<int32_t> intervals;
  auto done = [&](Status s, const y::NodeHeartbeatResponseProto& r) {
    seen.push_back(s);
    intervals.push_back(static_cast<int32_t>(r.nextheartbeatinterval()));
  };
  timed.Heartbeat(request, done);
  timed.Heartbeat(request, done);
  EXPECT_EQ(inner.last_response_id, 42);
  ASSERT_EQ(inner.heartbeats.size(), 2u);
  y::NodeHeartbeatResponseProto response;
  response.set_nextheartbeatinterval(250);
  inner.heartbeats[0](Status::OK(), response);
  inner.heartbeats[1](Status::IoError("connection reset"), y::NodeHeartbeatResponseProto());
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen[0].ok());
  EXPECT_EQ(intervals[0], 250);
  EXPECT_EQ(seen[1].code(), Status::Code::kIoError);
  EXPECT_EQ(timed.heartbeats(), 1);
  EXPECT_EQ(timed.errors(), 1);
  EXPECT_EQ(timed.HeartbeatLatency().count(), 1);
  timed.ResetLatency();
  EXPECT_EQ(timed.HeartbeatLatency().count(), 0);
  EXPECT_EQ(timed.heartbeats(), 1);

  bool registered = false;
  timed.Register(
      y::RegisterNodeManagerRequestProto(),
      [&](Status s, const y::RegisterNodeManagerResponseProto&) { registered = s.ok(); });
  ASSERT_EQ(inner.registers.size(), 1u);
  inner.registers[0](Status::OK(), y::RegisterNodeManagerResponseProto());
  EXPECT_TRUE(registered);
  EXPECT_EQ(timed.registrations(), 1);
}

}  // namespace
}  // namespace spindle::bench::wire
