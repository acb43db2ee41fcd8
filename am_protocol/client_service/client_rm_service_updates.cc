// ClientRmService: updateApplicationTimeouts and signalToContainer, as
// Hadoop 3.3's ClientRMService answers them.
#include <glog/logging.h>

#include <map>

#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/client_service/iso8601_time.h"
#include "am_protocol/client_service/record_protos.h"
#include "rm/yarn_exceptions.h"

namespace spindle::client_service {

namespace y = hadoop::yarn;

namespace {

Status YarnError(const std::string& message) {
  return Status::Remote(rm::yarn::kYarnException, message);
}

// ApplicationTimeoutType.toString() of the request's type.
std::string TypeName(y::ApplicationTimeoutTypeProto type) {
  return type == y::APP_TIMEOUT_LIFETIME ? "LIFETIME" : std::to_string(static_cast<int>(type));
}

}  // namespace

Status ClientRmService::UpdateApplicationTimeouts(
    const Who& who, const y::UpdateApplicationTimeoutsRequestProto& request,
    y::UpdateApplicationTimeoutsResponseProto* response) {
  const rm::ApplicationId id = FromProto(request.applicationid());
  const Caller caller = access_.CallerOf(who.user);
  ASSIGN_OR_RETURN(const rm::RmApp app, AppToModify(caller, id));
  // The request as Java's map sees it: one value per type, the last one
  // wins; an absent expire time is Java's null.
  std::map<y::ApplicationTimeoutTypeProto, std::optional<std::string>> timeouts;
  for (const auto& entry : request.application_timeouts()) {
    timeouts[entry.application_timeout_type()] =
        entry.has_expire_time() ? std::optional<std::string>(entry.expire_time()) : std::nullopt;
  }
  auto echo = [&timeouts, response] {
    for (const auto& [type, expire] : timeouts) {
      y::ApplicationUpdateTimeoutMapProto* out = response->add_application_timeouts();
      out->set_application_timeout_type(type);
      if (expire.has_value()) out->set_expire_time(*expire);
    }
  };
  if (timeouts.empty()) {
    return YarnError(
        "At least one ApplicationTimeoutType should be configured for updating timeouts.");
  }
  switch (app.state) {
    case rm::AppState::kSubmitted:
    case rm::AppState::kAccepted:
    case rm::AppState::kRunning:
      break;
    case rm::AppState::kNew:
    case rm::AppState::kNewSaving:
      return YarnError("Application is in " + std::string(rm::Name(app.state)) +
                       " state can not update timeout.");
    default:
      // A completed app: nothing to update, and the client is told so by
      // its own request coming back.
      echo();
      return Status::OK();
  }
  // RMServerUtils.validateISO8601AndConvertToLocalTimeEpoch.
  const int64_t now_ms = clock().WallMillis();
  std::optional<int64_t> lifetime_ms;
  for (const auto& [type, expire] : timeouts) {
    auto parsed = expire.has_value() ? ParseIso8601(*expire)
                                     : Result<int64_t>(Status::InvalidArgument("null"));
    if (!parsed.ok()) {
      return YarnError(
          "Expire time is not in ISO8601 format. ISO8601 supported format is "
          "yyyy-MM-dd'T'HH:mm:ss.SSSZ. Configured timeout value is " +
          expire.value_or("null"));
    }
    if (*parsed < now_ms) {
      return YarnError("Expire time is less than current time, current-time=" +
                       FormatIso8601(now_ms) + " expire-time=" + FormatIso8601(*parsed));
    }
    if (type == y::APP_TIMEOUT_LIFETIME) lifetime_ms = *parsed;
  }
  // RMAppManager.updateApplicationTimeout (3.3): the queue's maximum
  // lifetime, counted from submission, caps the new expiry, and the answer
  // carries the capped time.
  const std::shared_ptr<const rm::QueueTree> queues = core_.QueueReport();
  const rm::CsQueue* leaf = queues->FindLeaf(app.submission.queue);
  if (lifetime_ms.has_value() && leaf != nullptr && leaf->maximum_application_lifetime > 0) {
    const int64_t cap_ms = app.submit_time_ms + leaf->maximum_application_lifetime * 1000;
    if (*lifetime_ms > cap_ms) {
      lifetime_ms = cap_ms;
      timeouts[y::APP_TIMEOUT_LIFETIME] = FormatIso8601(cap_ms);
    }
  }
  if (lifetime_ms.has_value()) {
    ASSIGN_OR_RETURN(const rm::ApplicationManager::LifetimeUpdate update,
                     core_.UpdateApplicationLifetime(id, *lifetime_ms));
    if (update == rm::ApplicationManager::LifetimeUpdate::kUpdated) {
      LOG(INFO) << "user " << caller.user << " updated the " << TypeName(y::APP_TIMEOUT_LIFETIME)
                << " of " << id.ToString() << " to " << *timeouts[y::APP_TIMEOUT_LIFETIME];
    }
  }
  echo();
  return Status::OK();
}

Status ClientRmService::SignalToContainer(const Who& who,
                                          const y::SignalContainerRequestProto& request,
                                          y::SignalContainerResponseProto*) {
  const rm::ContainerId id = FromProto(request.container_id());
  const std::string absent = "Trying to signal an absent container " + id.ToString();
  auto app = core_.ApplicationReport(id.attempt.app);
  if (!app.ok()) {
    if (app.status().java_class() == rm::yarn::kStandby) return app.status();
    return YarnError(absent);
  }
  const Caller caller = access_.CallerOf(who.user);
  if (!Allowed(caller, AppAccessType::kModify, *app, *core_.QueueReport())) {
    return Denied("User " + caller.user + " cannot perform operation MODIFY_APP on " +
                  id.attempt.app.ToString());
  }
  rm::SignalCommand command = rm::SignalCommand::kOutputThreadDump;
  switch (request.command()) {
    case y::GRACEFUL_SHUTDOWN:
      command = rm::SignalCommand::kGracefulShutdown;
      break;
    case y::FORCEFUL_SHUTDOWN:
      command = rm::SignalCommand::kForcefulShutdown;
      break;
    case y::OUTPUT_THREAD_DUMP:
      command = rm::SignalCommand::kOutputThreadDump;
      break;
  }
  // Queued for the live container's node (the AM's included).
  auto node = core_.SignalContainer(id, command);
  if (!node.ok()) {
    if (node.status().java_class() == rm::yarn::kStandby) return node.status();
    return YarnError(absent);
  }
  LOG(INFO) << "user " << caller.user << " signals " << id.ToString() << " on " << node->ToString()
            << " with " << y::SignalContainerCommandProto_Name(request.command());
  return Status::OK();
}

}  // namespace spindle::client_service
