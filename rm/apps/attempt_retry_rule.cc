#include "rm/apps/attempt_retry_rule.h"

#include "rm/containers/container_registry.h"

namespace spindle::rm {

bool CountsTowardsMaxAttempts(const RmAttempt& attempt, int64_t validity_interval_ms,
                              int64_t now_ms) {
  if (validity_interval_ms > 0 && attempt.finish_time_ms > 0 &&
      attempt.finish_time_ms < now_ms - validity_interval_ms) {
    return false;
  }
  const int32_t exit_status = attempt.am_exit_status.value_or(kExitInvalid);
  return !(exit_status == kExitPreempted || exit_status == kExitAborted ||
           exit_status == kExitDisksFailed || exit_status == kExitKilledByRm);
}

int32_t CountedAttemptFailures(const RmApp& app, int64_t now_ms) {
  int32_t counted = 0;
  for (const RmAttempt& attempt : app.attempts) {
    if (CountsTowardsMaxAttempts(attempt, app.submission.attempt_failures_validity_interval_ms,
                                 now_ms)) {
      ++counted;
    }
  }
  return counted;
}

bool RetryAfterFailure(const RmApp& app, const AttemptRetryOptions& options, int64_t now_ms) {
  if (app.submission.unmanaged_am) return false;
  if (options.single_attempt_never_retried && app.max_attempts == 1) return false;
  return CountedAttemptFailures(app, now_ms) < app.max_attempts;
}

std::string AttemptsExhaustedDiagnostics(const RmApp& app, const AttemptRetryOptions& options,
                                         const std::string& attempt_diagnostics) {
  if (app.submission.unmanaged_am) {
    return "Unmanaged application " + app.submission.id.ToString() + " failed due to " +
           attempt_diagnostics + ". Failing the application.";
  }
  const int64_t interval = app.submission.attempt_failures_validity_interval_ms;
  std::string within;
  std::string limits;
  if (options.single_attempt_never_retried) {
    if (interval > 0) within = " in previous " + std::to_string(interval) + " milliseconds";
    if (options.global_max_attempts != app.max_attempts) {
      limits = " (global limit =" + std::to_string(options.global_max_attempts) +
               "; local limit is =" + std::to_string(app.max_attempts) + ")";
    }
  }
  return "Application " + app.submission.id.ToString() + " failed " +
         std::to_string(app.max_attempts) + " times" + within + limits + " due to " +
         attempt_diagnostics + ". Failing the application.";
}

}  // namespace spindle::rm
