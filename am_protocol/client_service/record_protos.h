// Conversions between the RM's plain records (rm/records, rm/apps,
// rm/nodes, scheduler_pool) and the YARN protobuf records of the
// ApplicationClientProtocol, set the way Java's *PBImpl classes set them:
//   ApplicationIdProto         {id, cluster_timestamp}
//   ApplicationAttemptIdProto  {application_id, attemptId}
//   ContainerIdProto           {app_attempt_id, id}  (the deprecated app_id is
//                                                    never set, as in Java)
//   ResourceProto              {memory, virtual_cores}
// State enums share their numbers with the protobuf enums.
#pragma once

#include "rm/apps/app_states.h"
#include "rm/apps/rm_app.h"
#include "rm/nodes/node_registry.h"
#include "rm/records/yarn_ids.h"
#include "scheduler_pool/resources.h"
#include "yarn_protos.pb.h"

namespace spindle::client_service {

void ToProto(const rm::ApplicationId& id, hadoop::yarn::ApplicationIdProto* proto);
void ToProto(const rm::ApplicationAttemptId& id, hadoop::yarn::ApplicationAttemptIdProto* proto);
void ToProto(const rm::ContainerId& id, hadoop::yarn::ContainerIdProto* proto);
void ToProto(const rm::NodeId& id, hadoop::yarn::NodeIdProto* proto);
void ToProto(const pool::Resource& resource, hadoop::yarn::ResourceProto* proto);

// Missing fields read as 0 / "" (the Java getters' defaults).
rm::ApplicationId FromProto(const hadoop::yarn::ApplicationIdProto& proto);
rm::ApplicationAttemptId FromProto(const hadoop::yarn::ApplicationAttemptIdProto& proto);
rm::ContainerId FromProto(const hadoop::yarn::ContainerIdProto& proto);

hadoop::yarn::YarnApplicationStateProto ToProto(rm::YarnAppState state);
hadoop::yarn::FinalApplicationStatusProto ToProto(rm::FinalStatus status);
// The final status a report carries, for printing with rm::Name as Hadoop
// prints it (SUCCEEDED, not APP_SUCCEEDED: ProtoUtils drops the "APP_"
// prefix).
rm::FinalStatus FromProto(hadoop::yarn::FinalApplicationStatusProto status);
hadoop::yarn::NodeStateProto ToProto(rm::NodeState state);
// The client-visible attempt state (FINAL_SAVING shows as the state before
// it, LAUNCHED_UNMANAGED_SAVING as ALLOCATED_SAVING, as RMServerUtils does).
hadoop::yarn::YarnApplicationAttemptStateProto AttemptStateProto(const rm::RmAttempt& attempt);

}  // namespace spindle::client_service
