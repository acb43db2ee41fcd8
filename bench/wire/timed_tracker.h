// TimedTracker: a TrackerTransport that forwards to another and times each
// nodeHeartbeat (call to answer, as the simulated node sees it: the RPC plus
// the hand-off to the agent's event loop), counting heartbeats answered and
// failed per method. The generator installs it through
// NodeAgentOptions::wrap_tracker.
//
// Thread-safety: thread-safe; `inner` must outlive it.
#pragma once

#include <atomic>
#include <cstdint>

#include "base/mutex.h"
#include "nm_shim/agent/tracker_transport.h"
#include "scheduler_pool/metrics.h"

namespace spindle::bench::wire {

class TimedTracker final : public nm::TrackerTransport {
 public:
  explicit TimedTracker(nm::TrackerTransport* inner) : inner_(inner) {}

  void Register(const hadoop::yarn::RegisterNodeManagerRequestProto& request,
                Done<hadoop::yarn::RegisterNodeManagerResponseProto> done) override;
  void Heartbeat(const hadoop::yarn::NodeHeartbeatRequestProto& request,
                 Done<hadoop::yarn::NodeHeartbeatResponseProto> done) override;
  void Unregister(const hadoop::yarn::UnRegisterNodeManagerRequestProto& request,
                  Done<hadoop::yarn::UnRegisterNodeManagerResponseProto> done) override;

  // Heartbeats answered without error so far.
  int64_t heartbeats() const { return heartbeats_.load(std::memory_order_relaxed); }
  // Calls (of any method) that failed.
  int64_t errors() const { return errors_.load(std::memory_order_relaxed); }
  int64_t registrations() const { return registrations_.load(std::memory_order_relaxed); }
  // Latency of the heartbeats answered so far.
  pool::LatencyHistogram HeartbeatLatency() const EXCLUDES(mu_);
  // Forgets the latencies so far (the generator's warm-up).
  void ResetLatency() EXCLUDES(mu_);

 private:
  nm::TrackerTransport* const inner_;
  std::atomic<int64_t> heartbeats_{0};
  std::atomic<int64_t> errors_{0};
  std::atomic<int64_t> registrations_{0};
  mutable Mutex mu_;
  pool::LatencyHistogram latency_ GUARDED_BY(mu_);
};

}  // namespace spindle::bench::wire
