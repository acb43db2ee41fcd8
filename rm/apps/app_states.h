// The states and events of YARN applications and application attempts, as
// Hadoop's RMAppImpl and RMAppAttemptImpl define them, and how the internal
// states show to clients (YarnApplicationState / YarnApplicationAttemptState).
// Plain enums: no protobuf here; the protocol handlers map them to the wire.
#pragma once

#include <cstdint>
#include <string_view>

namespace spindle::rm {

enum class AppState : uint8_t {
  kNew,
  kNewSaving,
  kSubmitted,
  kAccepted,
  kRunning,
  kFinalSaving,  // shows as the state before it
  kFinishing,    // AM unregistered, waiting for its container to exit; shows as FINISHED
  kFinished,
  kFailed,
  kKilling,  // shows as the state before it
  kKilled,
};

// What clients see (YarnApplicationStateProto numbers are NEW=1 ... KILLED=8).
enum class YarnAppState : uint8_t {
  kNew = 1,
  kNewSaving = 2,
  kSubmitted = 3,
  kAccepted = 4,
  kRunning = 5,
  kFinished = 6,
  kFailed = 7,
  kKilled = 8,
};

enum class AppEvent : uint8_t {
  kStart,                // submitted: save it
  kSaved,                // the store has it
  kAccepted,             // the scheduler took it: first attempt created
  kRejected,             // invalid or refused (queue full, stopped queue ...)
  kAttemptRegistered,    // AM registered
  kAttemptUnregistered,  // AM called finishApplicationMaster
  kAttemptFinished,      // the unregistered attempt's AM container exited
  kAttemptFailedRetry,   // an attempt failed and attempts remain: a new one starts
  kAttemptFailedFinal,   // an attempt failed and none remain
  kKill,
  kAttemptKilled,  // the attempt killed on our request is gone
};

enum class FinalStatus : uint8_t {
  kUndefined = 0,
  kSucceeded = 1,
  kFailed = 2,
  kKilled = 3,
  kEnded = 4,
};

enum class AttemptState : uint8_t {
  kNew = 1,
  kSubmitted = 2,
  kScheduled = 3,
  kAllocatedSaving = 4,
  kAllocated = 5,
  kLaunched = 6,
  kFailed = 7,
  kRunning = 8,
  kFinishing = 9,
  kFinished = 10,
  kKilled = 11,
  kFinalSaving = 12,  // internal; shows as the state before it
  kLaunchedUnmanagedSaving = 13,
};

enum class AttemptEvent : uint8_t {
  kStart,
  kScheduled,           // the AM ask is with the scheduler
  kScheduledUnmanaged,  // unmanaged AM: nothing to place, the submitter runs it
  kContainerAllocated,  // AM container placed
  kSaved,               // allocation (or unmanaged launch) stored
  kLaunched,            // startContainers succeeded
  kLaunchFailed,        // startContainers failed
  kRegistered,
  kUnregistered,           // finishApplicationMaster, AM container still to exit
  kUnregisteredUnmanaged,  // finishApplicationMaster of an unmanaged AM
  kContainerFinished,      // AM container exited
  kExpired,                // AM liveliness expired
  kKill,
  kFail,  // failApplicationAttempt: failed on a client's request
};

// Where a (state, event) pair leads. Transitions into FINAL_SAVING name the
// state that follows once the store has the final state (`after_saving`), as
// Hadoop's FinalSavingTransition does. `valid` is false where Hadoop throws
// InvalidStateTransitionException: the caller logs and ignores the event.
struct AppTransition {
  bool valid = false;
  AppState next = AppState::kNew;
  AppState after_saving = AppState::kNew;
};
struct AttemptTransition {
  bool valid = false;
  AttemptState next = AttemptState::kNew;
  AttemptState after_saving = AttemptState::kNew;
};

// The transition tables. Pure functions; see app_states.cc for the tables.
AppTransition NextAppState(AppState state, AppEvent event);
AttemptTransition NextAttemptState(AttemptState state, AttemptEvent event);

// The client-visible state. FINAL_SAVING and KILLING show as `before`, the
// state the app was in when it entered them.
YarnAppState ToYarnAppState(AppState state, AppState before);
// Attempt states other than FINAL_SAVING are reported as themselves.
AttemptState ToYarnAttemptState(AttemptState state, AttemptState before);

bool IsFinal(AppState state);
bool IsFinal(AttemptState state);

// RM restart: the state of an attempt whose record holds no final state
// while its app's record does (the RM stopped between the two writes). It
// ends as its app did: Hadoop 3.3 RMAppAttemptImpl.AttemptRecoveredTransition,
// the branch "attempt final state was not saved but app final state was
// saved", maps the app's recovered FINISHED/FAILED/KILLED onto the attempt
// (FAILED for anything else) and does not add it to the scheduler.
AttemptState AttemptStateOfFinalApp(AppState app_final_state);

std::string_view Name(AppState state);
std::string_view Name(YarnAppState state);
std::string_view Name(AttemptState state);
std::string_view Name(AppEvent event);
std::string_view Name(AttemptEvent event);
std::string_view Name(FinalStatus status);

}  // namespace spindle::rm
