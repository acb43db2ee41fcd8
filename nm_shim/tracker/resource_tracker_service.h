// ResourceTrackerService: the RM side of ResourceTracker (port 8031, WIRE.md
// 5.5): registerNodeManager, nodeHeartbeat and unRegisterNodeManager are
// decoded into rm::NodeProtocol calls (the RM core's ResourceManager, or a
// NodeTracker in tests), whose outcome is encoded back.
//
// Thread contract: handlers run concurrently on the IPC worker pool; the
// NodeProtocol is thread-safe.
#pragma once

#include <memory>
#include <string>

#include "rm/config/hadoop_line.h"
#include "rm/core/node_protocol.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_service.h"
#include "yarn_server_common_service_protos.pb.h"

namespace spindle::nm_shim {

using ipc::kResourceTrackerProtocol;

struct ResourceTrackerOptions {
  // yarn.resourcemanager.nodemanagers.heartbeat-interval-ms. Default: 1000.
  int64_t heartbeat_interval_ms = 1000;
  // What the RM calls its version at registration (a 3.x NodeManager with
  // yarn.nodemanager.resourcemanager.minimum.version = EqualToNM needs it
  // >= its own). The daemon sets it from spindle.compat.hadoop-version;
  // default: the newest line's (rm/config/hadoop_line.h).
  std::string rm_version{rm::TraitsOf(rm::kDefaultHadoopLine).version};
};

class ResourceTrackerService {
 public:
  // `core` must outlive the service.
  ResourceTrackerService(const ResourceTrackerOptions& options, rm::NodeProtocol* core);

  // The ipc service for the 8031 server.
  std::unique_ptr<ipc::RpcService> MakeRpcService();

  Status RegisterNodeManager(const hadoop::yarn::RegisterNodeManagerRequestProto& request,
                             hadoop::yarn::RegisterNodeManagerResponseProto* response);
  Status NodeHeartbeat(const hadoop::yarn::NodeHeartbeatRequestProto& request,
                       hadoop::yarn::NodeHeartbeatResponseProto* response);
  Status UnRegisterNodeManager(const hadoop::yarn::UnRegisterNodeManagerRequestProto& request,
                               hadoop::yarn::UnRegisterNodeManagerResponseProto* response);

 private:
  const ResourceTrackerOptions options_;
  rm::NodeProtocol* const core_;
};

}  // namespace spindle::nm_shim
