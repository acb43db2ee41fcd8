// SimulatedAm: one ApplicationMaster of the load generator, over
// ApplicationMasterProtocol only (SASL with its AMRMToken, as any AM):
//
//   registerApplicationMaster
//   allocate every `allocate_interval`, one call in flight: the first call
//     asks for `containers` containers of one size at ANY (*); each call
//     releases the containers whose hold time is over
//   every allocated container is held for `hold`, then released (it is never
//     started: the benchmark measures the RM, not container launches);
//     containers beyond `containers` are released at once (excess)
//   once every container was allocated, released and reported completed
//     (the RM reports a released container as completed, ABORTED),
//     finishApplicationMaster(SUCCEEDED), repeated until isUnregistered
//
// registerApplicationMaster refused because the attempt is not LAUNCHED yet
// (the RM has not taken in its startContainers answer: our AM starts
// instantly) is retried every 5 ms and counted apart (AmContext::
// register_retries). Any other failed call is counted (per method) and retried at the next tick;
// AM_SHUTDOWN, or `max_failures` failed calls in a row, end the AM as
// failed. Its counters are what the generator's bookkeeping checks.
//
// Resync (after an HA failover, the new active RM does not know the AM as
// registered): allocate answered ApplicationMasterNotRegisteredException,
// or AM_RESYNC, makes the AM register again and re-send what the RM must
// hold, as AMRMClientImpl.allocate does (2.6.0 and 3.3.0: pending releases
// and the outstanding asks, then allocate from response id 0);
// finishApplicationMaster answered the same registers and finishes again
// (AMRMClientImpl.unregisterApplicationMaster). The outstanding ask is what
// the AM still lacks (containers less those kept), as AMRMClient's table
// holds what was not yet matched. Containers the previous RM handed out
// were never started on a node (the benchmark holds them), so the new RM
// may not know them: those released after the resync are "unconfirmed"
// until the RM reports them completed, and the AM does not wait for them.
//
// Thread contract: every method, and every callback of its RPCs, runs on
// the AmContext's io_context (one thread, the generator's driver); the
// context's atomics may be read from anywhere.
#pragma once

#include <boost/asio.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "bench/wire/rm_failover.h"
#include "bench/wire/wire_options.h"
#include "rm/records/yarn_ids.h"
#include "scheduler_pool/metrics.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle::bench::wire {

using SteadyTime = std::chrono::steady_clock::time_point;

// What every AM of a run asks for.
struct AmSpec {
  int64_t containers = 1;
  int64_t memory_mb = 128;
  int32_t vcores = 1;
  std::chrono::milliseconds hold{1000};
  std::chrono::milliseconds allocate_interval{100};
  // Failed calls in a row before the AM gives up. Default: 20.
  int max_failures = 20;
  // registerApplicationMaster answered InvalidApplicationMasterRequest (the
  // attempt not yet LAUNCHED) is retried every 5 ms this many times.
  // Default: 400 (2 s).
  int max_register_retries = 400;
};

// Shared by the AMs of a run; lives on the driver thread except the atomics.
struct AmContext {
  boost::asio::io_context* io = nullptr;
  ipc::RpcClient* client = nullptr;
  // Where ApplicationMasterProtocol calls go (the scheduler port of the
  // current rm-id), failed over between an HA pair's rm-ids.
  RmFailover* rm = nullptr;
  std::string user;
  AmSpec spec;
  // Driver thread only.
  pool::LatencyHistogram allocate_latency;
  pool::LatencyHistogram register_latency;
  std::map<std::string, int64_t> rpc_errors;  // "method: first error" -> count
  // The failover run: when the active RM was killed (set once it is
  // reaped), and the first allocate answered OK after that (by the new
  // active), with the containers kept by then.
  std::optional<SteadyTime> killed_at;
  SteadyTime first_allocate_after_kill{};
  int64_t containers_at_first_allocate_after_kill = 0;
  int64_t resyncs = 0;  // AMs that registered again
  // AMs whose finishApplicationMaster the killed RM took and never
  // answered (the new RM ended the attempt: InvalidToken, or its AM
  // container killed); counted as unregistered, the final report decides.
  int64_t finishes_unanswered = 0;
  // Any thread.
  std::atomic<int64_t> containers_allocated{0};
  std::atomic<int64_t> allocate_calls{0};
  std::atomic<int64_t> register_retries{0};
};

class SimulatedAm {
 public:
  enum class State { kNew, kRegistering, kRunning, kFinishing, kDone, kFailed };

  // Called once, on the driver thread, when the AM is done or failed.
  using Done = std::function<void(SimulatedAm*)>;

  SimulatedAm(AmContext* context, rm::ApplicationAttemptId attempt, ipc::ClientToken amrm,
              Done done);
  SimulatedAm(const SimulatedAm&) = delete;
  SimulatedAm& operator=(const SimulatedAm&) = delete;

  // Registers and starts the allocate loop.
  void Start();
  // Stops at once (its container was killed): no more calls; Done runs
  // (state kFailed) unless it already did.
  void Abort(const std::string& why);

  State state() const { return state_; }
  const rm::ApplicationAttemptId& attempt() const { return attempt_; }
  const std::string& failure() const { return failure_; }
  SteadyTime registered_at() const { return registered_at_; }
  // When the first ask was sent and the first container came back
  // (time_point{} if not yet).
  SteadyTime first_ask_at() const { return first_ask_at_; }
  SteadyTime first_container_at() const { return first_container_at_; }

  // ---- bookkeeping ----
  int64_t allocated() const { return allocated_; }    // kept (at most `containers`)
  int64_t excess() const { return excess_; }          // beyond `containers`, released at once
  int64_t released() const { return released_; }      // release requests sent and answered
  int64_t completed() const { return completed_; }    // of those, reported completed
  int64_t duplicates() const { return duplicates_; }  // a container id allocated twice
  // An id the AM got before a resync handed out again after it (the new
  // RM recovered it as not yet acquired); counted, not kept twice.
  int64_t redelivered() const { return redelivered_; }
  // Released after a resync, allocated before it, and never reported
  // completed (the new RM did not know it).
  int64_t unconfirmed() const { return static_cast<int64_t>(unconfirmed_.size()); }
  int64_t unexpected_completions() const { return unexpected_completions_; }
  // Containers still held or released and not yet reported completed.
  int64_t outstanding() const {
    return static_cast<int64_t>(held_.size() + to_release_.size() + awaiting_completion_.size());
  }

 private:
  template <typename Req, typename Resp>
  void Call(const std::string& method, const Req& request,
            std::function<void(Status, const Resp&, SteadyTime answered_at)> then);
  void Register();
  void OnRegistered(Status s);
  // Registers again and re-sends (see the file comment); `finishing`:
  // finishApplicationMaster follows instead of the allocate loop.
  void Resync(const std::string& why, bool finishing);
  void Tick();
  void ScheduleTick();
  // `sent`: when the call was made; `answered_at`: when its answer arrived
  // on the RPC client's thread (the latency is between the two).
  void OnAllocated(Status s, const hadoop::yarn::AllocateResponseProto& response,
                   std::vector<hadoop::yarn::ContainerIdProto> sent_releases, SteadyTime sent,
                   SteadyTime answered_at);
  void Finish();
  void FinishedUnanswered(const std::string& why);
  void Fail(const std::string& why);
  void CountError(const std::string& method, const Status& s);
  bool AllDone() const;

  AmContext* const context_;
  const rm::ApplicationAttemptId attempt_;
  const ipc::ClientToken amrm_;
  Done done_;
  boost::asio::steady_timer timer_;
  State state_ = State::kNew;
  std::string failure_;
  int failures_in_a_row_ = 0;
  int register_retries_ = 0;
  int32_t response_id_ = 0;
  bool asked_ = false;  // the outstanding ask was sent (since the last resync)
  int resyncs_ = 0;
  bool finish_after_register_ = false;
  SteadyTime registered_at_{};
  SteadyTime first_ask_at_{};
  SteadyTime first_container_at_{};

  int64_t allocated_ = 0;
  int64_t excess_ = 0;
  int64_t released_ = 0;
  int64_t completed_ = 0;
  int64_t duplicates_ = 0;
  int64_t redelivered_ = 0;
  int64_t unexpected_completions_ = 0;
  // Every container id allocated to it, with the number of resyncs before.
  std::unordered_map<rm::ContainerId, int> seen_;
  // Released after a resync, allocated before it, not yet reported completed.
  std::unordered_set<rm::ContainerId> unconfirmed_;
  // Held containers in allocation order (the hold is the same for all, so
  // the front is always the next to release).
  std::deque<std::pair<SteadyTime, hadoop::yarn::ContainerIdProto>> held_;
  std::vector<hadoop::yarn::ContainerIdProto> to_release_;   // due, not yet sent
  std::unordered_set<rm::ContainerId> awaiting_completion_;  // released, not yet completed
};

}  // namespace spindle::bench::wire
