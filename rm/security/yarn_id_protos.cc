#include "rm/security/yarn_id_protos.h"

namespace spindle::rm {

void ToProto(const ApplicationId& id, hadoop::yarn::ApplicationIdProto* proto) {
  proto->set_id(id.id);
  proto->set_cluster_timestamp(id.cluster_timestamp);
}

void ToProto(const ApplicationAttemptId& id, hadoop::yarn::ApplicationAttemptIdProto* proto) {
  ToProto(id.app, proto->mutable_application_id());
  proto->set_attemptid(id.attempt);
}

void ToProto(const ContainerId& id, hadoop::yarn::ContainerIdProto* proto) {
  ToProto(id.attempt, proto->mutable_app_attempt_id());
  proto->set_id(id.id);
}

void ToProto(const NodeId& id, hadoop::yarn::NodeIdProto* proto) {
  proto->set_host(id.host);
  proto->set_port(id.port);
}

ApplicationId FromProto(const hadoop::yarn::ApplicationIdProto& proto) {
  return ApplicationId{proto.cluster_timestamp(), proto.id()};
}

ApplicationAttemptId FromProto(const hadoop::yarn::ApplicationAttemptIdProto& proto) {
  return ApplicationAttemptId{FromProto(proto.application_id()), proto.attemptid()};
}

ContainerId FromProto(const hadoop::yarn::ContainerIdProto& proto) {
  return ContainerId{FromProto(proto.app_attempt_id()), proto.id()};
}

NodeId FromProto(const hadoop::yarn::NodeIdProto& proto) {
  return NodeId{proto.host(), proto.port()};
}

}  // namespace spindle::rm
