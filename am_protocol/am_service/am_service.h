// ApplicationMasterService: ApplicationMasterProtocol on port 8030 (WIRE.md
// 5.3). Callers are authenticated by their AMRM token (TOKEN only, so the
// connection's user is the attempt id). register/allocate/finish become
// calls on the ApplicationManager; allocate also turns the AM's
// ResourceRequest table into the pool's asks, hands out the containers the
// pool committed since the last call (with container and NM tokens), and
// reports completed containers.
//
// Thread contract: handlers run concurrently on the IPC worker pool. One
// attempt's calls are serialised by its own mutex (an AM has one allocate in
// flight at a time anyway); state shared across attempts is behind mu_.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "am_protocol/ipc/rpc_service.h"
#include "base/mutex.h"
#include "rm/apps/app_manager.h"
#include "rm/config/hadoop_line.h"
#include "rm/containers/container_registry.h"
#include "rm/nodes/node_registry.h"
#include "rm/security/amrm_token_secret_manager.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/nm_token_secret_manager.h"
#include "yarn_server_resourcemanager_recovery.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle::am_protocol {

inline constexpr char kApplicationMasterProtocol[] =
    "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB";

struct AmServiceDeps {
  rm::ApplicationManager* apps = nullptr;
  rm::NodeRegistry* nodes = nullptr;
  rm::ContainerRegistry* containers = nullptr;
  pool::SchedulerPool* pool = nullptr;
  rm::AmrmTokenSecretManager* amrm_tokens = nullptr;
  const rm::ContainerTokenSecretManager* container_tokens = nullptr;
  rm::NmTokenSecretManager* nm_tokens = nullptr;
  const Clock* clock = nullptr;
  // Where each live attempt's outstanding asks are kept for a restarted RM
  // (may be null: nothing is kept).
  rm::AppStore* store = nullptr;
  // True while new placements wait after an RM restart (may be null: never).
  std::function<bool()> placements_held;
  // The Hadoop line's allocate checks (spindle.compat.hadoop-version).
  // Default: the newest line's.
  rm::AmProtocolRules rules = rm::TraitsOf(rm::kDefaultHadoopLine).am_rules;
};

class AmService {
 public:
  explicit AmService(const AmServiceDeps& deps);

  std::unique_ptr<ipc::RpcService> MakeRpcService();

  Status Register(const ipc::ConnectionIdentity& who,
                  const hadoop::yarn::RegisterApplicationMasterRequestProto& request,
                  hadoop::yarn::RegisterApplicationMasterResponseProto* response);
  Status Allocate(const ipc::ConnectionIdentity& who,
                  const hadoop::yarn::AllocateRequestProto& request,
                  hadoop::yarn::AllocateResponseProto* response);
  Status Finish(const ipc::ConnectionIdentity& who,
                const hadoop::yarn::FinishApplicationMasterRequestProto& request,
                hadoop::yarn::FinishApplicationMasterResponseProto* response);

  // Forget an attempt's allocate state once it ended.
  void AttemptEnded(const rm::ApplicationAttemptId& attempt);

  // RM restart: what live attempts had when the previous run stopped
  // (AppStore::SaveAsks bytes): the RM's ask table, already reduced by what
  // was granted, and the containers granted. An AM that re-registers
  // re-sends its asks; each key is capped by what was still outstanding plus
  // the grants no node reports (lost on the way to the AM, or never
  // started), so that work a recovered container covers is not granted
  // again, whether the AM's own table counts what it received (Hadoop's
  // DistributedShell does not) or not. Call before the service serves.
  void SetRecoveredAsks(const std::map<rm::ApplicationAttemptId, std::string>& asks);

 private:
  // (priority, allocation request id, resource name, memory, vcores)
  using AskKey = std::tuple<int32_t, int64_t, std::string, int64_t, int64_t>;
  struct RecoveredAsks {
    std::map<AskKey, int32_t> outstanding;
    // Each grant with the key of its "*" row.
    std::vector<std::pair<rm::ContainerId, AskKey>> granted;
    bool resent = false;  // the AM has re-sent its asks
  };
  struct AttemptState {
    Mutex mu;
    bool registered GUARDED_BY(mu) = false;
    int32_t last_response_id GUARDED_BY(mu) = 0;
    hadoop::yarn::AllocateResponseProto last_response GUARDED_BY(mu);
    std::map<AskKey, hadoop::yarn::ResourceRequestProto> asks GUARDED_BY(mu);
    // After an RM restart, until the AM's re-sent asks are capped.
    std::optional<RecoveredAsks> recovered GUARDED_BY(mu);
    // Host and rack names the AM blacklisted, and what the pool was last
    // told they resolve to.
    std::set<std::string> blacklist GUARDED_BY(mu);
    std::vector<pool::NodeId> blacklisted_nodes GUARDED_BY(mu);
    std::vector<pool::RackId> blacklisted_racks GUARDED_BY(mu);
  };

  Result<rm::ApplicationAttemptId> AttemptOf(const ipc::ConnectionIdentity& who) const;
  std::shared_ptr<AttemptState> StateOf(const rm::ApplicationAttemptId& attempt, bool create);
  // Applies a blacklist update and tells the pool what the names resolve to
  // now (hosts that registered since count too).
  Status UpdateBlacklist(const hadoop::yarn::ResourceBlacklistRequestProto& update,
                         pool::AppId pool_app, AttemptState* state) REQUIRES(state->mu);
  AskKey KeyOf(const hadoop::yarn::ResourceRequestProto& ask) const;
  static AskKey GrantKey(const hadoop::yarn::ContainerProto& container);
  bool PlacementsHeld() const;
  // Applies the recovered caps to the re-sent table (see SetRecoveredAsks).
  void CapResentAsks(AttemptState* state) REQUIRES(state->mu);
  // Keeps the attempt's table for a restarted RM.
  void SaveAsks(const rm::ApplicationAttemptId& attempt, const AttemptState& state)
      REQUIRES(state.mu);
  // The pool asks that the AM's ResourceRequest table amounts to.
  std::vector<pool::Ask> ToPoolAsks(
      const std::map<AskKey, hadoop::yarn::ResourceRequestProto>& asks) const;

  const AmServiceDeps deps_;
  Mutex mu_;
  std::map<rm::ApplicationAttemptId, std::shared_ptr<AttemptState>> attempts_ GUARDED_BY(mu_);
  // SetRecoveredAsks() tables, until their attempt re-registers.
  std::map<rm::ApplicationAttemptId, RecoveredAsks> recovered_asks_ GUARDED_BY(mu_);
};

}  // namespace spindle::am_protocol
