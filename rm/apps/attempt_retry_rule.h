// AttemptRetryRule: whether a failed attempt is followed by another, as
// Hadoop's RMAppImpl.AttemptFailedTransition decides it. Only failures that
// are the application's own count toward its maxAppAttempts: an attempt whose
// AM container was preempted, lost with its node (ABORTED), on failed disks or
// killed by the RM does not (RMAppAttemptImpl.shouldCountTowardsMaxAttempt-
// Retry, 2.6.5 and 3.3.0), nor one that ended longer ago than the app's
// attemptFailuresValidityInterval (RMAppImpl.getNumFailedAppAttempts, 2.6.5;
// folded into shouldCountTowardsMaxAttemptRetry in 3.3.0).
//
// Thread-safety: pure functions over values.
#pragma once

#include <cstdint>
#include <string>

#include "rm/apps/rm_app.h"

namespace spindle::rm {

// The line's rules that differ (rm/config/hadoop_line.h sets them).
struct AttemptRetryOptions {
  // YARN-5617 (Hadoop 2.8.2 and 3.x, not 2.6 or 2.7): an app whose
  // maxAppAttempts is 1 is never retried, whatever ended its attempt, and its
  // failure text names the validity interval when it has one and the
  // global limit when the app's own is another.
  bool single_attempt_never_retried = true;
  // yarn.resourcemanager.am.max-attempts (the global limit).
  int32_t global_max_attempts = 2;
};

// RMAppAttemptImpl.shouldCountTowardsMaxAttemptRetry (3.3.0): false for an
// attempt that finished more than `validity_interval_ms` (> 0) before `now_ms`,
// or whose AM container ended PREEMPTED, ABORTED, DISKS_FAILED or
// KILLED_BY_RESOURCEMANAGER; an attempt with no AM exit status (launch
// failure, AM expiry, failApplicationAttempt) counts (INVALID).
bool CountsTowardsMaxAttempts(const RmAttempt& attempt, int64_t validity_interval_ms,
                              int64_t now_ms);

// RMAppImpl.getNumFailedAppAttempts: the app's attempts that count.
int32_t CountedAttemptFailures(const RmApp& app, int64_t now_ms);

// AttemptFailedTransition: after the current attempt failed, does another
// start? Never for an unmanaged AM; never for maxAppAttempts 1 under
// YARN-5617; otherwise while the counted failures stay below maxAppAttempts.
bool RetryAfterFailure(const RmApp& app, const AttemptRetryOptions& options, int64_t now_ms);

// The app's diagnostics when it is not retried (getAppAttemptFailedDiagnostics).
std::string AttemptsExhaustedDiagnostics(const RmApp& app, const AttemptRetryOptions& options,
                                         const std::string& attempt_diagnostics);

}  // namespace spindle::rm
