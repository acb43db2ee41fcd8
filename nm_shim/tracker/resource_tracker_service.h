// ResourceTrackerService: the RM side of ResourceTracker (port 8031, WIRE.md
// 5.5): registerNodeManager, nodeHeartbeat and unRegisterNodeManager, turned
// into calls on the node registry, the container registry, the application
// manager (AM container exits) and the secret managers (master keys).
//
// Thread contract: handlers run concurrently on the IPC worker pool; every
// component they call is thread-safe.
#pragma once

#include <memory>
#include <string>

#include "am_protocol/ipc/rpc_service.h"
#include "rm/apps/app_manager.h"
#include "rm/config/hadoop_line.h"
#include "rm/containers/container_registry.h"
#include "rm/nodes/node_registry.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/nm_token_secret_manager.h"
#include "yarn_server_common_service_protos.pb.h"

namespace spindle::nm_shim {

inline constexpr char kResourceTrackerProtocol[] =
    "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";

struct ResourceTrackerOptions {
  // yarn.resourcemanager.nodemanagers.heartbeat-interval-ms. Default: 1000.
  int64_t heartbeat_interval_ms = 1000;
  // What the RM calls its version at registration (a 3.x NodeManager with
  // yarn.nodemanager.resourcemanager.minimum.version = EqualToNM needs it
  // >= its own). The daemon sets it from spindle.compat.hadoop-version;
  // default: the newest line's (rm/config/hadoop_line.h).
  std::string rm_version{rm::TraitsOf(rm::kDefaultHadoopLine).version};
  // The RM's cluster timestamp (rm_identifier).
  int64_t rm_identifier = 0;
};

class ResourceTrackerService {
 public:
  // Every pointer must outlive the service.
  ResourceTrackerService(const ResourceTrackerOptions& options, rm::NodeRegistry* nodes,
                         rm::ContainerRegistry* containers, rm::ApplicationManager* apps,
                         const rm::ContainerTokenSecretManager* container_tokens,
                         rm::NmTokenSecretManager* nm_tokens);

  // The ipc service for the 8031 server.
  std::unique_ptr<ipc::RpcService> MakeRpcService();

  Status RegisterNodeManager(const hadoop::yarn::RegisterNodeManagerRequestProto& request,
                             hadoop::yarn::RegisterNodeManagerResponseProto* response);
  Status NodeHeartbeat(const hadoop::yarn::NodeHeartbeatRequestProto& request,
                       hadoop::yarn::NodeHeartbeatResponseProto* response);
  Status UnRegisterNodeManager(const hadoop::yarn::UnRegisterNodeManagerRequestProto& request,
                               hadoop::yarn::UnRegisterNodeManagerResponseProto* response);

  // Completes the containers of nodes that went silent (called periodically).
  void ExpireNodes();

 private:
  // Tells the app manager about AM containers among `completed`.
  void NotifyCompleted(const std::vector<rm::CompletedContainer>& completed);

  const ResourceTrackerOptions options_;
  rm::NodeRegistry* const nodes_;
  rm::ContainerRegistry* const containers_;
  rm::ApplicationManager* const apps_;
  const rm::ContainerTokenSecretManager* const container_tokens_;
  rm::NmTokenSecretManager* const nm_tokens_;

  // The last response per node, re-sent for a duplicate heartbeat.
  Mutex last_mu_;
  std::map<rm::NodeId, hadoop::yarn::NodeHeartbeatResponseProto> last_responses_
      GUARDED_BY(last_mu_);
};

}  // namespace spindle::nm_shim
