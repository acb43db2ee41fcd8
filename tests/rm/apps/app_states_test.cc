#include "rm/apps/app_states.h"

#include <gtest/gtest.h>

namespace spindle::rm {
namespace {

TEST(AppStatesTest, HappyPath) {
  AppState s = AppState::kNew;
  for (auto [event, expected] : {std::pair{AppEvent::kStart, AppState::kNewSaving},
                                 std::pair{AppEvent::kSaved, AppState::kSubmitted},
                                 std::pair{AppEvent::kAccepted, AppState::kAccepted},
                                 std::pair{AppEvent::kAttemptRegistered, AppState::kRunning}}) {
    auto t = NextAppState(s, event);
    ASSERT_TRUE(t.valid) << Name(event);
    EXPECT_EQ(t.next, expected);
    s = t.next;
  }
  auto unregister = NextAppState(s, AppEvent::kAttemptUnregistered);
  EXPECT_EQ(unregister.next, AppState::kFinalSaving);
  EXPECT_EQ(unregister.after_saving, AppState::kFinishing);
  EXPECT_EQ(NextAppState(AppState::kFinishing, AppEvent::kAttemptFinished).next,
            AppState::kFinished);
}

TEST(AppStatesTest, KillFromEveryLiveState) {
  EXPECT_EQ(NextAppState(AppState::kNew, AppEvent::kKill).after_saving, AppState::kKilled);
  EXPECT_EQ(NextAppState(AppState::kSubmitted, AppEvent::kKill).after_saving, AppState::kKilled);
  EXPECT_EQ(NextAppState(AppState::kAccepted, AppEvent::kKill).next, AppState::kKilling);
  EXPECT_EQ(NextAppState(AppState::kRunning, AppEvent::kKill).next, AppState::kKilling);
  auto killed = NextAppState(AppState::kKilling, AppEvent::kAttemptKilled);
  EXPECT_EQ(killed.next, AppState::kFinalSaving);
  EXPECT_EQ(killed.after_saving, AppState::kKilled);
  // Final states absorb kills.
  for (AppState final_state : {AppState::kFinished, AppState::kFailed, AppState::kKilled}) {
    auto t = NextAppState(final_state, AppEvent::kKill);
    EXPECT_TRUE(t.valid);
    EXPECT_EQ(t.next, final_state);
  }
}

TEST(AppStatesTest, RetriesAndFailures) {
  EXPECT_EQ(NextAppState(AppState::kRunning, AppEvent::kAttemptFailedRetry).next,
            AppState::kAccepted);
  EXPECT_EQ(NextAppState(AppState::kRunning, AppEvent::kAttemptFailedFinal).after_saving,
            AppState::kFailed);
  EXPECT_EQ(NextAppState(AppState::kSubmitted, AppEvent::kRejected).after_saving,
            AppState::kFailed);
}

TEST(AppStatesTest, InvalidTransitionsAreRejected) {
  EXPECT_FALSE(NextAppState(AppState::kNew, AppEvent::kAttemptRegistered).valid);
  EXPECT_FALSE(NextAppState(AppState::kSubmitted, AppEvent::kAttemptUnregistered).valid);
  EXPECT_FALSE(NextAttemptState(AttemptState::kScheduled, AttemptEvent::kLaunched).valid);
  EXPECT_FALSE(NextAttemptState(AttemptState::kNew, AttemptEvent::kUnregistered).valid);
}

TEST(AppStatesTest, ClientVisibleStates) {
  EXPECT_EQ(ToYarnAppState(AppState::kFinalSaving, AppState::kRunning), YarnAppState::kRunning);
  EXPECT_EQ(ToYarnAppState(AppState::kKilling, AppState::kAccepted), YarnAppState::kAccepted);
  EXPECT_EQ(ToYarnAppState(AppState::kFinishing, AppState::kNew), YarnAppState::kFinished);
  EXPECT_EQ(ToYarnAttemptState(AttemptState::kFinalSaving, AttemptState::kRunning),
            AttemptState::kRunning);
}

TEST(AppStatesTest, AttemptLifecycle) {
  AttemptState s = AttemptState::kNew;
  for (auto [event, expected] :
       {std::pair{AttemptEvent::kStart, AttemptState::kSubmitted},
        std::pair{AttemptEvent::kScheduled, AttemptState::kScheduled},
        std::pair{AttemptEvent::kContainerAllocated, AttemptState::kAllocatedSaving},
        std::pair{AttemptEvent::kSaved, AttemptState::kAllocated},
        std::pair{AttemptEvent::kLaunched, AttemptState::kLaunched},
        std::pair{AttemptEvent::kRegistered, AttemptState::kRunning}}) {
    auto t = NextAttemptState(s, event);
    ASSERT_TRUE(t.valid) << Name(event);
    EXPECT_EQ(t.next, expected);
    s = t.next;
  }
  EXPECT_EQ(NextAttemptState(s, AttemptEvent::kUnregistered).after_saving,
            AttemptState::kFinishing);
  EXPECT_EQ(NextAttemptState(s, AttemptEvent::kUnregisteredUnmanaged).after_saving,
            AttemptState::kFinished);
  EXPECT_EQ(NextAttemptState(s, AttemptEvent::kExpired).after_saving, AttemptState::kFailed);
  EXPECT_EQ(NextAttemptState(AttemptState::kFinishing, AttemptEvent::kContainerFinished).next,
            AttemptState::kFinished);
  EXPECT_EQ(NextAttemptState(AttemptState::kAllocated, AttemptEvent::kLaunchFailed).after_saving,
            AttemptState::kFailed);
}

TEST(AppStatesTest, ClientsFailLiveAttemptsOnly) {
  for (AttemptState s : {AttemptState::kNew, AttemptState::kSubmitted, AttemptState::kScheduled,
                         AttemptState::kAllocatedSaving, AttemptState::kAllocated,
                         AttemptState::kLaunched, AttemptState::kRunning}) {
    const auto t = NextAttemptState(s, AttemptEvent::kFail);
    ASSERT_TRUE(t.valid) << Name(s);
    EXPECT_EQ(t.next, AttemptState::kFinalSaving) << Name(s);
    EXPECT_EQ(t.after_saving, AttemptState::kFailed) << Name(s);
  }
  for (AttemptState s : {AttemptState::kFinishing, AttemptState::kFinalSaving,
                         AttemptState::kFinished, AttemptState::kFailed, AttemptState::kKilled}) {
    const auto t = NextAttemptState(s, AttemptEvent::kFail);
    ASSERT_TRUE(t.valid) << Name(s);
    EXPECT_EQ(t.next, s) << Name(s);
  }
}

}  // namespace
}  // namespace spindle::rm
