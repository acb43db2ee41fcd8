// NmConnectRetryPolicy: how the AM launcher retries a NodeManager it cannot
// reach, as Hadoop's AMLauncher does through NMProxy.createNMProxy
// (ServerProxy.createRetryPolicy, 2.6.5 and 3.3.0): a call that failed to
// connect, or whose connection broke (ConnectException, EOFException,
// SocketException, NoRouteToHost, UnknownHost, ConnectTimeout), or that the
// node answered with RetriableException or NMNotYetReadyException, is tried
// again every retry-interval-ms, up to max-wait-ms / retry-interval-ms times
// (RetryPolicies.retryUpToMaximumTimeWithFixedSleep); -1 retries forever.
// Any other failure fails at once (TRY_ONCE_THEN_FAIL).
//
// Thread-safety: a value; pure functions.
#pragma once

#include <cstdint>
#include <optional>

#include "base/clock.h"
#include "base/result.h"

namespace spindle::rm {
class Configuration;
}

namespace spindle::nm_shim {

struct NmConnectRetryPolicy {
  // yarn.client.nodemanager-connect.max-wait-ms. Default: 180000 (2.6-3.3).
  int64_t max_wait_ms = 180000;
  // yarn.client.nodemanager-connect.retry-interval-ms. Default: 10000.
  int64_t retry_interval_ms = 10000;

  // From the RM's configuration; InvalidArgument naming the key for values
  // Hadoop's Preconditions refuse (max-wait neither -1 nor positive, interval
  // not positive).
  static Result<NmConnectRetryPolicy> FromConfiguration(const rm::Configuration& conf);

  // Whether a failed call is one Hadoop retries.
  static bool IsRetriable(const Status& failure);

  // The wait before retry number `retries_done + 1` of a call that failed
  // with `failure`, or nullopt when the call fails for good.
  std::optional<Duration> NextDelay(const Status& failure, int64_t retries_done) const;
};

}  // namespace spindle::nm_shim
