// What the HA tests ask an RM to tell active from standby: getClusterMetrics
// on its client port, answered by the active, refused with
// org.apache.hadoop.ipc.StandbyException by a standby, unanswered by a dead
// or stopped one.
#pragma once

#include <cstdint>

#include "integration/cell_support.h"
#include "rm/yarn_exceptions.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle::cell {

enum class HaAnswer { kActive, kStandby, kNone };

inline HaAnswer AskHaState(ipc::RpcClient& client, uint16_t client_port) {
  hadoop::yarn::GetClusterMetricsRequestProto request;
  hadoop::yarn::GetClusterMetricsResponseProto response;
  const Status s = client.Call({"127.0.0.1", client_port, kClient, "alice", std::nullopt},
                               "getClusterMetrics", request, &response);
  if (s.ok()) return HaAnswer::kActive;
  if (s.IsRemote() && s.java_class() == rm::yarn::kStandby) return HaAnswer::kStandby;
  return HaAnswer::kNone;
}

}  // namespace spindle::cell
