// AttemptAllocator: the RM core's side of ApplicationMasterProtocol --
// register, allocate and finish of an AM attempt in plain values (the wire
// handler, am_protocol/am_service, only decodes and encodes).
//
// Per attempt it keeps the AM's ask table (rm::AskTable, AppSchedulingInfo
// rules) and blacklist, the last answer (a repeated responseId gets it
// again, rm/core/allocate_rules.h) and, after an RM restart, the caps on the
// re-sent table. Allocate validates the call, applies releases, asks and
// blacklist to the pool, hands out what the pool committed since the last
// call as containers with container tokens (and NM tokens for nodes new to
// the attempt), reports completed containers, headroom and the cluster's
// node count, renews the AMRM token when its key rolled, and keeps the
// table in the AppStore for a restarted RM.
//
// Errors are Status::Remote with the Hadoop exception class a client
// expects (rm/yarn_exceptions.h).
//
// Thread contract: all methods are thread-safe. One attempt's calls are
// serialised by its own mutex (an AM has one allocate in flight anyway);
// the attempt map is behind mu_. No call holds both at once; the
// registries and the pool take their own locks.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/apps/app_manager.h"
#include "rm/config/hadoop_line.h"
#include "rm/containers/container_registry.h"
#include "rm/core/ask_partitions.h"
#include "rm/core/preemption_message.h"
#include "rm/core/stored_ask_rows.h"
#include "rm/nodes/node_registry.h"
#include "rm/scheduling/ask_table.h"
#include "rm/security/amrm_token_secret_manager.h"
#include "rm/security/client_to_am_token_secret_manager.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/nm_token_secret_manager.h"
#include "rm/security/token.h"

namespace spindle::rm {

struct AttemptAllocatorDeps {
  ApplicationManager* apps = nullptr;
  NodeRegistry* nodes = nullptr;
  ContainerRegistry* containers = nullptr;
  pool::SchedulerPool* pool = nullptr;
  AmrmTokenSecretManager* amrm_tokens = nullptr;
  const ContainerTokenSecretManager* container_tokens = nullptr;
  NmTokenSecretManager* nm_tokens = nullptr;
  // Secure mode only (null: registration hands out no ClientToAM key).
  const ClientToAmTokenSecretManager* client_to_am_tokens = nullptr;
  const Clock* clock = nullptr;
  // The service a token for a node's ContainerManager names (Hadoop's
  // SecurityUtil.buildTokenService: "IP:port"); the wire resolves it.
  // Required.
  std::function<std::string(const NodeId&)> token_service;
  // Where each live attempt's outstanding asks are kept for a restarted RM
  // (may be null: nothing is kept).
  AppStore* store = nullptr;
  // True while new placements wait after an RM restart (may be null: never).
  std::function<bool()> placements_held;
  // The Hadoop line's allocate checks (spindle.compat.hadoop-version).
  // Default: the newest line's.
  AmProtocolRules rules = TraitsOf(kDefaultHadoopLine).am_rules;
  // The queue tree and the cluster's node labels: what the label
  // expressions of asks resolve against (ask_partitions.h). Required.
  const QueueManager* queues = nullptr;
  const NodeLabels* node_labels = nullptr;
  // What the preemption monitor asks of the attempt since its last answer
  // (may be null: nothing, the monitor is off).
  std::function<std::optional<PreemptionMessage>(const ApplicationAttemptId&)> take_preemption;
};

// A container update (resize, promote, demote; Hadoop 2.8+).
struct ContainerUpdateRequest {
  ContainerId container_id;
  int32_t container_version = 0;
  // The request as the AM sent it, echoed in its error (opaque here).
  std::string echo;
};

// Why an update was not done (RMServerUtils' words).
struct ContainerUpdateError {
  std::string reason;
  std::string echo;  // the request's
  std::optional<int32_t> current_container_version;
};

struct AllocateRequest {
  int32_t response_id = 0;
  float progress = 0;
  std::vector<ResourceRequest> asks;
  std::vector<ContainerId> releases;
  std::vector<std::string> blacklist_additions;
  std::vector<std::string> blacklist_removals;
  std::vector<ContainerUpdateRequest> update_requests;
  // The identifier of the AMRM token the caller authenticated with (a new
  // token is handed out once its key is no longer current).
  std::string amrm_token_identifier;
};

struct AllocatedContainer {
  ContainerId id;
  NodeId node;
  std::string node_http_address;
  pool::Resource resource;
  int32_t priority = 0;
  int64_t allocation_request_id = -1;
  Token container_token;
  // The pool's commit behind the container (its pool node, locality, commit
  // time), read-only for in-process AMs: the wind tunnel's delays are
  // ask -> commit. The wire sends none of it.
  pool::Placement placement;
};

struct AllocateResponse {
  int32_t response_id = 0;
  std::vector<AllocatedContainer> allocated;
  std::vector<NmTokenSecretManager::NodeToken> nm_tokens;
  // Never the AM's own container.
  std::vector<CompletedContainer> completed;
  pool::Resource headroom;
  int32_t num_cluster_nodes = 0;
  std::optional<Token> amrm_token;
  std::vector<ContainerUpdateError> update_errors;
  std::optional<PreemptionMessage> preemption;
  // The application's priority: Hadoop 3's DefaultAMSProcessor sets it on
  // every answer, and MapReduce's allocators read it unchecked.
  int32_t application_priority = 0;
};

struct RegisterResponse {
  pool::Resource maximum_capability;
  // The app's queue, and its submission context bytes (the AM container's
  // ACLs are in them); nullopt and "" if the app is gone.
  std::optional<std::string> queue;
  std::string submission_context;
  // Secure mode: the attempt's ClientToAMToken master key, for the AM to
  // check the tokens its clients bring (Hadoop's registerApplicationMaster
  // under isSecurityEnabled). nullopt with security off, or if the attempt
  // has no registered key.
  std::optional<std::string> client_to_am_token_master_key;
};

// ApplicationMasterProtocol's three calls as the wire handler
// (am_protocol/am_service) makes them: an activation's AttemptAllocator
// answers them, and the ResourceManager forwards them to the current
// activation (StandbyException while standby), so the AM port outlives
// activations.
class AttemptProtocol {
 public:
  virtual ~AttemptProtocol() = default;
  virtual Result<RegisterResponse> Register(const ApplicationAttemptId& attempt,
                                            const std::string& host, int32_t rpc_port,
                                            const std::string& tracking_url) = 0;
  virtual Result<std::shared_ptr<const AllocateResponse>> Allocate(
      const ApplicationAttemptId& attempt, const AllocateRequest& request) = 0;
  virtual Result<bool> Finish(const ApplicationAttemptId& attempt, FinalStatus final_status,
                              const std::string& diagnostics, const std::string& tracking_url) = 0;
};

class AttemptAllocator final : public AttemptProtocol {
 public:
  explicit AttemptAllocator(const AttemptAllocatorDeps& deps);

  // registerApplicationMaster: the attempt starts afresh (empty table,
  // responseId 0). Errors of ApplicationManager::RegisterAm.
  Result<RegisterResponse> Register(const ApplicationAttemptId& attempt, const std::string& host,
                                    int32_t rpc_port, const std::string& tracking_url) override;

  // allocate. The answer is shared with the attempt's state: a repeated
  // responseId gets the same object again -- null when it repeats the
  // registration's (Hadoop's register keeps an empty answer as the last
  // one: the wire sends an empty AllocateResponse). ApplicationMasterNotRegistered
  // for an attempt that did not register with this RM run;
  // InvalidApplicationMasterRequest for a stale responseId;
  // InvalidResourceRequest, InvalidResourceBlacklistRequest,
  // InvalidContainerRelease for bad input (nothing of the call applied
  // except releases before a bad one); errors of AmHeartbeat.
  Result<std::shared_ptr<const AllocateResponse>> Allocate(const ApplicationAttemptId& attempt,
                                                           const AllocateRequest& request) override;

  // finishApplicationMaster: true once unregistered (ApplicationManager::FinishAm).
  Result<bool> Finish(const ApplicationAttemptId& attempt, FinalStatus final_status,
                      const std::string& diagnostics, const std::string& tracking_url) override;

  // Forget an attempt's allocate state once it ended (and its stored asks).
  void AttemptEnded(const ApplicationAttemptId& attempt);

  // RM restart: what live attempts had when the previous run stopped
  // (AppStore::SaveAsks bytes): the RM's ask table, already reduced by what
  // was granted, and the containers granted. An AM that re-registers
  // re-sends its asks; each row is capped by what was still outstanding plus
  // the grants no node reports (lost on the way to the AM, or never
  // started), so that work a recovered container covers is not granted
  // again, whether the AM's own table counts what it received (Hadoop's
  // DistributedShell does not) or not. Call before the service serves.
  void SetRecoveredAsks(const std::map<ApplicationAttemptId, std::string>& asks);
  // The same kept as rows (AppStore::SaveAttemptRows, what this RM writes:
  // see stored_ask_rows.h); an attempt with both takes its rows.
  void SetRecoveredRows(
      const std::map<ApplicationAttemptId, std::map<std::string, std::string>>& rows);

  // Whether what a previous run kept for `attempt` waits for its AM to
  // register again (SetRecoveredAsks / SetRecoveredRows).
  bool HoldsRecoveredAsks(const ApplicationAttemptId& attempt) const EXCLUDES(mu_);

  const ResourceNormalizer& normalizer() const { return normalizer_; }

  // What the attempt's table still asks for (AskTable::Pending); zero for an
  // attempt that is not registered.
  pool::Resource PendingAsks(const ApplicationAttemptId& attempt) const EXCLUDES(mu_);

  // ---- In-process AMs (the wind tunnel) ----
  // The check allocate applies to each ask before anything of the call
  // (SchedulerUtils.validateResourceRequest against the maximum allocation):
  // the error an AM asking `ask` would get. An AM that knows its tasks up
  // front can refuse a job before it submits it.
  Status CheckAsk(const ResourceRequest& ask) const;

 private:
  struct RowKey {
    pool::AskKey key;
    std::string name;
  };
  struct RowKeyLess {
    bool operator()(const RowKey& a, const RowKey& b) const {
      if (AskKeyLess()(a.key, b.key)) return true;
      if (AskKeyLess()(b.key, a.key)) return false;
      return a.name < b.name;
    }
  };
  struct RecoveredAsks {
    std::map<RowKey, int32_t, RowKeyLess> outstanding;
    // Each grant with the key of its row.
    std::vector<std::pair<ContainerId, pool::AskKey>> granted;
    bool resent = false;  // the AM has re-sent its asks
    // The row keys the previous run left (SetRecoveredRows), and whether it
    // left a whole-table record instead (SetRecoveredAsks).
    std::set<std::string> stored_rows;
    bool whole_table_record = false;
  };
  struct AttemptState {
    explicit AttemptState(const ResourceNormalizer& normalizer) : asks(normalizer) {}
    Mutex mu;
    int32_t last_response_id GUARDED_BY(mu) = 0;
    // Null until the first answer (see Allocate).
    std::shared_ptr<const AllocateResponse> last_response GUARDED_BY(mu);
    AskTable asks GUARDED_BY(mu);
    // The attempt's rows in the store.
    StoredAskRows stored GUARDED_BY(mu);
    // A whole-table record of a previous run is still stored: removed with
    // the first rows written.
    bool whole_table_record GUARDED_BY(mu) = false;
    // After an RM restart, until the AM's re-sent asks are capped.
    std::optional<RecoveredAsks> recovered GUARDED_BY(mu);
    // What the pool was last told the blacklist resolves to.
    std::vector<pool::NodeId> blacklisted_nodes GUARDED_BY(mu);
    std::vector<pool::RackId> blacklisted_racks GUARDED_BY(mu);
    // What the app manager was last told of the table asking (OnAsksUpdated).
    bool reported_outstanding GUARDED_BY(mu) = false;
  };
  class RegistryPlaceNames;

  std::shared_ptr<AttemptState> StateOf(const ApplicationAttemptId& attempt) EXCLUDES(mu_);
  // SchedulerUtils' checks of each row, in Hadoop's order; with
  // `partitions`, each row's label checks too, its partition kept there.
  static Status Validate(std::span<const ResourceRequest> asks, const pool::Resource& max,
                         AskPartitions* partitions = nullptr);
  // Tells the pool what the blacklist resolves to now, if that changed.
  Status SyncBlacklist(pool::AppId pool_app, AttemptState* state) REQUIRES(state->mu);
  // Tells the pool what the call changed in the table.
  Status UpdatePoolAsks(pool::AppId pool_app, const AskTable::Changes& changes, bool asked,
                        AttemptState* state) REQUIRES(state->mu);
  // Applies the recovered caps to the re-sent table (see SetRecoveredAsks).
  void CapResentAsks(AttemptState* state) REQUIRES(state->mu);
  // Turns what the pool committed into containers (and NM tokens) for the
  // app's `user` (the container tokens' submitter).
  Status HandOutPlacements(const ApplicationAttemptId& attempt, pool::AppId pool_app,
                           const std::string& user, AttemptState* state, AllocateResponse* response)
      REQUIRES(state->mu);
  // Tells the app manager what the call did to the table's totals (the
  // app's activity in its queue): `idle_totals` are the keys whose ANY row
  // asked for nothing before the call and that the call wrote.
  void ReportAskActivity(const ApplicationAttemptId& attempt,
                         std::span<const pool::AskKey> idle_totals,
                         const AskTable::Changes& changes, const AllocateResponse& response,
                         AttemptState* state) REQUIRES(state->mu);
  // The update errors for a call's container updates.
  void AnswerUpdates(const ApplicationAttemptId& attempt, const AllocateRequest& request,
                     AllocateResponse* response) const;
  // Takes what the previous run left for an attempt.
  void AddRecovered(const AttemptAsksRecord& record, RecoveredAsks* recovered) const;
  // Writes what changed of the attempt's rows for a restarted RM.
  void SaveRows(const ApplicationAttemptId& attempt, AttemptRowChanges changes,
                AttemptState* state) const REQUIRES(state->mu);
  bool PlacementsHeld() const;

  const AttemptAllocatorDeps deps_;
  const ResourceNormalizer normalizer_;
  const std::unique_ptr<const PlaceNames> place_names_;
  mutable Mutex mu_;
  std::map<ApplicationAttemptId, std::shared_ptr<AttemptState>> attempts_ GUARDED_BY(mu_);
  // SetRecoveredAsks() tables, until their attempt re-registers.
  std::map<ApplicationAttemptId, RecoveredAsks> recovered_asks_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
