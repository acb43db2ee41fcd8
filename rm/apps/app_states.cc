#include "rm/apps/app_states.h"

namespace spindle::rm {

namespace {

AppTransition To(AppState next) { return {true, next, next}; }
AppTransition Saving(AppState after) { return {true, AppState::kFinalSaving, after}; }
AttemptTransition To(AttemptState next) { return {true, next, next}; }
AttemptTransition Saving(AttemptState after) { return {true, AttemptState::kFinalSaving, after}; }

}  // namespace

// RMAppImpl's table, without recovery (persist/ adds it) and without the
// events Spindle's RM core never raises.
AppTransition NextAppState(AppState state, AppEvent event) {
  using S = AppState;
  using E = AppEvent;
  switch (state) {
    case S::kNew:
      if (event == E::kStart) return To(S::kNewSaving);
      if (event == E::kKill) return Saving(S::kKilled);
      if (event == E::kRejected) return Saving(S::kFailed);
      break;
    case S::kNewSaving:
      if (event == E::kSaved) return To(S::kSubmitted);
      if (event == E::kKill) return Saving(S::kKilled);
      if (event == E::kRejected) return Saving(S::kFailed);
      break;
    case S::kSubmitted:
      if (event == E::kAccepted) return To(S::kAccepted);
      if (event == E::kRejected) return Saving(S::kFailed);
      if (event == E::kKill) return Saving(S::kKilled);
      break;
    case S::kAccepted:
      if (event == E::kAttemptRegistered) return To(S::kRunning);
      if (event == E::kAttemptFailedRetry) return To(S::kAccepted);
      if (event == E::kAttemptFailedFinal) return Saving(S::kFailed);
      if (event == E::kKill) return To(S::kKilling);
      break;
    case S::kRunning:
      if (event == E::kAttemptUnregistered) return Saving(S::kFinishing);
      if (event == E::kAttemptFailedRetry) return To(S::kAccepted);
      if (event == E::kAttemptFailedFinal) return Saving(S::kFailed);
      if (event == E::kKill) return To(S::kKilling);
      break;
    case S::kFinalSaving:
      // Events racing with the store write are absorbed; the attempt's end
      // is picked up again once the app reaches its next state.
      if (event == E::kKill || event == E::kAttemptFinished || event == E::kAttemptFailedFinal ||
          event == E::kAttemptKilled || event == E::kAttemptUnregistered) {
        return To(S::kFinalSaving);
      }
      break;
    case S::kFinishing:
      if (event == E::kAttemptFinished) return To(S::kFinished);
      // The AM already said it is done: a kill just lets it finish.
      if (event == E::kKill) return To(S::kFinishing);
      if (event == E::kAttemptFailedFinal || event == E::kAttemptFailedRetry) {
        return To(S::kFinished);
      }
      break;
    case S::kKilling:
      if (event == E::kAttemptKilled) return Saving(S::kKilled);
      if (event == E::kKill) return To(S::kKilling);
      // The attempt ended on its own while being killed: the kill wins.
      if (event == E::kAttemptFailedRetry || event == E::kAttemptFailedFinal ||
          event == E::kAttemptUnregistered || event == E::kAttemptFinished) {
        return Saving(S::kKilled);
      }
      if (event == E::kAttemptRegistered) return To(S::kKilling);
      break;
    case S::kFinished:
    case S::kFailed:
    case S::kKilled:
      // Final: late events from attempts and kills are no-ops.
      return To(state);
  }
  return {};
}

// RMAppAttemptImpl's table, likewise.
AttemptTransition NextAttemptState(AttemptState state, AttemptEvent event) {
  using S = AttemptState;
  using E = AttemptEvent;
  if (event == E::kFail) {
    // A client fails a live attempt as its AM crashing would; once the AM
    // has unregistered or the attempt is over there is nothing to fail.
    if (IsFinal(state) || state == S::kFinalSaving || state == S::kFinishing) return To(state);
    return Saving(S::kFailed);
  }
  switch (state) {
    case S::kNew:
      if (event == E::kStart) return To(S::kSubmitted);
      if (event == E::kKill) return Saving(S::kKilled);
      if (event == E::kRegistered) return Saving(S::kFailed);
      break;
    case S::kSubmitted:
      if (event == E::kScheduled) return To(S::kScheduled);
      if (event == E::kScheduledUnmanaged) return To(S::kLaunchedUnmanagedSaving);
      if (event == E::kKill) return Saving(S::kKilled);
      if (event == E::kRegistered) return Saving(S::kFailed);
      break;
    case S::kScheduled:
      if (event == E::kContainerAllocated) return To(S::kAllocatedSaving);
      if (event == E::kKill) return Saving(S::kKilled);
      if (event == E::kRegistered) return Saving(S::kFailed);
      break;
    case S::kAllocatedSaving:
      if (event == E::kSaved) return To(S::kAllocated);
      if (event == E::kKill) return Saving(S::kKilled);
      if (event == E::kContainerFinished) return Saving(S::kFailed);
      break;
    case S::kLaunchedUnmanagedSaving:
      if (event == E::kSaved) return To(S::kLaunched);
      if (event == E::kKill) return Saving(S::kKilled);
      if (event == E::kRegistered) return Saving(S::kFailed);
      break;
    case S::kAllocated:
      if (event == E::kLaunched) return To(S::kLaunched);
      if (event == E::kLaunchFailed) return Saving(S::kFailed);
      if (event == E::kKill) return Saving(S::kKilled);
      if (event == E::kContainerFinished) return Saving(S::kFailed);
      break;
    case S::kLaunched:
      if (event == E::kRegistered) return To(S::kRunning);
      if (event == E::kContainerFinished || event == E::kExpired) return Saving(S::kFailed);
      if (event == E::kKill) return Saving(S::kKilled);
      // An unmanaged AM may finish without having registered.
      if (event == E::kUnregisteredUnmanaged) return Saving(S::kFinished);
      break;
    case S::kRunning:
      if (event == E::kUnregistered) return Saving(S::kFinishing);
      if (event == E::kUnregisteredUnmanaged) return Saving(S::kFinished);
      if (event == E::kContainerFinished || event == E::kExpired) return Saving(S::kFailed);
      if (event == E::kKill) return Saving(S::kKilled);
      break;
    case S::kFinalSaving:
      // Events racing with the store write are absorbed.
      if (event == E::kContainerFinished || event == E::kExpired || event == E::kKill) {
        return To(S::kFinalSaving);
      }
      break;
    case S::kFinishing:
      if (event == E::kContainerFinished || event == E::kExpired) return To(S::kFinished);
      if (event == E::kKill) return To(S::kFinishing);
      break;
    case S::kFinished:
    case S::kFailed:
    case S::kKilled:
      if (event == E::kContainerFinished || event == E::kExpired || event == E::kKill ||
          event == E::kLaunched || event == E::kLaunchFailed) {
        return To(state);
      }
      break;
  }
  return {};
}

YarnAppState ToYarnAppState(AppState state, AppState before) {
  if (state == AppState::kFinalSaving || state == AppState::kKilling) state = before;
  switch (state) {
    case AppState::kNew:
      return YarnAppState::kNew;
    case AppState::kNewSaving:
      return YarnAppState::kNewSaving;
    case AppState::kSubmitted:
      return YarnAppState::kSubmitted;
    case AppState::kAccepted:
      return YarnAppState::kAccepted;
    case AppState::kRunning:
      return YarnAppState::kRunning;
    case AppState::kFinishing:
    case AppState::kFinished:
      return YarnAppState::kFinished;
    case AppState::kFailed:
      return YarnAppState::kFailed;
    case AppState::kKilled:
      return YarnAppState::kKilled;
    case AppState::kFinalSaving:
    case AppState::kKilling:
      break;  // `before` is never one of these
  }
  return YarnAppState::kNew;
}

AttemptState ToYarnAttemptState(AttemptState state, AttemptState before) {
  if (state == AttemptState::kFinalSaving) return before;
  if (state == AttemptState::kLaunchedUnmanagedSaving) return AttemptState::kSubmitted;
  return state;
}

bool IsFinal(AppState state) {
  return state == AppState::kFinished || state == AppState::kFailed || state == AppState::kKilled;
}

AttemptState AttemptStateOfFinalApp(AppState app_final_state) {
  switch (app_final_state) {
    case AppState::kFinished:
      return AttemptState::kFinished;
    case AppState::kKilled:
      return AttemptState::kKilled;
    default:
      return AttemptState::kFailed;
  }
}

bool IsFinal(AttemptState state) {
  return state == AttemptState::kFinished || state == AttemptState::kFailed ||
         state == AttemptState::kKilled;
}

std::string_view Name(AppState state) {
  switch (state) {
    case AppState::kNew:
      return "NEW";
    case AppState::kNewSaving:
      return "NEW_SAVING";
    case AppState::kSubmitted:
      return "SUBMITTED";
    case AppState::kAccepted:
      return "ACCEPTED";
    case AppState::kRunning:
      return "RUNNING";
    case AppState::kFinalSaving:
      return "FINAL_SAVING";
    case AppState::kFinishing:
      return "FINISHING";
    case AppState::kFinished:
      return "FINISHED";
    case AppState::kFailed:
      return "FAILED";
    case AppState::kKilling:
      return "KILLING";
    case AppState::kKilled:
      return "KILLED";
  }
  return "?";
}

std::string_view Name(YarnAppState state) {
  switch (state) {
    case YarnAppState::kNew:
      return "NEW";
    case YarnAppState::kNewSaving:
      return "NEW_SAVING";
    case YarnAppState::kSubmitted:
      return "SUBMITTED";
    case YarnAppState::kAccepted:
      return "ACCEPTED";
    case YarnAppState::kRunning:
      return "RUNNING";
    case YarnAppState::kFinished:
      return "FINISHED";
    case YarnAppState::kFailed:
      return "FAILED";
    case YarnAppState::kKilled:
      return "KILLED";
  }
  return "?";
}

std::string_view Name(AttemptState state) {
  switch (state) {
    case AttemptState::kNew:
      return "NEW";
    case AttemptState::kSubmitted:
      return "SUBMITTED";
    case AttemptState::kScheduled:
      return "SCHEDULED";
    case AttemptState::kAllocatedSaving:
      return "ALLOCATED_SAVING";
    case AttemptState::kAllocated:
      return "ALLOCATED";
    case AttemptState::kLaunched:
      return "LAUNCHED";
    case AttemptState::kFailed:
      return "FAILED";
    case AttemptState::kRunning:
      return "RUNNING";
    case AttemptState::kFinishing:
      return "FINISHING";
    case AttemptState::kFinished:
      return "FINISHED";
    case AttemptState::kKilled:
      return "KILLED";
    case AttemptState::kFinalSaving:
      return "FINAL_SAVING";
    case AttemptState::kLaunchedUnmanagedSaving:
      return "LAUNCHED_UNMANAGED_SAVING";
  }
  return "?";
}

std::string_view Name(AppEvent event) {
  switch (event) {
    case AppEvent::kStart:
      return "START";
    case AppEvent::kSaved:
      return "APP_NEW_SAVED";
    case AppEvent::kAccepted:
      return "APP_ACCEPTED";
    case AppEvent::kRejected:
      return "APP_REJECTED";
    case AppEvent::kAttemptRegistered:
      return "ATTEMPT_REGISTERED";
    case AppEvent::kAttemptUnregistered:
      return "ATTEMPT_UNREGISTERED";
    case AppEvent::kAttemptFinished:
      return "ATTEMPT_FINISHED";
    case AppEvent::kAttemptFailedRetry:
      return "ATTEMPT_FAILED (retry)";
    case AppEvent::kAttemptFailedFinal:
      return "ATTEMPT_FAILED";
    case AppEvent::kKill:
      return "KILL";
    case AppEvent::kAttemptKilled:
      return "ATTEMPT_KILLED";
  }
  return "?";
}

std::string_view Name(AttemptEvent event) {
  switch (event) {
    case AttemptEvent::kStart:
      return "START";
    case AttemptEvent::kScheduled:
      return "ATTEMPT_ADDED";
    case AttemptEvent::kScheduledUnmanaged:
      return "ATTEMPT_ADDED (unmanaged)";
    case AttemptEvent::kContainerAllocated:
      return "CONTAINER_ALLOCATED";
    case AttemptEvent::kSaved:
      return "ATTEMPT_NEW_SAVED";
    case AttemptEvent::kLaunched:
      return "LAUNCHED";
    case AttemptEvent::kLaunchFailed:
      return "LAUNCH_FAILED";
    case AttemptEvent::kRegistered:
      return "REGISTERED";
    case AttemptEvent::kUnregistered:
      return "UNREGISTERED";
    case AttemptEvent::kUnregisteredUnmanaged:
      return "UNREGISTERED (unmanaged)";
    case AttemptEvent::kContainerFinished:
      return "CONTAINER_FINISHED";
    case AttemptEvent::kExpired:
      return "EXPIRE";
    case AttemptEvent::kKill:
      return "KILL";
    case AttemptEvent::kFail:
      return "FAIL";
  }
  return "?";
}

std::string_view Name(FinalStatus status) {
  switch (status) {
    case FinalStatus::kUndefined:
      return "UNDEFINED";
    case FinalStatus::kSucceeded:
      return "SUCCEEDED";
    case FinalStatus::kFailed:
      return "FAILED";
    case FinalStatus::kKilled:
      return "KILLED";
    case FinalStatus::kEnded:
      return "ENDED";
  }
  return "?";
}

}  // namespace spindle::rm
