#include "rm/recovery/rm_state.h"

#include <glog/logging.h>

#include <algorithm>

#include "rm/recovery/app_records.h"
#include "rm/recovery/node_labels_record.h"
#include "yarn_server_resourcemanager_recovery.pb.h"

namespace spindle::rm {

namespace y = hadoop::yarn;

namespace {

constexpr KeyFamily kKeyFamilies[] = {KeyFamily::kContainerTokens, KeyFamily::kNmTokens,
                                      KeyFamily::kAmrmTokens};

void ToProto(const MasterKey& key, y::MasterKeyProto* proto) {
  proto->set_key_id(key.key_id);
  proto->set_bytes(key.bytes);
}

MasterKey FromProto(const y::MasterKeyProto& proto) { return {proto.key_id(), proto.bytes()}; }

Status DecodeDelegationTokens(const persist::LoadedState& loaded, RecoveredRmState* state) {
  RmDelegationTokenState tokens;
  bool any = false;
  for (const auto& [where, bytes] : loaded.master_keys) {
    const auto& [family, id] = where;
    if (family == kDelegationKeysFamily) {
      auto key = DecodeDelegationKeyRecord(bytes);
      if (!key.ok())
        return key.status().WithContext("RM delegation key " + std::to_string(id) + ": ");
      tokens.keys.push_back(std::move(key).value());
      any = true;
    } else if (family == kDelegationTokensFamily) {
      auto token = DecodeDelegationTokenRecord(bytes);
      if (!token.ok()) {
        return token.status().WithContext("RM delegation token " + std::to_string(id) + ": ");
      }
      tokens.tokens.push_back(std::move(token).value());
      any = true;
    }
  }
  auto sequence = loaded.cluster.find(persist::ClusterField::kDelegationTokenSequence);
  if (sequence != loaded.cluster.end()) {
    tokens.sequence_number = static_cast<int32_t>(sequence->second);
    any = true;
  }
  if (any) state->delegation_tokens = std::move(tokens);
  return Status::OK();
}

}  // namespace

std::string EncodeKeyState(const KeyState& keys) {
  y::AMRMTokenSecretManagerStateProto proto;
  ToProto(keys.current, proto.mutable_current_master_key());
  if (keys.next.has_value()) ToProto(*keys.next, proto.mutable_next_master_key());
  return proto.SerializeAsString();
}

Result<KeyState> DecodeKeyState(const std::string& bytes) {
  y::AMRMTokenSecretManagerStateProto proto;
  if (!proto.ParseFromString(bytes) || !proto.has_current_master_key() ||
      proto.current_master_key().bytes().empty()) {
    return Status::Corruption("master key record has no current key");
  }
  KeyState keys;
  keys.current = FromProto(proto.current_master_key());
  if (proto.has_next_master_key()) keys.next = FromProto(proto.next_master_key());
  return keys;
}

void PutKeyState(KeyFamily family, const KeyState& keys, persist::StoreBatch* batch) {
  batch->PutMasterKey(KeyFamilyName(family), 0, EncodeKeyState(keys));
}

Result<RecoveredRmState> DecodeRmState(const persist::LoadedState& loaded) {
  using persist::ClusterField;
  RecoveredRmState state;
  if (auto it = loaded.cluster.find(ClusterField::kClusterTimestamp); it != loaded.cluster.end()) {
    state.cluster_timestamp = it->second;
  }
  if (auto it = loaded.cluster.find(ClusterField::kEpoch); it != loaded.cluster.end()) {
    state.epoch = it->second;
    state.epoch_stored = true;
  }
  if (auto it = loaded.cluster.find(ClusterField::kQueueConfigVersion);
      it != loaded.cluster.end()) {
    state.queue_config_version = it->second;
  }
  if (auto it = loaded.cluster.find(ClusterField::kAppIdCounter); it != loaded.cluster.end()) {
    if (it->second < 0 || it->second > INT32_MAX) {
      return Status::Corruption("stored application id counter " + std::to_string(it->second) +
                                " is out of range");
    }
    state.last_app_id = static_cast<int32_t>(it->second);
  }
  state.apps.reserve(loaded.applications.size());
  for (const auto& [id, bytes] : loaded.applications) {
    auto app = DecodeAppRecord(bytes);
    if (!app.ok()) return Status::Corruption("application " + id + ": " + app.status().message());
    if (app->submission.id.ToString() != id) {
      return Status::Corruption("application record under " + id + " is for " +
                                app->submission.id.ToString());
    }
    auto attempts = loaded.attempts.find(id);
    if (attempts != loaded.attempts.end()) {
      for (const auto& [attempt_id, attempt_bytes] : attempts->second) {
        if (auto row = ParseAttemptRowRecordId(attempt_id)) {
          auto owner = ApplicationAttemptId::Parse(row->attempt);
          if (!owner.ok() || owner->app != app->submission.id) {
            return Status::Corruption("attempt row " + attempt_id + " is not of application " + id);
          }
          state.attempt_rows[*owner][row->key] = attempt_bytes;
          continue;
        }
        if (IsAsksRecordId(attempt_id)) {
          auto owner = ApplicationAttemptId::Parse(
              std::string_view(attempt_id).substr(0, attempt_id.rfind('/')));
          if (!owner.ok() || owner->app != app->submission.id) {
            return Status::Corruption("asks record " + attempt_id + " is not of application " + id);
          }
          state.asks[*owner] = attempt_bytes;
          continue;
        }
        auto attempt = DecodeAttemptRecord(attempt_bytes);
        if (!attempt.ok()) {
          return Status::Corruption("attempt " + attempt_id + ": " + attempt.status().message());
        }
        if (attempt->id.app != app->submission.id) {
          return Status::Corruption("attempt record " + attempt_id + " is not of application " +
                                    id);
        }
        app->attempts.push_back(std::move(attempt).value());
      }
      std::sort(app->attempts.begin(), app->attempts.end(),
                [](const RmAttempt& a, const RmAttempt& b) { return a.id < b.id; });
    }
    if (app->final_status == FinalStatus::kUndefined && app->state != AppState::kNew &&
        IsHadoopAppRecord(bytes)) {
      ResolveHadoopFinalStatus(&*app);
    }
    state.apps.push_back(std::move(app).value());
  }
  for (KeyFamily family : kKeyFamilies) {
    auto it = loaded.master_keys.find({KeyFamilyName(family), 0});
    if (it == loaded.master_keys.end()) continue;
    auto keys = DecodeKeyState(it->second);
    if (!keys.ok()) {
      return Status::Corruption(std::string(KeyFamilyName(family)) + ": " +
                                keys.status().message());
    }
    state.keys[family] = std::move(keys).value();
  }
  for (const auto& [node, bytes] : loaded.nodes) state.nodes.insert(node);
  RETURN_NOT_OK(DecodeDelegationTokens(loaded, &state));
  if (auto labels = loaded.master_keys.find({kNodeLabelsFamily, 0});
      labels != loaded.master_keys.end()) {
    ASSIGN_OR_RETURN(state.node_labels, DecodeNodeLabels(labels->second));
  }
  return state;
}

RmDelegationTokenListener StoringDelegationTokenListener(persist::StateStore* store) {
  auto apply = [store](const persist::StoreBatch& batch, const char* what) {
    Status saved = store->Apply(batch);
    if (!saved.ok()) LOG(ERROR) << "cannot store " << what << ": " << saved.ToString();
  };
  RmDelegationTokenListener listener;
  listener.key_stored = [apply](const DelegationKeyRecord& key) {
    persist::StoreBatch batch;
    batch.PutMasterKey(kDelegationKeysFamily, key.key_id, EncodeDelegationKeyRecord(key));
    apply(batch, "an RM delegation key");
  };
  listener.key_removed = [apply](int32_t key_id) {
    persist::StoreBatch batch;
    batch.DeleteMasterKey(kDelegationKeysFamily, key_id);
    apply(batch, "the removal of an RM delegation key");
  };
  listener.token_stored = [apply](const DelegationTokenRecord& token) {
    persist::StoreBatch batch;
    batch.PutMasterKey(kDelegationTokensFamily, token.identifier.sequence_number,
                       EncodeDelegationTokenRecord(token));
    apply(batch, "an RM delegation token");
  };
  listener.token_removed = [apply](const RmDelegationTokenIdentifier& identifier) {
    persist::StoreBatch batch;
    batch.DeleteMasterKey(kDelegationTokensFamily, identifier.sequence_number);
    apply(batch, "the removal of an RM delegation token");
  };
  listener.sequence_changed = [apply](int32_t sequence) {
    persist::StoreBatch batch;
    batch.SetClusterValue(persist::ClusterField::kDelegationTokenSequence, sequence);
    apply(batch, "the RM delegation token sequence");
  };
  return listener;
}

}  // namespace spindle::rm
