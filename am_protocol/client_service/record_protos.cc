#include "am_protocol/client_service/record_protos.h"

namespace spindle::client_service {

namespace y = hadoop::yarn;

void ToProto(const rm::ApplicationId& id, y::ApplicationIdProto* proto) {
  proto->set_id(id.id);
  proto->set_cluster_timestamp(id.cluster_timestamp);
}

void ToProto(const rm::ApplicationAttemptId& id, y::ApplicationAttemptIdProto* proto) {
  ToProto(id.app, proto->mutable_application_id());
  proto->set_attemptid(id.attempt);
}

void ToProto(const rm::ContainerId& id, y::ContainerIdProto* proto) {
  ToProto(id.attempt, proto->mutable_app_attempt_id());
  proto->set_id(id.id);
}

void ToProto(const rm::NodeId& id, y::NodeIdProto* proto) {
  proto->set_host(id.host);
  proto->set_port(id.port);
}

void ToProto(const pool::Resource& resource, y::ResourceProto* proto) {
  proto->set_memory(resource.memory_mb());
  proto->set_virtual_cores(static_cast<int32_t>(resource.vcores()));
}

rm::ApplicationId FromProto(const y::ApplicationIdProto& proto) {
  return rm::ApplicationId{proto.cluster_timestamp(), proto.id()};
}

rm::ApplicationAttemptId FromProto(const y::ApplicationAttemptIdProto& proto) {
  return rm::ApplicationAttemptId{FromProto(proto.application_id()), proto.attemptid()};
}

rm::ContainerId FromProto(const y::ContainerIdProto& proto) {
  rm::ContainerId id;
  id.attempt = FromProto(proto.app_attempt_id());
  // Very old clients set only the deprecated app_id.
  if (!proto.has_app_attempt_id() && proto.has_app_id()) id.attempt.app = FromProto(proto.app_id());
  id.id = proto.id();
  return id;
}

y::YarnApplicationStateProto ToProto(rm::YarnAppState state) {
  return static_cast<y::YarnApplicationStateProto>(static_cast<int>(state));
}

y::FinalApplicationStatusProto ToProto(rm::FinalStatus status) {
  return static_cast<y::FinalApplicationStatusProto>(static_cast<int>(status));
}

rm::FinalStatus FromProto(y::FinalApplicationStatusProto status) {
  return static_cast<rm::FinalStatus>(static_cast<int>(status));
}

y::NodeStateProto ToProto(rm::NodeState state) {
  return static_cast<y::NodeStateProto>(static_cast<int>(state));
}

y::YarnApplicationAttemptStateProto AttemptStateProto(const rm::RmAttempt& attempt) {
  const rm::AttemptState shown = rm::ToYarnAttemptState(attempt.state, attempt.before_saving);
  switch (shown) {
    case rm::AttemptState::kFinalSaving:  // only if before_saving was never set
    case rm::AttemptState::kLaunchedUnmanagedSaving:
      return y::APP_ATTEMPT_ALLOCATED_SAVING;
    default:
      return static_cast<y::YarnApplicationAttemptStateProto>(static_cast<int>(shown));
  }
}

}  // namespace spindle::client_service
