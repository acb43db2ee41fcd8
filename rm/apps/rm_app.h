// The RM's records of applications and their attempts: plain values owned by
// the ApplicationManager. The submission context stays opaque bytes here (the
// protocol layer decodes it); only what the RM acts on is broken out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rm/apps/am_node_blacklist.h"
#include "rm/apps/app_states.h"
#include "rm/records/yarn_ids.h"
#include "scheduler_pool/ask.h"
#include "scheduler_pool/resources.h"

namespace spindle::rm {

// The allocation request id of the AM container's own ask. YARN never uses
// it (AMs send -1 or ids >= 0), so the AM container is never confused with
// an AM's asks, which may use any priority, including 0.
inline constexpr int64_t kAmAllocationRequestId = -2;

// A leaf queue's application limits (CapacityScheduler's LeafQueue), as the
// protocol layer read them from the queue tree when the app arrived.
struct QueueLimits {
  std::string path;  // root.a.b, for messages
  // Apps not yet finished the queue may hold, in all and per user. < 0: none.
  int32_t max_apps = -1;
  int32_t max_apps_per_user = -1;
};

// What a client submits, broken out of ApplicationSubmissionContextProto.
struct Submission {
  ApplicationId id;
  std::string user;
  std::string name = "N/A";
  std::string queue = "default";
  QueueLimits queue_limits;
  // Set when the scheduler must reject the application once it is accepted
  // and saved (the diagnostics it ends FAILED with); never stored, so a
  // recovered application is not rejected again (as Hadoop's scheduler
  // ignores a recovered application's refusal).
  std::string rejection;
  std::string type = "YARN";
  std::vector<std::string> tags;
  int32_t priority = 0;
  // <= 0: the RM's default (yarn.resourcemanager.am.max-attempts).
  int32_t max_attempts = 0;
  bool unmanaged_am = false;
  bool keep_containers_across_attempts = false;
  // The context's attemptFailuresValidityInterval (ms): failures that ended
  // longer ago no longer count toward max_attempts. <= 0: all count.
  int64_t attempt_failures_validity_interval_ms = -1;
  pool::Resource am_resource;
  // The AM container's node label expression as submitted (its ANY
  // request's, else the context's); unset: none.
  std::optional<std::string> am_label_expression;
  // The context's own node label expression (ApplicationSubmissionContext
  // .nodeLabelExpression); unset: none. An allocate ANY row without an
  // expression takes it (3.3 DefaultAMSProcessor.allocate).
  std::optional<std::string> app_label_expression;
  // The partition the AM container is placed in, resolved against its queue
  // at submission (rm/core/label_expression.h); "": the default partition.
  std::string am_partition;
  // The context's applicationTimeouts LIFETIME, in seconds; 0: none (the
  // translator refuses values <= 0, as Hadoop does).
  int64_t lifetime_seconds = 0;
  // The serialized ApplicationSubmissionContextProto, kept byte for byte for
  // the AM launch and for recovery.
  std::string context_bytes;
};

// The AM container of an attempt, once placed.
struct AmContainer {
  ContainerId id;
  NodeId node;
  std::string node_http_address;
  pool::Placement placement;
  // When it was allocated (wall ms); after a restart, when its node says it
  // was created. 0 until known.
  int64_t created_ms = 0;
};

struct RmAttempt {
  ApplicationAttemptId id;
  AttemptState state = AttemptState::kNew;
  AttemptState before_saving = AttemptState::kNew;  // shown during FINAL_SAVING
  AttemptState after_saving = AttemptState::kNew;
  std::optional<AmContainer> am_container;
  // From registerApplicationMaster.
  std::string host = "N/A";
  int32_t rpc_port = -1;
  std::string tracking_url;
  // From finishApplicationMaster.
  FinalStatus final_status = FinalStatus::kUndefined;
  std::string diagnostics;
  int64_t start_time_ms = 0;
  int64_t finish_time_ms = 0;
  // Last time the AM was heard from (register/allocate), for liveliness.
  TimePoint last_heard;
  // Next container sequence number of this attempt (the AM container is 1).
  int64_t next_container_sequence = 1;
  // Exit status of the AM container, once it exited.
  std::optional<int32_t> am_exit_status;
  // Secure mode only: the attempt's ClientToAMToken master key, made when
  // the attempt starts (RMAppAttemptImpl.clientTokenMasterKey); empty
  // otherwise. Stored in the attempt record's credentials (app_records.h).
  std::string client_token_master_key;
  // When the scheduler allocated the attempt's first container (wall ms):
  // its AM container, an unmanaged AM's first task container, or a
  // container its node reported after a restart. Unset: none yet. From then
  // Hadoop's QueueMetrics count the attempt running instead of pending
  // (AppSchedulingInfo's `pending` flag: release-2.6.0 allocate lines
  // 273-278 and recoverContainer 445-452, rel/release-3.3.0
  // updateMetricsForAllocatedContainer 732-741 and recoverContainer
  // 686-700; rm/core/queue_statistics.h ClassifyApp). Not stored.
  std::optional<int64_t> first_allocation_ms;
  // Hadoop 3.3's AM launch diagnostics (RMAppAttemptImpl.amLaunchDiagnostics):
  // why the attempt waits for its AM container, while it does (see
  // am_activation.h); empty otherwise and on the 2.x lines. Not stored.
  std::string am_launch_diagnostics;
  // The AM's ask table asks for containers (an ANY row above zero), as the
  // attempt's allocator last said (ApplicationManager::OnAsksUpdated). Not
  // stored: a restarted RM hears the asks again.
  bool asks_outstanding = false;
};

// The diagnostics an attempt reports (RMAppAttemptImpl.getDiagnostics): its
// own, or while it has none its AM launch diagnostics.
inline const std::string& ReportedDiagnostics(const RmAttempt& attempt) {
  return attempt.diagnostics.empty() ? attempt.am_launch_diagnostics : attempt.diagnostics;
}

struct RmApp {
  Submission submission;
  int32_t max_attempts = 1;
  AppState state = AppState::kNew;
  AppState before_special = AppState::kNew;  // shown during FINAL_SAVING / KILLING
  AppState after_saving = AppState::kNew;
  FinalStatus final_status = FinalStatus::kUndefined;
  std::string diagnostics;
  float progress = 0;
  int64_t submit_time_ms = 0;
  int64_t start_time_ms = 0;
  int64_t finish_time_ms = 0;
  pool::AppId pool_app;
  bool in_pool = false;
  // The pool was told its attempt waits on the AM limit (AppSpec::held).
  bool pool_held = false;
  // When the app's lifetime ends (wall ms): submit time + its lifetime when
  // it was saved, moved by updateApplicationTimeouts. Hadoop's
  // RMAppImpl.applicationTimeouts[LIFETIME]. Unset: no lifetime.
  std::optional<int64_t> lifetime_expiry_ms;
  // Nodes its AM containers failed on (kept in memory only, as Hadoop's
  // RMAppImpl keeps its BlacklistManager).
  AmNodeBlacklist am_blacklist;
  std::vector<RmAttempt> attempts;

  const RmAttempt* current_attempt() const { return attempts.empty() ? nullptr : &attempts.back(); }
  RmAttempt* current_attempt() { return attempts.empty() ? nullptr : &attempts.back(); }
  YarnAppState yarn_state() const { return ToYarnAppState(state, before_special); }
};

}  // namespace spindle::rm
