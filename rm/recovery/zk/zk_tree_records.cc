#include "rm/recovery/zk/zk_tree_records.h"

#include <glog/logging.h>

#include <chrono>
#include <climits>
#include <cstring>
#include <optional>
#include <utility>

#include "persist/zk/zk_error.h"
#include "rm/recovery/app_records.h"
#include "rm/recovery/rm_state.h"
#include "rm/recovery/store_record_names.h"
#include "rm/security/master_key_manager.h"

namespace spindle::rm::zkstore {

using persist::ClusterField;
using persist::StoreBatch;
using zk::ZkOp;

namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::vector<std::string_view> Components(std::string_view relative) {
  std::vector<std::string_view> parts;
  while (!relative.empty()) {
    const size_t slash = relative.find('/');
    parts.push_back(relative.substr(0, slash));
    if (slash == std::string_view::npos) break;
    relative.remove_prefix(slash + 1);
  }
  return parts;
}

// The components of `path` below `root`, or nullopt if it is not below.
std::optional<std::vector<std::string_view>> Below(std::string_view root, std::string_view path) {
  if (path.size() <= root.size() + 1 || !StartsWith(path, root) || path[root.size()] != '/') {
    return std::nullopt;
  }
  return Components(path.substr(root.size() + 1));
}

std::optional<int> SplitIndexName(std::string_view name) {
  if (name.size() == 1 && name[0] >= '1' && name[0] <= '0' + kMaxSplitIndex) return name[0] - '0';
  return std::nullopt;
}

// What one node holds, as a LoadedState entry.
struct RecordRef {
  enum class Kind { kApp, kAttempt, kMasterKey, kCluster, kEpoch, kNode };
  Kind kind;
  std::string id;      // app id, family or node id
  std::string sub_id;  // attempt or record id
  int64_t number = 0;  // key id
  ClusterField field = ClusterField::kClusterTimestamp;
  // Null (or empty) data means "no record" (Hadoop's structural nodes that
  // double as records: the AMRM root, the sequence number).
  bool empty_is_absent = false;
  // Under SpindleRoot/AppRecords or SpindleRoot/Nodes: what a Spindle run
  // kept beside Hadoop's records (zk_store_layout.h: SpindleRoot/Cluster/epoch).
  bool spindle_extra = false;
  // The record is empty and its name says everything (NodeNames): not read.
  bool name_only = false;
};

std::optional<RecordRef> ClassifyHadoop(const ZkStoreLayout& layout, const std::string& path) {
  using Kind = RecordRef::Kind;
  auto parts = Below(layout.root(), path);
  if (!parts) return std::nullopt;
  const auto& p = *parts;
  if (p.size() == 1 && p[0] == store_names::kEpochNode) return RecordRef{Kind::kEpoch, {}, {}, 0};
  if (p.size() == 1 && p[0] == store_names::kAmrmTokenRoot) {
    RecordRef ref{Kind::kMasterKey, AmrmKeyFamily(), {}, 0};
    ref.empty_is_absent = true;
    return ref;
  }
  if (p[0] == store_names::kAppRoot) {
    // RMAppRoot/<app>[/<attempt>] or RMAppRoot/HIERARCHIES/<n>/<head>/<tail>[/<attempt>]
    std::string app;
    size_t next = 0;
    if (p.size() >= 2 && StartsWith(p[1], kAppIdPrefix)) {
      app = std::string(p[1]);
      next = 2;
    } else if (p.size() >= 5 && p[1] == kAppHierarchies && SplitIndexName(p[2]) &&
               StartsWith(p[3], kAppIdPrefix)) {
      app = std::string(p[3]) + std::string(p[4]);
      next = 5;
    } else {
      return std::nullopt;
    }
    if (p.size() == next) return RecordRef{Kind::kApp, app, {}, 0};
    if (p.size() == next + 1 && StartsWith(p[next], kAttemptIdPrefix)) {
      return RecordRef{Kind::kAttempt, app, std::string(p[next]), 0};
    }
    return std::nullopt;
  }
  if (p[0] != store_names::kDtSecretManagerRoot || p.size() < 2) return std::nullopt;
  if (p.size() == 2 && p[1] == kDtSequenceNumber) {
    RecordRef ref{Kind::kCluster, {}, {}, 0, ClusterField::kDelegationTokenSequence};
    ref.empty_is_absent = true;
    return ref;
  }
  if (p.size() == 3 && p[1] == kDtMasterKeysRoot &&
      StartsWith(p[2], store_names::kDelegationKeyPrefix)) {
    auto id = ParseStoredNumber(p[2].substr(std::strlen(store_names::kDelegationKeyPrefix)));
    if (!id) return std::nullopt;
    return RecordRef{Kind::kMasterKey, kDelegationKeysFamily, {}, *id};
  }
  if (p[1] != kDelegationTokensRoot) return std::nullopt;
  std::string name;
  if (p.size() == 3 && StartsWith(p[2], store_names::kDelegationTokenPrefix)) {
    name = std::string(p[2]);
  } else if (p.size() == 5 && SplitIndexName(p[2]) &&
             StartsWith(p[3], store_names::kDelegationTokenPrefix)) {
    name = std::string(p[3]) + std::string(p[4]);
  } else {
    return std::nullopt;
  }
  auto sequence = ParseStoredNumber(
      std::string_view(name).substr(std::strlen(store_names::kDelegationTokenPrefix)));
  if (!sequence) return std::nullopt;
  return RecordRef{Kind::kMasterKey, kDelegationTokensFamily, {}, *sequence};
}

Result<std::optional<RecordRef>> ClassifySpindle(const ZkStoreLayout& layout,
                                                 const std::string& path) {
  using Kind = RecordRef::Kind;
  auto parts = Below(layout.spindle_root(), path);
  if (!parts) return std::optional<RecordRef>();
  const auto& p = *parts;
  auto bad = [&path] { return Status::Corruption("unexpected Spindle store node " + path); };
  if (p.size() == 2 && p[0] == store_names::kSpindleCluster) {
    auto field = ClusterFieldNamed(p[1]);
    if (!field) return bad();
    return std::optional<RecordRef>(RecordRef{Kind::kCluster, {}, {}, 0, *field});
  }
  if (p.size() == 2 && p[0] == store_names::kSpindleNodes) {
    auto id = UnescapeName(p[1]);
    if (!id) return bad();
    RecordRef ref{Kind::kNode, *id, {}, 0};
    ref.spindle_extra = true;
    return std::optional<RecordRef>(std::move(ref));
  }
  if (p.size() == 2 && p[0] == kSpindleNodeNames) {
    auto id = UnescapeName(p[1]);
    if (!id) return bad();
    RecordRef ref{Kind::kNode, *id, {}, 0};
    ref.spindle_extra = true;
    ref.name_only = true;
    return std::optional<RecordRef>(std::move(ref));
  }
  if (p.size() == 3 && p[0] == store_names::kSpindleKeys) {
    auto family = UnescapeName(p[1]);
    auto id = ParseStoredNumber(p[2]);
    if (!family || !id) return bad();
    return std::optional<RecordRef>(RecordRef{Kind::kMasterKey, *family, {}, *id});
  }
  if (p.size() == 3 && p[0] == store_names::kSpindleAppRecords) {
    auto app = UnescapeName(p[1]);
    auto record = UnescapeName(p[2]);
    if (!app || !record) return bad();
    RecordRef ref{Kind::kAttempt, *app, *record, 0};
    ref.spindle_extra = true;
    return std::optional<RecordRef>(std::move(ref));
  }
  return std::optional<RecordRef>();
}

}  // namespace

Result<std::vector<std::string>> ListTree(zk::ZkSession* session,
                                          const std::vector<std::string>& roots,
                                          const std::function<bool(const std::string&)>& is_leaf) {
  std::vector<std::string> all;
  // Every node is added when found (a root when its listing succeeds, any
  // other as a child); only non-leaves are listed in turn.
  std::vector<std::string> to_list = roots;
  bool roots_level = true;
  while (!to_list.empty()) {
    auto children = session->ChildrenMany(to_list);
    std::vector<std::string> next;
    for (size_t i = 0; i < to_list.size(); ++i) {
      if (!children[i].ok()) {
        // A missing root, or a node deleted meanwhile: nothing below.
        if (zk::ZkErrorOf(children[i].status()) == zk::ZkError::kNoNode) continue;
        return children[i].status();
      }
      if (roots_level) all.push_back(to_list[i]);
      for (const std::string& name : *children[i]) {
        std::string child = to_list[i] == "/" ? "/" + name : to_list[i] + "/" + name;
        all.push_back(child);
        if (!is_leaf(child)) next.push_back(std::move(child));
      }
    }
    to_list = std::move(next);
    roots_level = false;
  }
  return all;
}

bool IsLeaf(const ZkStoreLayout& layout, const std::string& path) {
  const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
  if (StartsWith(name, kAttemptIdPrefix) || StartsWith(name, store_names::kDelegationKeyPrefix)) {
    return true;
  }
  if (path == layout.epoch_node() || path == layout.version_node() ||
      path == layout.dt_sequence() || path == layout.amrm_root() || path == layout.fencing_lock()) {
    return true;
  }
  if (ParentOf(path) == layout.dt_tokens_root() &&
      StartsWith(name, store_names::kDelegationTokenPrefix)) {
    return true;
  }
  if (auto parts = Below(layout.spindle_root(), path)) {
    const size_t depth = parts->size();
    const std::string_view top = (*parts)[0];
    return ((top == store_names::kSpindleCluster || top == store_names::kSpindleNodes ||
             top == kSpindleNodeNames) &&
            depth >= 2) ||
           ((top == store_names::kSpindleKeys || top == store_names::kSpindleAppRecords) &&
            depth >= 3);
  }
  return false;
}

Result<persist::LoadedState> ReadRecords(zk::ZkSession* session, const ZkStoreLayout& layout,
                                         const std::set<std::string>& index) {
  std::vector<std::string> paths;
  std::vector<RecordRef> refs;
  // Spindle's extras are kept apart until it is known whether the run that
  // wrote them was the last one (zk_store_layout.h: SpindleRoot/Cluster/epoch).
  persist::LoadedState extras;
  size_t name_only = 0;
  for (const std::string& path : index) {
    std::optional<RecordRef> ref = ClassifyHadoop(layout, path);
    if (!ref) {
      ASSIGN_OR_RETURN(ref, ClassifySpindle(layout, path));
    }
    if (!ref) continue;
    if (ref->name_only) {
      extras.nodes[ref->id] = "";
      ++name_only;
      continue;
    }
    paths.push_back(path);
    refs.push_back(std::move(*ref));
  }
  // What the reads are made of, for the log: a new active serves only after
  // them, so their count is its failover time (bench/wire/README.md).
  std::map<std::string, size_t> counts;
  for (const RecordRef& ref : refs) {
    using Kind = RecordRef::Kind;
    const char* what = "other";
    switch (ref.kind) {
      case Kind::kApp:
        what = "applications";
        break;
      case Kind::kAttempt:
        what = !ref.spindle_extra                    ? "attempts"
               : ParseAttemptRowRecordId(ref.sub_id) ? "attempt rows"
               : IsAsksRecordId(ref.sub_id)          ? "asks"
                                                     : "attempts (Spindle)";
        break;
      case Kind::kMasterKey:
        what = "keys and tokens";
        break;
      case Kind::kNode:
        what = "nodes";
        break;
      case Kind::kCluster:
      case Kind::kEpoch:
        what = "cluster";
        break;
    }
    ++counts[what];
  }
  const auto started = std::chrono::steady_clock::now();
  auto nodes = session->GetMany(paths);
  {
    std::string split;
    for (const auto& [what, count] : counts) {
      split += (split.empty() ? "" : ", ") + std::to_string(count) + " " + what;
    }
    LOG(INFO) << "ZooKeeper store: read " << paths.size() << " znodes (" << split << "; "
              << name_only << " nodes by name alone) in "
              << std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - started)
                     .count()
              << " ms";
  }
  persist::LoadedState state;
  std::optional<int64_t> spindle_epoch;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!nodes[i].ok()) {
      if (zk::ZkErrorOf(nodes[i].status()) == zk::ZkError::kNoNode) continue;
      return nodes[i].status();
    }
    std::string& data = nodes[i]->data;
    const RecordRef& ref = refs[i];
    if (ref.empty_is_absent && data.empty()) continue;
    auto corrupt = [&](const Status& s) { return s.WithContext(paths[i] + ": "); };
    using Kind = RecordRef::Kind;
    switch (ref.kind) {
      case Kind::kApp:
        state.applications[ref.id] = std::move(data);
        break;
      case Kind::kAttempt:
        (ref.spindle_extra ? extras : state).attempts[ref.id][ref.sub_id] = std::move(data);
        break;
      case Kind::kMasterKey:
        state.master_keys[{ref.id, ref.number}] = std::move(data);
        break;
      case Kind::kNode:
        extras.nodes[ref.id] = std::move(data);
        break;
      case Kind::kEpoch: {
        auto epoch = DecodeEpochNode(data);
        if (!epoch.ok()) return corrupt(epoch.status());
        state.cluster[ClusterField::kEpoch] = *epoch;
        break;
      }
      case Kind::kCluster: {
        if (ref.field == ClusterField::kDelegationTokenSequence) {
          auto sequence = DecodeInt32(data);
          if (!sequence.ok()) return corrupt(sequence.status());
          state.cluster[ref.field] = *sequence;
        } else {
          auto value = DecodeInt64(data);
          if (!value.ok()) return corrupt(value.status());
          if (ref.field == ClusterField::kEpoch) {
            spindle_epoch = *value;  // SpindleRoot's copy; EpochNode is the epoch
          } else {
            state.cluster[ref.field] = *value;
          }
        }
        break;
      }
    }
  }
  auto epoch = state.cluster.find(ClusterField::kEpoch);
  if (spindle_epoch.has_value() && epoch != state.cluster.end() &&
      epoch->second != *spindle_epoch) {
    // Another RM (a Java one) started on the tree after the Spindle run that
    // wrote the extras: the asks and rows it kept for attempts, and its node
    // list, describe a cluster that has moved on. Dropped, as that RM would
    // have nothing of them; the records themselves are rewritten or removed
    // by this run.
    LOG(WARNING) << "ZooKeeper store: epoch " << epoch->second << " was started by another RM "
                 << "since Spindle's run of epoch " << *spindle_epoch << "; its "
                 << store_names::kSpindleRootName
                 << " application records and node list are not used";
    return state;
  }
  for (auto& [app, records] : extras.attempts) {
    for (auto& [id, bytes] : records) state.attempts[app][id] = std::move(bytes);
  }
  state.nodes = std::move(extras.nodes);
  return state;
}

void TreePlan::ApplyTo(std::set<std::string>* index) const {
  for (const auto& [path, exists] : changes) {
    if (exists) {
      index->insert(path);
    } else {
      index->erase(path);
    }
  }
}

namespace {

// Builds a TreePlan against the index and the plan's own earlier changes.
class Planner {
 public:
  Planner(const ZkStoreLayout& layout, const std::vector<zk::ZkAcl>& acl,
          const std::set<std::string>& index)
      : layout_(layout), acl_(acl), index_(index) {}

  bool Exists(const std::string& path) const {
    auto it = plan_.changes.find(path);
    if (it != plan_.changes.end()) return it->second;
    return index_.count(path) > 0;
  }

  std::vector<std::string> ChildrenOf(const std::string& path) const {
    const std::string prefix = path + "/";
    std::set<std::string> children;
    auto add_if_child = [&](const std::string& candidate) {
      if (!StartsWith(candidate, prefix)) return false;
      if (candidate.find('/', prefix.size()) == std::string::npos) children.insert(candidate);
      return true;
    };
    for (auto it = index_.lower_bound(prefix); it != index_.end() && add_if_child(*it); ++it) {
    }
    for (auto it = plan_.changes.lower_bound(prefix);
         it != plan_.changes.end() && add_if_child(it->first); ++it) {
    }
    std::vector<std::string> out;
    for (const std::string& child : children) {
      if (Exists(child)) out.push_back(child);
    }
    return out;
  }

  void Put(const std::string& path, std::string bytes) {
    if (Exists(path)) {
      plan_.ops.push_back(ZkOp::SetData(path, std::move(bytes)));
    } else {
      EnsureNode(ParentOf(path));
      plan_.ops.push_back(ZkOp::Create(path, std::move(bytes), acl_));
      plan_.changes[path] = true;
    }
  }

  void SetNull(const std::string& path) {
    if (Exists(path)) plan_.ops.push_back(ZkOp::SetNoData(path));
  }

  // Creates `path` and its missing parents without data.
  void EnsureNode(const std::string& path) {
    if (path == "/" || Exists(path)) return;
    EnsureNode(ParentOf(path));
    plan_.ops.push_back(ZkOp::CreateWithoutData(path, acl_));
    plan_.changes[path] = true;
  }

  void Delete(const std::string& path) {
    if (!Exists(path)) return;
    plan_.ops.push_back(ZkOp::Delete(path));
    plan_.changes[path] = false;
  }

  // Children first, then the node: how the Java RM removes an application.
  void DeleteTree(const std::string& path) {
    if (!Exists(path)) return;
    for (const std::string& child : ChildrenOf(path)) DeleteTree(child);
    Delete(path);
  }

  // 3.3's checkRemoveParentZnode.
  void DeleteIfEmpty(const std::string& path) {
    if (Exists(path) && ChildrenOf(path).empty()) Delete(path);
  }

  // Where the application's node is (any layout), or where a new one goes.
  std::pair<std::string, int> AppNode(const std::string& app) const {
    const int configured = layout_.app_split_index();
    if (std::string path = layout_.AppPath(app, configured); Exists(path))
      return {path, configured};
    for (int split = 0; split <= kMaxSplitIndex; ++split) {
      if (split == configured) continue;
      if (std::string path = layout_.AppPath(app, split); Exists(path)) return {path, split};
    }
    return {layout_.AppPath(app, configured), configured};
  }

  std::pair<std::string, int> TokenNode(int64_t sequence) const {
    const int configured = layout_.token_split_index();
    if (std::string path = layout_.TokenPath(sequence, configured); Exists(path)) {
      return {path, configured};
    }
    for (int split = 0; split <= kMaxSplitIndex; ++split) {
      if (split == configured) continue;
      if (std::string path = layout_.TokenPath(sequence, split); Exists(path)) return {path, split};
    }
    return {layout_.TokenPath(sequence, configured), configured};
  }

  std::string SpindleAppNode(const std::string& app) const {
    return layout_.SpindleAppRecords() + "/" + EscapeName(app);
  }
  std::string SpindleKeyFamily(const std::string& family) const {
    return layout_.SpindleKeys() + "/" + EscapeName(family);
  }

  Status Add(const StoreBatch::Op& op) {
    using Kind = StoreBatch::Kind;
    using Type = StoreBatch::OpType;
    const bool put = op.type == Type::kPut;
    switch (op.kind) {
      case Kind::kApplication: {
        auto [path, split] = AppNode(op.id);
        if (put) {
          Put(path, op.value);
          return Status::OK();
        }
        DeleteTree(path);
        if (split != 0) DeleteIfEmpty(ParentOf(path));
        DeleteTree(SpindleAppNode(op.id));
        return Status::OK();
      }
      case Kind::kAttempt: {
        const std::string app_path = AppNode(op.id).first;
        const std::string spindle_path = SpindleAppNode(op.id) + "/" + EscapeName(op.sub_id);
        const bool in_hadoop_tree = IsHadoopAttemptId(op.sub_id);
        if (!put) {
          if (in_hadoop_tree) Delete(app_path + "/" + op.sub_id);
          Delete(spindle_path);
          return Status::OK();
        }
        // A Java RM reads attempts under their application's node only; an
        // attempt stored before its application waits under SpindleRoot.
        if (in_hadoop_tree && Exists(app_path)) {
          Put(app_path + "/" + op.sub_id, op.value);
          Delete(spindle_path);
        } else {
          Put(spindle_path, op.value);
        }
        return Status::OK();
      }
      case Kind::kMasterKey:
        return AddMasterKey(op, put);
      case Kind::kCluster:
        return AddCluster(op);
      case Kind::kNode: {
        const std::string with_data = layout_.SpindleNodes() + "/" + EscapeName(op.id);
        const std::string by_name = layout_.SpindleNodeNames() + "/" + EscapeName(op.id);
        if (put && op.value.empty()) {
          // Its name is the record: Load need not read it.
          Delete(with_data);
          if (!Exists(by_name)) Put(by_name, "");
        } else if (put) {
          Delete(by_name);
          Put(with_data, op.value);
        } else {
          Delete(with_data);
          Delete(by_name);
        }
        return Status::OK();
      }
    }
    return Status::InvalidArgument("unknown store operation");
  }

  TreePlan Take() { return std::move(plan_); }

 private:
  Status AddMasterKey(const StoreBatch::Op& op, bool put) {
    if (op.id == AmrmKeyFamily() && op.number == 0) {
      if (put) {
        Put(layout_.amrm_root(), op.value);
      } else {
        SetNull(layout_.amrm_root());  // the node is structure: it stays
      }
    } else if (op.id == kDelegationKeysFamily) {
      const std::string path = layout_.DelegationKeyPath(op.number);
      if (put) {
        Put(path, op.value);
      } else {
        Delete(path);
      }
    } else if (op.id == kDelegationTokensFamily) {
      auto [path, split] = TokenNode(op.number);
      if (put) {
        Put(path, op.value);
      } else {
        Delete(path);
        if (split != 0) DeleteIfEmpty(ParentOf(path));
      }
    } else {
      const std::string path = SpindleKeyFamily(op.id) + "/" + std::to_string(op.number);
      if (put) {
        Put(path, op.value);
      } else {
        Delete(path);
      }
    }
    return Status::OK();
  }

  Status AddCluster(const StoreBatch::Op& op) {
    switch (op.field) {
      case ClusterField::kEpoch:
        Put(layout_.epoch_node(), EncodeEpochNode(op.number));
        // Spindle's own copy tells, at the next load, whether another RM
        // started on the tree since (ReadRecords).
        Put(layout_.SpindleCluster() + "/" + persist::ClusterFieldName(op.field),
            EncodeInt64(op.number));
        return Status::OK();
      case ClusterField::kDelegationTokenSequence:
        if (op.number < INT32_MIN || op.number > INT32_MAX) {
          return Status::InvalidArgument("delegation token sequence number " +
                                         std::to_string(op.number) + " does not fit an int");
        }
        Put(layout_.dt_sequence(), EncodeInt32(static_cast<int32_t>(op.number)));
        return Status::OK();
      default:
        Put(layout_.SpindleCluster() + "/" + persist::ClusterFieldName(op.field),
            EncodeInt64(op.number));
        return Status::OK();
    }
  }

  const ZkStoreLayout& layout_;
  const std::vector<zk::ZkAcl>& acl_;
  const std::set<std::string>& index_;
  TreePlan plan_;
};

}  // namespace

Result<TreePlan> PlanBatch(const ZkStoreLayout& layout, const std::vector<zk::ZkAcl>& acl,
                           const std::set<std::string>& index, const StoreBatch& batch) {
  Planner planner(layout, acl, index);
  for (const StoreBatch::Op& op : batch.ops()) RETURN_NOT_OK(planner.Add(op));
  return planner.Take();
}

}  // namespace spindle::rm::zkstore
