#include "bench/wire/timed_tracker.h"

#include <chrono>

namespace spindle::bench::wire {

namespace y = hadoop::yarn;

void TimedTracker::Register(const y::RegisterNodeManagerRequestProto& request,
                            Done<y::RegisterNodeManagerResponseProto> done) {
  inner_->Register(request, [this, done = std::move(done)](
                                Status s, const y::RegisterNodeManagerResponseProto& response) {
    (s.ok() ? registrations_ : errors_).fetch_add(1, std::memory_order_relaxed);
    done(std::move(s), response);
  });
}

void TimedTracker::Heartbeat(const y::NodeHeartbeatRequestProto& request,
                             Done<y::NodeHeartbeatResponseProto> done) {
  const auto start = std::chrono::steady_clock::now();
  inner_->Heartbeat(request, [this, start, done = std::move(done)](
                                 Status s, const y::NodeHeartbeatResponseProto& response) {
    if (s.ok()) {
      const auto took = std::chrono::steady_clock::now() - start;
      {
        MutexLock lock(&mu_);
        latency_.Record(took);
      }
      heartbeats_.fetch_add(1, std::memory_order_relaxed);
    } else {
      errors_.fetch_add(1, std::memory_order_relaxed);
    }
    done(std::move(s), response);
  });
}

void TimedTracker::Unregister(const y::UnRegisterNodeManagerRequestProto& request,
                              Done<y::UnRegisterNodeManagerResponseProto> done) {
  inner_->Unregister(request, std::move(done));
}

pool::LatencyHistogram TimedTracker::HeartbeatLatency() const {
  MutexLock lock(&mu_);
  return latency_;
}

void TimedTracker::ResetLatency() {
  MutexLock lock(&mu_);
  latency_.Clear();
}

}  // namespace spindle::bench::wire
