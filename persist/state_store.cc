#include "persist/state_store.h"

#include <string>

namespace spindle::persist {

const char* ClusterFieldName(ClusterField field) {
  switch (field) {
    case ClusterField::kClusterTimestamp:
      return "cluster_timestamp";
    case ClusterField::kAppIdCounter:
      return "app_id_counter";
    case ClusterField::kEpoch:
      return "epoch";
    case ClusterField::kQueueConfigVersion:
      return "queue_config_version";
    case ClusterField::kDelegationTokenSequence:
      return "delegation_token_sequence";
  }
  return "";
}

void StoreBatch::PutApplication(std::string_view app_id, std::string_view bytes) {
  ops_.push_back(
      {Kind::kApplication, OpType::kPut, std::string(app_id), {}, 0, std::string(bytes)});
}

void StoreBatch::RemoveApplication(std::string_view app_id) {
  ops_.push_back({Kind::kApplication, OpType::kRemoveApplication, std::string(app_id), {}, 0, {}});
}

void StoreBatch::PutAttempt(std::string_view app_id, std::string_view attempt_id,
                            std::string_view bytes) {
  ops_.push_back({Kind::kAttempt, OpType::kPut, std::string(app_id), std::string(attempt_id), 0,
                  std::string(bytes)});
}

void StoreBatch::DeleteAttempt(std::string_view app_id, std::string_view attempt_id) {
  ops_.push_back(
      {Kind::kAttempt, OpType::kDelete, std::string(app_id), std::string(attempt_id), 0, {}});
}

void StoreBatch::PutMasterKey(std::string_view family, int64_t key_id, std::string_view bytes) {
  ops_.push_back(
      {Kind::kMasterKey, OpType::kPut, std::string(family), {}, key_id, std::string(bytes)});
}

void StoreBatch::DeleteMasterKey(std::string_view family, int64_t key_id) {
  ops_.push_back({Kind::kMasterKey, OpType::kDelete, std::string(family), {}, key_id, {}});
}

void StoreBatch::SetClusterValue(ClusterField field, int64_t value) {
  ops_.push_back({Kind::kCluster, OpType::kPut, {}, {}, value, {}, field});
}

void StoreBatch::PutNode(std::string_view node_id, std::string_view bytes) {
  ops_.push_back({Kind::kNode, OpType::kPut, std::string(node_id), {}, 0, std::string(bytes)});
}

void StoreBatch::DeleteNode(std::string_view node_id) {
  ops_.push_back({Kind::kNode, OpType::kDelete, std::string(node_id), {}, 0, {}});
}

Status StoreBatch::Validate() const {
  for (size_t i = 0; i < ops_.size(); ++i) {
    const Op& op = ops_[i];
    const std::string where = "state store batch operation " + std::to_string(i) + ": ";
    switch (op.kind) {
      case Kind::kApplication:
      case Kind::kAttempt:
      case Kind::kMasterKey:
        if (op.id.empty()) return Status::InvalidArgument(where + "empty id");
        // '\0' separates the id from the attempt id / key id on disk; an id
        // containing it could alias another application's records.
        if (op.id.find('\0') != std::string::npos) {
          return Status::InvalidArgument(where + "id contains a NUL byte");
        }
        if (op.kind == Kind::kAttempt && op.sub_id.empty()) {
          return Status::InvalidArgument(where + "empty attempt id");
        }
        break;
      case Kind::kNode:
        if (op.id.empty()) return Status::InvalidArgument(where + "empty node id");
        break;
      case Kind::kCluster:
        if (ClusterFieldName(op.field)[0] == '\0') {
          return Status::InvalidArgument(where + "unknown cluster field " +
                                         std::to_string(static_cast<int>(op.field)));
        }
        break;
    }
  }
  return Status::OK();
}

size_t LoadedState::RecordCount() const {
  size_t n = applications.size() + master_keys.size() + cluster.size() + nodes.size();
  for (const auto& [app, by_attempt] : attempts) n += by_attempt.size();
  return n;
}

namespace {
Status ApplyOne(StateStore* store, StoreBatch batch) { return store->Apply(batch); }
}  // namespace

Status StateStore::PutApplication(std::string_view app_id, std::string_view bytes) {
  StoreBatch b;
  b.PutApplication(app_id, bytes);
  return ApplyOne(this, std::move(b));
}

Status StateStore::RemoveApplication(std::string_view app_id) {
  StoreBatch b;
  b.RemoveApplication(app_id);
  return ApplyOne(this, std::move(b));
}

Status StateStore::PutAttempt(std::string_view app_id, std::string_view attempt_id,
                              std::string_view bytes) {
  StoreBatch b;
  b.PutAttempt(app_id, attempt_id, bytes);
  return ApplyOne(this, std::move(b));
}

Status StateStore::DeleteAttempt(std::string_view app_id, std::string_view attempt_id) {
  StoreBatch b;
  b.DeleteAttempt(app_id, attempt_id);
  return ApplyOne(this, std::move(b));
}

Status StateStore::PutMasterKey(std::string_view family, int64_t key_id, std::string_view bytes) {
  StoreBatch b;
  b.PutMasterKey(family, key_id, bytes);
  return ApplyOne(this, std::move(b));
}

Status StateStore::DeleteMasterKey(std::string_view family, int64_t key_id) {
  StoreBatch b;
  b.DeleteMasterKey(family, key_id);
  return ApplyOne(this, std::move(b));
}

Status StateStore::SetClusterValue(ClusterField field, int64_t value) {
  StoreBatch b;
  b.SetClusterValue(field, value);
  return ApplyOne(this, std::move(b));
}

Status StateStore::PutNode(std::string_view node_id, std::string_view bytes) {
  StoreBatch b;
  b.PutNode(node_id, bytes);
  return ApplyOne(this, std::move(b));
}

Status StateStore::DeleteNode(std::string_view node_id) {
  StoreBatch b;
  b.DeleteNode(node_id);
  return ApplyOne(this, std::move(b));
}

}  // namespace spindle::persist
