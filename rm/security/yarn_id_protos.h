// Conversions between rm/records ids and their Hadoop protobuf records, set
// exactly as Java's *PBImpl classes set them, because token identifiers embed
// these messages and the NM recomputes passwords over their bytes:
//   ApplicationIdProto         {id, cluster_timestamp}
//   ApplicationAttemptIdProto  {application_id, attemptId}
//   ContainerIdProto           {app_attempt_id, id}  (the deprecated app_id is
//                                                    never set, as in Java)
//   NodeIdProto                {host, port}
#pragma once

#include "rm/records/yarn_ids.h"
#include "yarn_protos.pb.h"

namespace spindle::rm {

void ToProto(const ApplicationId& id, hadoop::yarn::ApplicationIdProto* proto);
void ToProto(const ApplicationAttemptId& id, hadoop::yarn::ApplicationAttemptIdProto* proto);
void ToProto(const ContainerId& id, hadoop::yarn::ContainerIdProto* proto);
void ToProto(const NodeId& id, hadoop::yarn::NodeIdProto* proto);

// Missing fields read as 0 / "" (the Java getters' defaults).
ApplicationId FromProto(const hadoop::yarn::ApplicationIdProto& proto);
ApplicationAttemptId FromProto(const hadoop::yarn::ApplicationAttemptIdProto& proto);
ContainerId FromProto(const hadoop::yarn::ContainerIdProto& proto);
NodeId FromProto(const hadoop::yarn::NodeIdProto& proto);

}  // namespace spindle::rm
