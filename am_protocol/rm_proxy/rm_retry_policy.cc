#include "am_protocol/rm_proxy/rm_retry_policy.h"

#include <algorithm>
#include <limits>

#include "wire/ipc/error_mapping.h"

namespace spindle::am_protocol {

namespace {

constexpr char kMaxWaitKey[] = "yarn.resourcemanager.connect.max-wait.ms";
constexpr char kRetryIntervalKey[] = "yarn.resourcemanager.connect.retry-interval.ms";
constexpr char kSleepBaseKey[] = "yarn.client.failover-sleep-base-ms";
constexpr char kSleepMaxKey[] = "yarn.client.failover-sleep-max-ms";
constexpr char kMaxAttemptsKey[] = "yarn.client.failover-max-attempts";

using Decision = RmRetryPolicy::Decision;
using Action = RmRetryPolicy::Action;

Action Fail(std::string reason) { return {Decision::kFail, std::chrono::milliseconds(0), reason}; }

// RetryPolicies.calculateExponentialTime(time, retries, cap), 0 for the
// first try (getFailoverOrRetrySleepTime).
std::chrono::milliseconds Backoff(int64_t base, int64_t times, int64_t cap, double uniform) {
  if (times == 0) return std::chrono::milliseconds(0);
  const int64_t shifted = times < 62 && base <= (std::numeric_limits<int64_t>::max() >> times)
                              ? base << times
                              : std::numeric_limits<int64_t>::max();
  const int64_t capped = std::min(shifted, cap);
  return std::chrono::milliseconds(
      static_cast<int64_t>(static_cast<double>(capped) * (uniform + 0.5)));
}

bool Named(const Status& status, const char* java_class) {
  return status.IsRemote() && status.java_class() == java_class;
}

}  // namespace

Result<RmRetryPolicy> RmRetryPolicy::FromConfiguration(const rm::Configuration& conf,
                                                       bool ha_enabled) {
  RmRetryPolicy p;
  p.ha = ha_enabled;
  ASSIGN_OR_RETURN(p.max_wait_ms, conf.GetInt(kMaxWaitKey, 900000));
  ASSIGN_OR_RETURN(p.retry_interval_ms, conf.GetInt(kRetryIntervalKey, 30000));
  const bool forever = p.max_wait_ms == -1;
  if (p.max_wait_ms < -1) {
    return Status::InvalidArgument(std::string("Invalid Configuration. ") + kMaxWaitKey +
                                   " can be -1, but can not be other negative numbers");
  }
  // "... is smaller than ... Only try connect once."
  if (!forever && p.max_wait_ms < p.retry_interval_ms) p.max_wait_ms = 0;
  if (ha_enabled) {
    ASSIGN_OR_RETURN(p.failover_sleep_base_ms, conf.GetInt(kSleepBaseKey, p.retry_interval_ms));
    ASSIGN_OR_RETURN(p.failover_sleep_max_ms, conf.GetInt(kSleepMaxKey, p.retry_interval_ms));
    ASSIGN_OR_RETURN(p.max_failovers, conf.GetInt(kMaxAttemptsKey, -1));
    if (p.max_failovers == -1) {
      if (forever) {
        p.max_failovers = std::numeric_limits<int32_t>::max();
      } else if (p.failover_sleep_base_ms <= 0) {
        // Java divides by it (an ArithmeticException at proxy creation).
        return Status::InvalidArgument(std::string(kSleepBaseKey) + " must be positive when " +
                                       kMaxAttemptsKey + " is not set");
      } else {
        p.max_failovers = p.max_wait_ms / p.failover_sleep_base_ms;
      }
    }
    p.max_retries = 0;
    return p;
  }
  if (p.retry_interval_ms < 0) {
    return Status::InvalidArgument(std::string("Invalid Configuration. ") + kRetryIntervalKey +
                                   " should not be negative.");
  }
  if (forever) {
    p.max_retries = std::numeric_limits<int64_t>::max();
  } else {
    // RetryUpToMaximumTimeWithFixedSleep: maxTime / sleepTime tries.
    p.max_retries = p.retry_interval_ms == 0 ? 0 : p.max_wait_ms / p.retry_interval_ms;
  }
  return p;
}

Action RmRetryPolicy::ShouldRetry(const Status& error, int64_t retries, int64_t failovers,
                                  double uniform) const {
  if (!ha) {
    // retryOtherThanRemoteException over the exception map (3.3).
    const bool mapped = ipc::IsTransportFailure(error) ||
                        Named(error, ipc::java::kStandbyException) ||
                        Named(error, ipc::java::kRetriableException);
    if (!mapped) return Fail("not a connection failure");
    if (retries >= max_retries) {
      return Fail("retries (" + std::to_string(retries) + ") exceeded maximum allowed (" +
                  std::to_string(max_retries) + ")");
    }
    return {Decision::kRetry, std::chrono::milliseconds(retry_interval_ms), ""};
  }
  // FailoverOnNetworkExceptionRetry.shouldRetry.
  if (failovers >= max_failovers) {
    return Fail("failovers (" + std::to_string(failovers) + ") exceeded maximum allowed (" +
                std::to_string(max_failovers) + ")");
  }
  if (retries - failovers > max_retries) {
    return Fail("retries (" + std::to_string(retries) + ") exceeded maximum allowed (" +
                std::to_string(max_retries) + ")");
  }
  // This side's SASL refusals (wire/ipc/client_negotiation.h).
  if (error.code() == Status::Code::kUnauthorized &&
      (!error.IsRemote() || Named(error, ipc::java::kSaslException))) {
    return Fail("SASL failure");
  }
  if (ipc::IsTransportFailure(error) || Named(error, ipc::java::kStandbyException)) {
    return {Decision::kFailoverAndRetry,
            Backoff(failover_sleep_base_ms, failovers, failover_sleep_max_ms, uniform), ""};
  }
  if (Named(error, ipc::java::kRetriableException)) {
    return {Decision::kRetry,
            Backoff(failover_sleep_base_ms, retries, failover_sleep_max_ms, uniform), ""};
  }
  if (Named(error, ipc::java::kInvalidToken)) return Fail("Invalid or Cancelled Token");
  if (Named(error, ipc::java::kAccessControl)) return Fail("Access denied");
  return Fail("TRY_ONCE_THEN_FAIL");
}

}  // namespace spindle::am_protocol
