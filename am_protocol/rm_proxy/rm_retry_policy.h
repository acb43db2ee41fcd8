// RmRetryPolicy: how a call to the RM is retried, as Hadoop's
// RMProxy.createRetryPolicy builds it (read in 2.6.0 and 3.3.0; the keys and
// defaults are the same in both lines).
//
// HA on: RetryPolicies.failoverOnNetworkException(TRY_ONCE_THEN_FAIL,
// maxFailovers, base, max) (FailoverOnNetworkExceptionRetry): a call that
// cannot reach an RM, or that an RM answers with StandbyException, fails
// over to the next rm-id; the n-th failover of a call (n >= 1) first sleeps
// min(base x 2^n, max) x U[0.5, 1.5). maxFailovers is
// yarn.client.failover-max-attempts, or without it max-wait / base
// (forever when max-wait is -1). A RetriableException is retried once on
// the same RM; InvalidToken, AccessControlException, a SASL failure and
// every other remote exception fail the call.
//
// HA off (3.3): connection failures and StandbyException/
// RetriableException are retried on the one RM every retry-interval, up to
// max-wait / retry-interval times (forever with -1); remote exceptions
// fail the call.
//
// Spindle's transport reports a failure to reach or hear from the peer as a
// Status without a Java class (IoError, TimedOut, Aborted); each counts as
// Java's ConnectException (RpcClient does not tell a refused connect from a
// connection lost mid-call, and every YARN protocol method Spindle calls is
// @Idempotent or @AtMostOnce, which Java fails over on either way).
//
// Thread-safety: a value; ShouldRetry is const.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "base/result.h"
#include "rm/config/configuration.h"

namespace spindle::am_protocol {

struct RmRetryPolicy {
  // yarn.resourcemanager.ha.enabled.
  bool ha = false;
  // yarn.resourcemanager.connect.max-wait.ms (-1: forever; below the
  // interval: one attempt). Default: 900000.
  int64_t max_wait_ms = 900000;
  // yarn.resourcemanager.connect.retry-interval.ms. Default: 30000.
  int64_t retry_interval_ms = 30000;
  // HA: yarn.client.failover-sleep-base-ms and failover-sleep-max-ms
  // (default: the retry interval each), yarn.client.failover-max-attempts
  // (default -1: see the file comment).
  int64_t failover_sleep_base_ms = 30000;
  int64_t failover_sleep_max_ms = 30000;
  int64_t max_failovers = 30;
  // HA off: how many times a call is retried (max-wait / interval).
  int64_t max_retries = 30;

  // InvalidArgument naming the key, with Hadoop's rule: max-wait -1 or
  // >= 0, a retry interval >= 0, a failover sleep base > 0 when the number
  // of failovers is derived from it.
  static Result<RmRetryPolicy> FromConfiguration(const rm::Configuration& conf, bool ha_enabled);

  enum class Decision { kFail, kRetry, kFailoverAndRetry };
  struct Action {
    Decision decision = Decision::kFail;
    std::chrono::milliseconds delay{0};
    // Why the call fails (Hadoop's RetryAction reason), for the log.
    std::string reason;
  };
  // The decision for `error` after `retries` retries of which `failovers`
  // were failovers (per call, as RetryInvocationHandler counts). `uniform`
  // is U[0, 1) (ThreadLocalRandom.nextDouble).
  Action ShouldRetry(const Status& error, int64_t retries, int64_t failovers, double uniform) const;
};

}  // namespace spindle::am_protocol
