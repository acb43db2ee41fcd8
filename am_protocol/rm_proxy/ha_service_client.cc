#include "am_protocol/rm_proxy/ha_service_client.h"

namespace spindle::am_protocol {

namespace c = hadoop::common;

namespace {

c::HARequestSource ToProto(HaRequestSource source) {
  switch (source) {
    case HaRequestSource::kUserForced:
      return c::REQUEST_BY_USER_FORCED;
    case HaRequestSource::kFailoverController:
      return c::REQUEST_BY_ZKFC;
    case HaRequestSource::kUser:
      break;
  }
  return c::REQUEST_BY_USER;
}

}  // namespace

const char* HaStateJavaName(c::HAServiceStateProto state) {
  switch (state) {
    case c::ACTIVE:
      return "active";
    case c::STANDBY:
      return "standby";
    case c::OBSERVER:
      return "observer";
    case c::INITIALIZING:
      break;
  }
  return "initializing";
}

ipc::ConnectionSpec HaServiceClient::Spec(const rm::SocketAddress& admin) const {
  return {admin.host, admin.port, kHaServiceProtocol, user_, std::nullopt};
}

Result<c::GetServiceStatusResponseProto> HaServiceClient::GetServiceStatus(
    const rm::SocketAddress& admin) const {
  c::GetServiceStatusRequestProto request;
  c::GetServiceStatusResponseProto response;
  RETURN_NOT_OK(client_->Call(Spec(admin), "getServiceStatus", request, &response));
  return response;
}

Status HaServiceClient::MonitorHealth(const rm::SocketAddress& admin) const {
  c::MonitorHealthRequestProto request;
  c::MonitorHealthResponseProto response;
  return client_->Call(Spec(admin), "monitorHealth", request, &response);
}

Status HaServiceClient::TransitionToActive(const rm::SocketAddress& admin,
                                           HaRequestSource source) const {
  c::TransitionToActiveRequestProto request;
  request.mutable_reqinfo()->set_reqsource(ToProto(source));
  c::TransitionToActiveResponseProto response;
  return client_->Call(Spec(admin), "transitionToActive", request, &response);
}

Status HaServiceClient::TransitionToStandby(const rm::SocketAddress& admin,
                                            HaRequestSource source) const {
  c::TransitionToStandbyRequestProto request;
  request.mutable_reqinfo()->set_reqsource(ToProto(source));
  c::TransitionToStandbyResponseProto response;
  return client_->Call(Spec(admin), "transitionToStandby", request, &response);
}

}  // namespace spindle::am_protocol
