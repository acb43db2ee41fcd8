#include "nm_shim/am_launcher/nm_connect_retry_policy.h"

#include <string>

#include "rm/config/configuration.h"

namespace spindle::nm_shim {

namespace {

constexpr char kMaxWaitKey[] = "yarn.client.nodemanager-connect.max-wait-ms";
constexpr char kIntervalKey[] = "yarn.client.nodemanager-connect.retry-interval-ms";

bool StartsWith(const std::string& text, std::string_view prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

Result<NmConnectRetryPolicy> NmConnectRetryPolicy::FromConfiguration(
    const rm::Configuration& conf) {
  NmConnectRetryPolicy policy;
  ASSIGN_OR_RETURN(policy.max_wait_ms, conf.GetInt(kMaxWaitKey, policy.max_wait_ms));
  ASSIGN_OR_RETURN(policy.retry_interval_ms, conf.GetInt(kIntervalKey, policy.retry_interval_ms));
  if (policy.max_wait_ms != -1 && policy.max_wait_ms <= 0) {
    return Status::InvalidArgument(conf.SourceOf(kMaxWaitKey) + ": " + kMaxWaitKey + " = '" +
                                   std::to_string(policy.max_wait_ms) +
                                   "' should be either positive value or -1");
  }
  if (policy.retry_interval_ms <= 0) {
    return Status::InvalidArgument(conf.SourceOf(kIntervalKey) + ": " + kIntervalKey + " = '" +
                                   std::to_string(policy.retry_interval_ms) +
                                   "' should be a positive value");
  }
  return policy;
}

bool NmConnectRetryPolicy::IsRetriable(const Status& failure) {
  if (failure.IsRemote()) {
    const std::string& java_class = failure.java_class();
    return java_class == "org.apache.hadoop.ipc.RetriableException" ||
           java_class == "org.apache.hadoop.yarn.exceptions.NMNotYetReadyException";
  }
  switch (failure.code()) {
    case Status::Code::kIoError:  // refused, reset, unresolvable, closed by the peer
    case Status::Code::kAborted:  // the connection closed under the call (EOFException)
      return true;
    case Status::Code::kTimedOut:
      // Connecting timed out (ConnectTimeoutException); a call that timed
      // out on an open connection (SocketTimeoutException) is not retried.
      return StartsWith(failure.message(), "connecting to");
    default:
      return false;
  }
}

std::optional<Duration> NmConnectRetryPolicy::NextDelay(const Status& failure,
                                                        int64_t retries_done) const {
  if (!IsRetriable(failure)) return std::nullopt;
  if (max_wait_ms != -1 && retries_done >= max_wait_ms / retry_interval_ms) return std::nullopt;
  return std::chrono::milliseconds(retry_interval_ms);
}

}  // namespace spindle::nm_shim
