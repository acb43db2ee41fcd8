// RmFailover: where the generator's asynchronous calls to the RM go, and
// how they fail over between the rm-ids of an HA pair, as Hadoop's RMProxy
// with ConfiguredRMFailoverProxyProvider does it for a blocking call (read
// in 2.6.0 and 3.3.0; am_protocol/rm_proxy/rm_failover_proxy.h is Spindle's
// blocking form): a call that cannot reach the RM, or that the RM answers
// with StandbyException, moves every later call to the next rm-id (round
// robin) and is tried again there after the policy's sleep
// (am_protocol::RmRetryPolicy, the same decisions). Like
// RetryInvocationHandler, a failed call moves the target only if no other
// call moved it since this one was sent, so the calls in flight when the
// active dies skip one RM, not several. Any other answer reaches the
// caller as it came (an AM acts on ApplicationMasterNotRegisteredException
// itself, as AMRMClientImpl does).
//
// With one RM (no HA) a call is sent once and its answer, good or bad, goes
// to the caller: the generator counts RPC errors rather than hide them.
//
// Thread contract: every method and every `then` runs on the io_context
// given (the generator's driver thread); nothing is locked.
#pragma once

#include <google/protobuf/message_lite.h>

#include <boost/asio.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "am_protocol/rm_proxy/rm_retry_policy.h"
#include "bench/wire/async_call.h"
#include "bench/wire/wire_options.h"
#include "wire/ipc/rpc_client.h"

namespace spindle::bench::wire {

// Which of an RM's ports a call goes to.
using RmPort = HostPort RmAddresses::*;

class RmFailover {
 public:
  using SteadyTime = std::chrono::steady_clock::time_point;

  // `rms` in rm-ids order (one without HA); `io` must outlive this.
  RmFailover(boost::asio::io_context* io, std::vector<RmAddresses> rms,
             am_protocol::RmRetryPolicy policy)
      : io_(io), rms_(std::move(rms)), policy_(std::move(policy)) {}

  bool ha() const { return rms_.size() > 1; }
  // The rm-id index calls go to now.
  size_t current() const { return current_; }
  const RmAddresses& rm(size_t index) const { return rms_[index]; }
  // Targets moved so far.
  int64_t failovers() const { return failovers_; }

  // `method` of `protocol` on the current RM's `port`, as `user` (with
  // `token` if any), failed over per the policy; `then` gets the last
  // try's answer and when it arrived on the RPC client's thread.
  template <typename Resp>
  void Call(ipc::RpcClient* client, RmPort port, std::string protocol, std::string user,
            std::optional<ipc::ClientToken> token, std::string method,
            std::shared_ptr<const google::protobuf::MessageLite> request,
            std::function<void(Status, const Resp&, SteadyTime answered_at)> then) {
    auto call = std::make_shared<PendingCall<Resp>>();
    call->client = client;
    call->port = port;
    call->protocol = std::move(protocol);
    call->user = std::move(user);
    call->token = std::move(token);
    call->method = std::move(method);
    call->request = std::move(request);
    call->then = std::move(then);
    Try(std::move(call));
  }

 private:
  template <typename Resp>
  struct PendingCall {
    ipc::RpcClient* client = nullptr;
    RmPort port = nullptr;
    std::string protocol, user;
    std::optional<ipc::ClientToken> token;
    std::string method;
    std::shared_ptr<const google::protobuf::MessageLite> request;
    std::function<void(Status, const Resp&, SteadyTime)> then;
    int64_t retries = 0, failovers = 0;
  };

  template <typename Resp>
  void Try(std::shared_ptr<PendingCall<Resp>> call) {
    const size_t target = current_;
    const int64_t seen = failovers_;
    const HostPort& address = rms_[target].*(call->port);
    const ipc::ConnectionSpec spec{address.host, address.port, call->protocol, call->user,
                                   call->token};
    CallOnIoTimed<Resp>(
        call->client, io_, spec, call->method, *call->request,
        [this, call, seen](Status s, const Resp& response, SteadyTime answered_at) mutable {
          if (s.ok() || !ha()) {
            call->then(std::move(s), response, answered_at);
            return;
          }
          const am_protocol::RmRetryPolicy::Action action =
              policy_.ShouldRetry(s, call->retries, call->failovers, Uniform());
          if (action.decision == am_protocol::RmRetryPolicy::Decision::kFail) {
            call->then(std::move(s), response, answered_at);
            return;
          }
          if (action.decision == am_protocol::RmRetryPolicy::Decision::kFailoverAndRetry) {
            ++call->failovers;
            MoveFrom(seen);
          }
          ++call->retries;
          auto timer = std::make_shared<boost::asio::steady_timer>(*io_, action.delay);
          timer->async_wait([this, call, timer](const boost::system::error_code&) mutable {
            Try(std::move(call));
          });
        });
  }

  // The next rm-id, unless a call moved the target since `seen`.
  void MoveFrom(int64_t seen);
  double Uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(random_); }

  boost::asio::io_context* const io_;
  const std::vector<RmAddresses> rms_;
  const am_protocol::RmRetryPolicy policy_;
  size_t current_ = 0;
  int64_t failovers_ = 0;
  std::mt19937_64 random_{std::random_device{}()};
};

}  // namespace spindle::bench::wire
