// ZkRmStateStore: the RM's state store on ZooKeeper, in the znode tree and
// record bytes of Hadoop's ZKRMStateStore (zk_store_layout.h), so that a
// Java RM of the configured line can take over from Spindle and Spindle from
// it. Selected by yarn.resourcemanager.store.class naming ZKRMStateStore
// (zk_store_config.h reads the configuration).
//
// How each record of persist::StateStore is kept:
//   application / attempt    RMAppRoot/<app>[/<attempt>] (any split layout
//                            on read; the configured one for new apps);
//                            records beside attempts (asks, rows) under
//                            SpindleRoot/AppRecords
//   master keys              "am-rm-tokens" -> AMRMTokenSecretManagerRoot,
//                            "rm-delegation-keys" -> DelegationKey_<id>,
//                            "rm-delegation-tokens" -> RMDelegationToken_<seq>,
//                            other families under SpindleRoot/Keys
//   cluster fields           kEpoch -> EpochNode, kDelegationTokenSequence ->
//                            RMDTSequentialNumber, others SpindleRoot/Cluster
//   nodes                    SpindleRoot/Nodes, or SpindleRoot/NodeNames for
//                            an empty record (its name alone, not read)
//
// Fencing, as ZKRMStateStore: with HA on, Open() sets the root's ACL to the
// configured zk-acl less CREATE|DELETE plus CREATE|DELETE for a digest id
// only this store instance holds (or to zk-state-store.root-node.acl when
// set); without HA the 3.3 line sets the root's ACL to zk-acl and 2.x leaves
// it. Every write is one multi: create RM_ZK_FENCING_LOCK, the batch's
// operations, delete the lock. Once another RM has taken the root over, the
// lock's create fails with NoAuth and nothing of the batch is written; with
// HA on such a refusal is StoreFencedStatus (rm/recovery/store_fenced.h),
// Hadoop's StoreFencedException, after which the RM must stop being active.
//
// Retries: an operation that fails for connection loss or an operation
// timeout is retried up to num_retries times, retry_interval apart (Hadoop's
// zk-num-retries / zk-retry-interval-ms); an expired session is replaced by
// a new one (with the same authentications) on the next try. A write whose
// outcome is unknown (the connection dropped after sending it) is planned
// again from a fresh listing of the tree.
//
// Open() also checks RMVersionNode as RMStateStore.checkVersion: absent or
// of the same major version, the line's version is stored; another major
// version is refused (RMStateVersionIncompatibleException).
//
// The store keeps an index of the nodes it manages (listed at Open(),
// updated by each write) to plan writes and Load() without listing the tree
// again: while it is active no other RM writes (fencing), so the index stays
// true. After a failed write the tree is listed again.
//
// Thread-safety: as persist::StateStore; calls are serialised.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "persist/state_store.h"
#include "persist/zk/zk_acl.h"
#include "persist/zk/zk_session.h"
#include "rm/recovery/store_fenced.h"
#include "rm/recovery/zk/zk_store_layout.h"

namespace spindle::rm {

struct ZkStoreOptions {
  // hadoop.zk.address (3.3) / yarn.resourcemanager.zk-address. Required.
  std::string connect_string;
  std::chrono::milliseconds session_timeout{10000};
  // yarn.resourcemanager.zk-state-store.parent-path.
  std::string parent_path = "/rmstore";
  // zk-acl (default world:anyone:rwcda) and zk-auth.
  std::vector<zk::ZkAcl> acl = {zk::WorldAnyone()};
  std::vector<zk::ZkAuth> auths;
  int num_retries = 1000;
  std::chrono::milliseconds retry_interval{1000};
  // 3.3's yarn.resourcemanager.zk-appid-node.split-index and
  // zk-delegation-token-node.split-index (0..4); 0 on 2.x.
  int app_split_index = 0;
  int token_split_index = 0;
  // yarn.resourcemanager.ha.enabled: root-node ACL takeover, NoAuth means
  // fenced.
  bool ha_enabled = false;
  // yarn.resourcemanager.zk-state-store.root-node.acl, if set.
  std::optional<std::vector<zk::ZkAcl>> root_node_acl;
  // The user part of this RM's fencing digest: Hadoop uses the RM's
  // yarn.resourcemanager.address (of its rm-id).
  std::string fencing_user = "0.0.0.0:8032";
  // The 3.3 line's tree (split hierarchies, 1.5) or 2.x's (1.2).
  bool hadoop3 = true;
  zkstore::StoreVersion version{1, 5};
  // How long Open() waits for a session. Default: the session timeout.
  std::chrono::milliseconds connect_timeout{0};
};

class ZkRmStateStore final : public persist::StateStore {
 public:
  explicit ZkRmStateStore(ZkStoreOptions options);
  ~ZkRmStateStore() override;

  Status Open() override EXCLUDES(mu_);
  Status Close() override EXCLUDES(mu_);
  Result<persist::LoadedState> Load() override EXCLUDES(mu_);
  Status Apply(const persist::StoreBatch& batch) override EXCLUDES(mu_);
  // Deletes ZKRMStateRoot and SpindleRoot (taking the root over first with
  // HA on, as a Java RM's -format-state-store does).
  Status Format() override EXCLUDES(mu_);

  // Commits the empty fenced multi: OK while this store may still write
  // (3.3's VerifyActiveStatusThread, for HA without automatic failover).
  Status CheckNotFenced() EXCLUDES(mu_);

  const ZkStoreOptions& options() const { return options_; }
  const zkstore::ZkStoreLayout& layout() const { return layout_; }
  // The ACL Open() puts on the root (HA on), e.g. for tests.
  std::vector<zk::ZkAcl> RootNodeAcl() const;

 private:
  // Serialises every call (declared first: the methods below name it).
  mutable Mutex mu_;

  // Connects (a new session) if there is none or it died.
  Status EnsureSession() REQUIRES(mu_);
  // Runs `op` with Hadoop's retries; reconnects an expired session. Only
  // with mu_ held (asserted: the annotation cannot follow a trailing
  // return type).
  template <typename Op>
  auto WithRetries(Op op) -> decltype(op());
  Status CreateStructure() REQUIRES(mu_);
  Status CheckVersion() REQUIRES(mu_);
  // Lists the managed subtrees into index_ (paths of every node).
  Status Reindex() REQUIRES(mu_);
  Status CommitFenced(const std::vector<zk::ZkOp>& ops) REQUIRES(mu_);
  Status ApplyLocked(const persist::StoreBatch& batch) REQUIRES(mu_);
  Status DeleteTrees() REQUIRES(mu_);
  Status MapFenced(const Status& status) const;

  const ZkStoreOptions options_;
  const zkstore::ZkStoreLayout layout_;
  // "<fencing_user>:<random long>", this instance's fencing identity.
  const std::string fencing_credentials_;

  std::unique_ptr<zk::ZkSession> session_ GUARDED_BY(mu_);
  bool open_ GUARDED_BY(mu_) = false;
  // Set by the first fenced refusal: nothing is written again until the
  // next Open() (Hadoop's isFencedState).
  bool fenced_ GUARDED_BY(mu_) = false;
  std::set<std::string> index_ GUARDED_BY(mu_);
  // Set when a write failed (its outcome may be unknown): the next Load()
  // lists the tree again instead of trusting index_.
  bool index_stale_ GUARDED_BY(mu_) = false;
};

}  // namespace spindle::rm
