#include "am_protocol/admin_service/ha_service.h"

#include <glog/logging.h>

#include "ha_service_protocol.pb.h"
#include "rm/yarn_exceptions.h"

namespace spindle::am_protocol {

namespace c = hadoop::common;

namespace {

// HAServiceState.toString(): the Java enum's lower-case names (Spindle's
// stopped core is Hadoop's STOPPING).
const char* JavaStateName(rm::HaState state) {
  switch (state) {
    case rm::HaState::kInitializing:
      return "initializing";
    case rm::HaState::kActive:
      return "active";
    case rm::HaState::kStandby:
      return "standby";
    case rm::HaState::kStopped:
      return "stopping";
  }
  return "initializing";
}

// HAServiceProtocolServerSideTranslatorPB.getServiceStatus: ACTIVE and
// STANDBY as they are, anything else INITIALIZING.
c::HAServiceStateProto ToProto(rm::HaState state) {
  switch (state) {
    case rm::HaState::kActive:
      return c::ACTIVE;
    case rm::HaState::kStandby:
      return c::STANDBY;
    default:
      return c::INITIALIZING;
  }
}

HaRequestSource FromProto(c::HARequestSource source) {
  switch (source) {
    case c::REQUEST_BY_USER_FORCED:
      return HaRequestSource::kUserForced;
    case c::REQUEST_BY_ZKFC:
      return HaRequestSource::kFailoverController;
    case c::REQUEST_BY_USER:
    default:
      return HaRequestSource::kUser;
  }
}

Status ServiceFailed(const std::string& message, const Status& cause) {
  return Status::Remote(ha_exceptions::kServiceFailed, message + ": " + cause.message());
}

// Server.getRemoteAddress(): the peer's IP, null for an in-process caller.
std::string RemoteIp(const std::string& remote) {
  if (remote.empty()) return "null";
  const size_t colon = remote.rfind(':');
  return colon == std::string::npos ? remote : remote.substr(0, colon);
}

}  // namespace

Status HaService::CheckAccess(const std::string& caller, const std::string& method) const {
  return VerifyAdminAccess(*admin_, caller, method, options_.daemon_user);
}

Status HaService::CheckStateChange(HaRequestSource source, const std::string& remote) const {
  switch (source) {
    case HaRequestSource::kUser:
      if (options_.automatic_failover) {
        return Status::Remote(rm::yarn::kAccessControl,
                              "Manual failover for this ResourceManager is disallowed, because "
                              "automatic failover is enabled.",
                              Status::Code::kUnauthorized);
      }
      break;
    case HaRequestSource::kUserForced:
      if (options_.automatic_failover) {
        LOG(WARNING) << "Allowing manual failover from " << RemoteIp(remote)
                     << " even though automatic failover is enabled, because the user specified "
                        "the force flag";
      }
      break;
    case HaRequestSource::kFailoverController:
      if (!options_.automatic_failover) {
        return Status::Remote(rm::yarn::kAccessControl,
                              "Request from ZK failover controller at " + RemoteIp(remote) +
                                  " denied since automatic failover is not enabled",
                              Status::Code::kUnauthorized);
      }
      break;
  }
  return Status::OK();
}

Status HaService::RefreshAll() {
  RETURN_NOT_OK(admin_->RefreshQueues());
  RETURN_NOT_OK(admin_->RefreshNodes());
  RETURN_NOT_OK(admin_->RefreshSuperUserGroups());
  admin_->RefreshGroups();
  // Only with service authorization on (refreshServiceAcls would refuse).
  if (admin_->ServiceAuthorizationEnabled()) RETURN_NOT_OK(admin_->RefreshServiceAcls());
  return Status::OK();
}

Status HaService::MonitorHealth(const std::string& caller) {
  MutexLock lock(&mu_);
  RETURN_NOT_OK(CheckAccess(caller, "monitorHealth"));
  if (transitions_->ha_state() == rm::HaState::kActive && !transitions_->ActiveServicesRunning()) {
    return Status::Remote(ha_exceptions::kHealthCheckFailed,
                          "Active ResourceManager services are not running!");
  }
  return Status::OK();
}

Status HaService::TransitionToActive(const std::string& caller, HaRequestSource source,
                                     const std::string& remote) {
  MutexLock lock(&mu_);
  if (transitions_->ha_state() == rm::HaState::kActive) return Status::OK();
  // The ACL may have changed while another RM was active.
  if (Status refreshed = admin_->RefreshAdminAcls(); !refreshed.ok()) {
    return ServiceFailed("Can not execute refreshAdminAcls", refreshed);
  }
  RETURN_NOT_OK(CheckAccess(caller, "transitionToActive"));
  RETURN_NOT_OK(CheckStateChange(source, remote));
  if (Status active = transitions_->TransitionToActive(); !active.ok()) {
    LOG(WARNING) << "transitionToActive by " << caller << " failed: " << active.ToString();
    return ServiceFailed("Error when transitioning to Active mode", active);
  }
  if (Status refreshed = RefreshAll(); !refreshed.ok()) {
    LOG(ERROR) << "refreshAll after transitionToActive failed, back to standby: "
               << refreshed.ToString();
    Status standby = transitions_->TransitionToStandby();
    if (!standby.ok()) LOG(ERROR) << "and standby failed too: " << standby.ToString();
    return ServiceFailed("Error on refreshAll during transition to Active", refreshed);
  }
  LOG(INFO) << "transitionToActive by " << caller << ": this ResourceManager is active";
  return Status::OK();
}

Status HaService::TransitionToStandby(const std::string& caller, HaRequestSource source,
                                      const std::string& remote) {
  MutexLock lock(&mu_);
  if (Status refreshed = admin_->RefreshAdminAcls(); !refreshed.ok()) {
    return ServiceFailed("Can not execute refreshAdminAcls", refreshed);
  }
  RETURN_NOT_OK(CheckAccess(caller, "transitionToStandby"));
  RETURN_NOT_OK(CheckStateChange(source, remote));
  if (Status standby = transitions_->TransitionToStandby(); !standby.ok()) {
    LOG(WARNING) << "transitionToStandby by " << caller << " failed: " << standby.ToString();
    return ServiceFailed("Error when transitioning to Standby mode", standby);
  }
  LOG(INFO) << "transitionToStandby by " << caller << ": this ResourceManager is standby";
  return Status::OK();
}

Result<HaServiceStatus> HaService::GetServiceStatus(const std::string& caller) {
  MutexLock lock(&mu_);
  RETURN_NOT_OK(CheckAccess(caller, "getServiceState"));
  HaServiceStatus status;
  status.state = transitions_->ha_state();
  if (status.state == rm::HaState::kActive || status.state == rm::HaState::kStandby) {
    status.ready_to_become_active = true;
  } else {
    status.not_ready_reason = std::string("State is ") + JavaStateName(status.state);
  }
  return status;
}

std::unique_ptr<ipc::RpcService> HaService::MakeRpcService() {
  auto service = std::make_unique<ipc::RpcService>(kHaServiceProtocol);
  service->AddMethod<c::MonitorHealthRequestProto, c::MonitorHealthResponseProto>(
      "monitorHealth",
      [this](const ipc::ConnectionIdentity& who, const c::MonitorHealthRequestProto&,
             c::MonitorHealthResponseProto*) { return MonitorHealth(who.user); });
  service->AddMethod<c::TransitionToActiveRequestProto, c::TransitionToActiveResponseProto>(
      "transitionToActive",
      [this](const ipc::ConnectionIdentity& who, const c::TransitionToActiveRequestProto& request,
             c::TransitionToActiveResponseProto*) {
        return TransitionToActive(who.user, FromProto(request.reqinfo().reqsource()),
                                  who.remote_address);
      });
  service->AddMethod<c::TransitionToStandbyRequestProto, c::TransitionToStandbyResponseProto>(
      "transitionToStandby",
      [this](const ipc::ConnectionIdentity& who, const c::TransitionToStandbyRequestProto& request,
             c::TransitionToStandbyResponseProto*) {
        return TransitionToStandby(who.user, FromProto(request.reqinfo().reqsource()),
                                   who.remote_address);
      });
  // 3.3: an RM is never an observer (RMHAServiceTarget does not offer it).
  service->AddMethod<c::TransitionToObserverRequestProto, c::TransitionToObserverResponseProto>(
      "transitionToObserver",
      [](const ipc::ConnectionIdentity&, const c::TransitionToObserverRequestProto&,
         c::TransitionToObserverResponseProto*) {
        return Status::Remote(ha_exceptions::kServiceFailed,
                              "Does not support transition to Observer");
      });
  service->AddMethod<c::GetServiceStatusRequestProto, c::GetServiceStatusResponseProto>(
      "getServiceStatus",
      [this](const ipc::ConnectionIdentity& who, const c::GetServiceStatusRequestProto&,
             c::GetServiceStatusResponseProto* response) {
        ASSIGN_OR_RETURN(HaServiceStatus status, GetServiceStatus(who.user));
        response->set_state(ToProto(status.state));
        response->set_readytobecomeactive(status.ready_to_become_active);
        if (!status.ready_to_become_active) {
          response->set_notreadyreason(status.not_ready_reason);
        }
        return Status::OK();
      });
  return service;
}

}  // namespace spindle::am_protocol
