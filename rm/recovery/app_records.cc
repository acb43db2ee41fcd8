#include "rm/recovery/app_records.h"

#include <glog/logging.h>

#include "rm/recovery/submission_labels.h"
#include "rm/security/credentials.h"
#include "rm/security/yarn_id_protos.h"
#include "yarn_protos.pb.h"
#include "yarn_server_resourcemanager_recovery.pb.h"

namespace spindle::rm {

namespace y = hadoop::yarn;

namespace {

// The final state a record stands for: an app or attempt in FINAL_SAVING is
// stored as the state it is saving, and FINISHING (the AM unregistered) is
// already FINISHED as far as the store is concerned, as in Hadoop.
std::optional<y::RMAppStateProto> StoredState(const RmApp& app) {
  const AppState state = app.state == AppState::kFinalSaving ? app.after_saving : app.state;
  switch (state) {
    case AppState::kFinishing:
    case AppState::kFinished:
      return y::RMAPP_FINISHED;
    case AppState::kFailed:
      return y::RMAPP_FAILED;
    case AppState::kKilled:
      return y::RMAPP_KILLED;
    default:
      return std::nullopt;
  }
}

std::optional<y::RMAppAttemptStateProto> StoredState(const RmAttempt& attempt) {
  const AttemptState state =
      attempt.state == AttemptState::kFinalSaving ? attempt.after_saving : attempt.state;
  switch (state) {
    case AttemptState::kFinishing:
    case AttemptState::kFinished:
      return y::RMATTEMPT_FINISHED;
    case AttemptState::kFailed:
      return y::RMATTEMPT_FAILED;
    case AttemptState::kKilled:
      return y::RMATTEMPT_KILLED;
    default:
      return std::nullopt;
  }
}

void ToProto(const pool::Resource& resource, y::ResourceProto* proto) {
  proto->set_memory(resource.memory_mb());
  proto->set_virtual_cores(static_cast<int32_t>(resource.vcores()));
}

pool::Resource FromProto(const y::ResourceProto& proto) {
  return pool::Resource::Of(proto.memory(), proto.virtual_cores());
}

FinalStatus FromProto(y::FinalApplicationStatusProto status) {
  switch (status) {
    case y::APP_SUCCEEDED:
      return FinalStatus::kSucceeded;
    case y::APP_FAILED:
      return FinalStatus::kFailed;
    case y::APP_KILLED:
      return FinalStatus::kKilled;
    case y::APP_ENDED:
      return FinalStatus::kEnded;
    default:
      return FinalStatus::kUndefined;
  }
}

y::FinalApplicationStatusProto ToProto(FinalStatus status) {
  switch (status) {
    case FinalStatus::kSucceeded:
      return y::APP_SUCCEEDED;
    case FinalStatus::kFailed:
      return y::APP_FAILED;
    case FinalStatus::kKilled:
      return y::APP_KILLED;
    case FinalStatus::kEnded:
      return y::APP_ENDED;
    case FinalStatus::kUndefined:
      break;
  }
  return y::APP_UNDEFINED;
}

}  // namespace

std::string EncodeAppRecord(const RmApp& app) {
  const Submission& s = app.submission;
  y::ApplicationStateDataProto proto;
  proto.set_submit_time(app.submit_time_ms);
  proto.set_application_submission_context(s.context_bytes);
  proto.set_user(s.user);
  proto.set_start_time(app.start_time_ms);
  if (auto state = StoredState(app); state.has_value()) {
    proto.set_application_state(*state);
    proto.set_finish_time(app.finish_time_ms);
  }
  proto.set_diagnostics(app.diagnostics);
  if (app.lifetime_expiry_ms.has_value()) {
    y::ApplicationTimeoutMapProto* timeout = proto.add_application_timeouts();
    timeout->set_application_timeout_type(y::APP_TIMEOUT_LIFETIME);
    timeout->set_timeout(*app.lifetime_expiry_ms);
  }
  ToProto(s.id, proto.mutable_spindle_application_id());
  proto.set_spindle_queue(s.queue);
  proto.set_spindle_priority(s.priority);
  proto.set_spindle_max_attempts(app.max_attempts);
  ToProto(s.am_resource, proto.mutable_spindle_am_resource());
  proto.set_spindle_final_status(ToProto(app.final_status));
  proto.set_spindle_queue_path(s.queue_limits.path);
  proto.set_spindle_queue_max_apps(s.queue_limits.max_apps);
  proto.set_spindle_queue_max_apps_per_user(s.queue_limits.max_apps_per_user);
  proto.set_spindle_name(s.name);
  proto.set_spindle_type(s.type);
  for (const auto& tag : s.tags) proto.add_spindle_tags(tag);
  proto.set_spindle_unmanaged_am(s.unmanaged_am);
  proto.set_spindle_keep_containers(s.keep_containers_across_attempts);
  return proto.SerializeAsString();
}

namespace {

// Spindle's own fields, which Spindle's records carry.
void ReadSpindleFields(const y::ApplicationStateDataProto& proto, RmApp* app) {
  Submission& s = app->submission;
  s.id = rm::FromProto(proto.spindle_application_id());
  s.name = proto.spindle_name();
  s.queue = proto.spindle_queue();
  s.queue_limits = {proto.spindle_queue_path(), proto.spindle_queue_max_apps(),
                    proto.spindle_queue_max_apps_per_user()};
  s.type = proto.spindle_type();
  s.tags.assign(proto.spindle_tags().begin(), proto.spindle_tags().end());
  s.priority = proto.spindle_priority();
  s.max_attempts = proto.spindle_max_attempts();
  s.unmanaged_am = proto.spindle_unmanaged_am();
  s.keep_containers_across_attempts = proto.spindle_keep_containers();
  s.am_resource = FromProto(proto.spindle_am_resource());
  app->max_attempts = proto.spindle_max_attempts();
  app->final_status = FromProto(proto.spindle_final_status());
}

// A record a Java RM wrote has none of Spindle's fields: what the
// submission was is read back from the stored context, as Hadoop rebuilds
// RMAppImpl from it on recovery. The maximum attempts are the context's (0:
// the RM's default, applied when the app is recovered), the AM resource the
// AM container request's capability (2.7+; Java stores it normalised) else
// the context's resource; the final status is the last attempt's
// (DecodeRmState), as RMAppImpl.getFinalApplicationStatus answers.
Status ReadHadoopFields(const y::ApplicationStateDataProto& proto, RmApp* app) {
  y::ApplicationSubmissionContextProto context;
  if (!context.ParseFromString(proto.application_submission_context()) ||
      !context.has_application_id()) {
    return Status::Corruption("application record has no application id");
  }
  Submission& s = app->submission;
  s.id = rm::FromProto(context.application_id());
  s.name = context.application_name();
  s.queue = context.queue();
  s.type = context.applicationtype();
  s.tags.assign(context.applicationtags().begin(), context.applicationtags().end());
  s.priority = context.priority().priority();
  s.max_attempts = context.maxappattempts();
  s.unmanaged_am = context.unmanaged_am();
  s.keep_containers_across_attempts = context.keep_containers_across_application_attempts();
  s.am_resource = context.am_container_resource_request_size() > 0
                      ? FromProto(context.am_container_resource_request(0).capability())
                      : FromProto(context.resource());
  app->max_attempts = context.maxappattempts();
  app->final_status = FinalStatus::kUndefined;
  return Status::OK();
}

}  // namespace

Result<RmApp> DecodeAppRecord(const std::string& bytes) {
  y::ApplicationStateDataProto proto;
  if (!proto.ParseFromString(bytes)) {
    return Status::Corruption("application record does not parse as ApplicationStateDataProto");
  }
  RmApp app;
  Submission& s = app.submission;
  if (proto.has_spindle_application_id()) {
    ReadSpindleFields(proto, &app);
  } else {
    RETURN_NOT_OK(ReadHadoopFields(proto, &app));
  }
  s.user = proto.user();
  s.context_bytes = proto.application_submission_context();
  // Not broken out in the record: read back from the submitted context.
  if (y::ApplicationSubmissionContextProto context; context.ParseFromString(s.context_bytes)) {
    s.attempt_failures_validity_interval_ms = context.attempt_failures_validity_interval();
    ReadLabelExpressions(context, &s);
  }
  app.diagnostics = proto.diagnostics();
  app.submit_time_ms = proto.submit_time();
  app.start_time_ms = proto.start_time();
  app.finish_time_ms = proto.finish_time();
  for (const auto& timeout : proto.application_timeouts()) {
    if (timeout.application_timeout_type() == y::APP_TIMEOUT_LIFETIME) {
      app.lifetime_expiry_ms = timeout.timeout();
    }
  }
  switch (proto.has_application_state() ? proto.application_state() : y::RMAPP_NEW) {
    case y::RMAPP_FINISHED:
      app.state = AppState::kFinished;
      break;
    case y::RMAPP_FAILED:
      app.state = AppState::kFailed;
      break;
    case y::RMAPP_KILLED:
      app.state = AppState::kKilled;
      break;
    default:
      app.state = AppState::kNew;
      break;
  }
  return app;
}

bool IsHadoopAppRecord(const std::string& bytes) {
  y::ApplicationStateDataProto proto;
  return proto.ParseFromString(bytes) && !proto.has_spindle_application_id();
}

void ResolveHadoopFinalStatus(RmApp* app) {
  if (!app->attempts.empty() && app->attempts.back().final_status != FinalStatus::kUndefined) {
    app->final_status = app->attempts.back().final_status;
    return;
  }
  switch (app->state) {
    case AppState::kKilled:
      app->final_status = FinalStatus::kKilled;
      break;
    case AppState::kFailed:
      app->final_status = FinalStatus::kFailed;
      break;
    case AppState::kFinished:
      app->final_status = FinalStatus::kSucceeded;
      break;
    default:
      app->final_status = FinalStatus::kUndefined;
      break;
  }
}

namespace {
// ContainerExitStatus.INVALID.
constexpr int32_t kInvalidExitStatus = -1000;
constexpr std::string_view kAsksSuffix = "/asks";
// Attempt ids contain no '/', so the first one ends the attempt id.
constexpr std::string_view kRowInfix = "/row/";
}  // namespace

std::string AttemptRowRecordId(const ApplicationAttemptId& attempt, std::string_view key) {
  return attempt.ToString() + std::string(kRowInfix) + std::string(key);
}

std::optional<AttemptRowName> ParseAttemptRowRecordId(std::string_view record_id) {
  const size_t slash = record_id.find('/');
  if (slash == std::string_view::npos || record_id.substr(slash, kRowInfix.size()) != kRowInfix ||
      record_id.size() == slash + kRowInfix.size()) {
    return std::nullopt;
  }
  return AttemptRowName{std::string(record_id.substr(0, slash)),
                        std::string(record_id.substr(slash + kRowInfix.size()))};
}

std::string AsksRecordId(const ApplicationAttemptId& attempt) {
  return attempt.ToString() + std::string(kAsksSuffix);
}

bool IsAsksRecordId(std::string_view record_id) {
  return record_id.size() > kAsksSuffix.size() &&
         record_id.substr(record_id.size() - kAsksSuffix.size()) == kAsksSuffix;
}

std::string EncodeAttemptRecord(const RmAttempt& attempt) {
  y::ApplicationAttemptStateDataProto proto;
  ToProto(attempt.id, proto.mutable_attemptid());
  if (attempt.am_container.has_value()) {
    const AmContainer& am = *attempt.am_container;
    y::ContainerProto* container = proto.mutable_master_container();
    ToProto(am.id, container->mutable_id());
    ToProto(am.node, container->mutable_nodeid());
    container->set_node_http_address(am.node_http_address);
    ToProto(am.placement.resource, container->mutable_resource());
    container->mutable_priority()->set_priority(am.placement.priority);
  }
  // Always present, as a Java RM writes it (empty with security off):
  // without it a Java RM taking over would not accept the live attempt's
  // AMRM token (recoverAppAttemptCredentials returns early).
  Credentials credentials;
  if (!attempt.client_token_master_key.empty()) {
    credentials.AddSecret(kAmClientTokenMasterKeyName, attempt.client_token_master_key);
  }
  proto.set_app_attempt_tokens(credentials.Serialize());
  if (auto state = StoredState(attempt); state.has_value()) {
    proto.set_app_attempt_state(*state);
    proto.set_finish_time(attempt.finish_time_ms);
    proto.set_final_application_status(ToProto(attempt.final_status));
  }
  proto.set_final_tracking_url(attempt.tracking_url);
  proto.set_diagnostics(attempt.diagnostics);
  proto.set_start_time(attempt.start_time_ms);
  if (attempt.am_exit_status.has_value()) {
    proto.set_am_container_exit_status(*attempt.am_exit_status);
  }
  return proto.SerializeAsString();
}

Result<RmAttempt> DecodeAttemptRecord(const std::string& bytes) {
  y::ApplicationAttemptStateDataProto proto;
  if (!proto.ParseFromString(bytes)) {
    return Status::Corruption("attempt record does not parse as ApplicationAttemptStateDataProto");
  }
  if (!proto.has_attemptid()) return Status::Corruption("attempt record has no attempt id");
  RmAttempt attempt;
  attempt.id = rm::FromProto(proto.attemptid());
  if (proto.has_master_container()) {
    const y::ContainerProto& container = proto.master_container();
    AmContainer am;
    am.id = rm::FromProto(container.id());
    am.node = rm::FromProto(container.nodeid());
    am.node_http_address = container.node_http_address();
    am.placement.resource = FromProto(container.resource());
    am.placement.priority = container.priority().priority();
    am.placement.allocation_request_id = kAmAllocationRequestId;
    attempt.am_container = am;
  }
  switch (proto.has_app_attempt_state() ? proto.app_attempt_state() : y::RMATTEMPT_NEW) {
    case y::RMATTEMPT_FINISHED:
      attempt.state = AttemptState::kFinished;
      break;
    case y::RMATTEMPT_FAILED:
      attempt.state = AttemptState::kFailed;
      break;
    case y::RMATTEMPT_KILLED:
      attempt.state = AttemptState::kKilled;
      break;
    default:
      attempt.state = AttemptState::kNew;
      break;
  }
  if (proto.has_app_attempt_tokens()) {
    Result<Credentials> credentials = Credentials::Parse(proto.app_attempt_tokens());
    if (!credentials.ok()) {
      LOG(ERROR) << "attempt " << attempt.id.ToString()
                 << ": cannot read its stored credentials: " << credentials.status().ToString();
    } else if (const std::string* key = credentials->FindSecret(kAmClientTokenMasterKeyName)) {
      attempt.client_token_master_key = *key;
    }
  }
  attempt.tracking_url = proto.final_tracking_url();
  attempt.diagnostics = proto.diagnostics();
  attempt.start_time_ms = proto.start_time();
  attempt.finish_time_ms = proto.finish_time();
  attempt.final_status = FromProto(proto.final_application_status());
  // A Java RM writes ContainerExitStatus.INVALID (-1000, the field's
  // default) for an AM that has not exited.
  if (proto.has_am_container_exit_status() &&
      proto.am_container_exit_status() != kInvalidExitStatus) {
    attempt.am_exit_status = proto.am_container_exit_status();
  }
  return attempt;
}

}  // namespace spindle::rm
