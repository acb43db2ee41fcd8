// AttemptRetryRule against Hadoop's sources: RMAppAttemptImpl.
// shouldCountTowardsMaxAttemptRetry (2.6.5 lines 1277-1288; 3.3.0 lines
// 1586-1605), RMAppImpl.getNumFailedAppAttempts (2.6.5 1173-1188) and
// AttemptFailedTransition (2.6.5 1200-1240; 3.3.0 1551-1605, YARN-5617).
#include "rm/apps/attempt_retry_rule.h"

#include <gtest/gtest.h>

#include "rm/containers/container_registry.h"

namespace spindle::rm {
namespace {

constexpr int64_t kNow = 1'700'000'000'000;

RmAttempt Failed(int32_t number, std::optional<int32_t> exit_status, int64_t finish_ms = kNow) {
  RmAttempt attempt;
  attempt.id = ApplicationAttemptId{ApplicationId{1, 1}, number};
  attempt.state = AttemptState::kFailed;
  attempt.am_exit_status = exit_status;
  attempt.finish_time_ms = finish_ms;
  return attempt;
}

RmApp AppWith(int32_t max_attempts, std::vector<RmAttempt> attempts) {
  RmApp app;
  app.submission.id = ApplicationId{1, 1};
  app.max_attempts = max_attempts;
  app.attempts = std::move(attempts);
  return app;
}

TEST(AttemptRetryRuleTest, InfrastructureExitStatusesDoNotCount) {
  // PREEMPTED -102, ABORTED -100 (lost node, released), DISKS_FAILED -101,
  // KILLED_BY_RESOURCEMANAGER -106.
  for (int32_t status : {kExitPreempted, kExitAborted, kExitDisksFailed, kExitKilledByRm}) {
    EXPECT_FALSE(CountsTowardsMaxAttempts(Failed(1, status), -1, kNow)) << status;
  }
  // The AM's own failures, an AM killed by its user (-105 KILLED_BY_APPMASTER
  // is not in Hadoop's list), memory limits, and no exit status at all
  // (INVALID: launch failure, AM expiry) count.
  for (int32_t status : {1, 0, 143, -105, -104, -103}) {
    EXPECT_TRUE(CountsTowardsMaxAttempts(Failed(1, status), -1, kNow)) << status;
  }
  EXPECT_TRUE(CountsTowardsMaxAttempts(Failed(1, std::nullopt), -1, kNow));
}

TEST(AttemptRetryRuleTest, FailuresOlderThanTheValidityIntervalDoNotCount) {
  // 3.3.0: finishTime > 0 && finishTime < now - interval -> not counted.
  EXPECT_FALSE(CountsTowardsMaxAttempts(Failed(1, 1, kNow - 10'001), 10'000, kNow));
  EXPECT_TRUE(CountsTowardsMaxAttempts(Failed(1, 1, kNow - 10'000), 10'000, kNow));
  EXPECT_TRUE(CountsTowardsMaxAttempts(Failed(1, 1, kNow - 5'000), 10'000, kNow));
  // No interval (<= 0): every failure counts, however old.
  EXPECT_TRUE(CountsTowardsMaxAttempts(Failed(1, 1, 1), 0, kNow));
  EXPECT_TRUE(CountsTowardsMaxAttempts(Failed(1, 1, 1), -1, kNow));
  // An attempt with no finish time yet counts.
  EXPECT_TRUE(CountsTowardsMaxAttempts(Failed(1, 1, 0), 10'000, kNow));

  RmApp app = AppWith(2, {Failed(1, 1, kNow - 60'000), Failed(2, 1, kNow)});
  app.submission.attempt_failures_validity_interval_ms = 30'000;
  EXPECT_EQ(CountedAttemptFailures(app, kNow), 1);
  EXPECT_TRUE(RetryAfterFailure(app, AttemptRetryOptions{}, kNow));
  app.submission.attempt_failures_validity_interval_ms = -1;
  EXPECT_EQ(CountedAttemptFailures(app, kNow), 2);
  EXPECT_FALSE(RetryAfterFailure(app, AttemptRetryOptions{}, kNow));
}

TEST(AttemptRetryRuleTest, LostNodesDoNotUseUpAttempts) {
  // Two attempts lost with their nodes and a third that crashed: one counted
  // failure of two allowed, so a fourth attempt starts.
  RmApp app = AppWith(2, {Failed(1, kExitAborted), Failed(2, kExitAborted), Failed(3, 1)});
  EXPECT_EQ(CountedAttemptFailures(app, kNow), 1);
  EXPECT_TRUE(RetryAfterFailure(app, AttemptRetryOptions{}, kNow));
  app.attempts.push_back(Failed(4, 1));
  EXPECT_FALSE(RetryAfterFailure(app, AttemptRetryOptions{}, kNow));
}

TEST(AttemptRetryRuleTest, SingleAttemptAppsFollowTheLine) {
  const RmApp app = AppWith(1, {Failed(1, kExitAborted)});
  // 2.6 / 2.7: the lost attempt does not count, so the app is retried.
  AttemptRetryOptions hadoop2;
  hadoop2.single_attempt_never_retried = false;
  EXPECT_TRUE(RetryAfterFailure(app, hadoop2, kNow));
  // 3.3 (YARN-5617): maxAppAttempts 1 is never retried.
  EXPECT_FALSE(RetryAfterFailure(app, AttemptRetryOptions{}, kNow));
  // A counted failure ends a single-attempt app on every line.
  EXPECT_FALSE(RetryAfterFailure(AppWith(1, {Failed(1, 1)}), hadoop2, kNow));
}

TEST(AttemptRetryRuleTest, UnmanagedAmsAreNeverRetried) {
  RmApp app = AppWith(2, {Failed(1, kExitAborted)});
  app.submission.unmanaged_am = true;
  EXPECT_FALSE(RetryAfterFailure(app, AttemptRetryOptions{}, kNow));
  EXPECT_EQ(AttemptsExhaustedDiagnostics(app, AttemptRetryOptions{}, "boom"),
            "Unmanaged application application_1_0001 failed due to boom. Failing the "
            "application.");
}

TEST(AttemptRetryRuleTest, DiagnosticsAsEachLineWritesThem) {
  RmApp app = AppWith(1, {Failed(1, 1)});
  app.submission.attempt_failures_validity_interval_ms = 5000;
  AttemptRetryOptions hadoop3;
  hadoop3.global_max_attempts = 2;
  EXPECT_EQ(AttemptsExhaustedDiagnostics(app, hadoop3, "boom"),
            "Application application_1_0001 failed 1 times in previous 5000 milliseconds "
            "(global limit =2; local limit is =1) due to boom. Failing the application.");
  AttemptRetryOptions hadoop2;
  hadoop2.single_attempt_never_retried = false;
  EXPECT_EQ(AttemptsExhaustedDiagnostics(app, hadoop2, "boom"),
            "Application application_1_0001 failed 1 times due to boom. Failing the "
            "application.");
}

}  // namespace
}  // namespace spindle::rm
