#include "persist/memory_state_store.h"

#include <utility>

namespace spindle::persist {

namespace {
Status NotOpen() { return Status::Unavailable("memory state store is not open"); }
}  // namespace

Status MemoryStateStore::Open() {
  MutexLock lock(&mu_);
  open_ = true;
  return Status::OK();
}

Status MemoryStateStore::Close() {
  MutexLock lock(&mu_);
  open_ = false;
  return Status::OK();
}

Result<LoadedState> MemoryStateStore::Load() {
  MutexLock lock(&mu_);
  if (!open_) return NotOpen();
  return state_;
}

Status MemoryStateStore::Apply(const StoreBatch& batch) {
  // Validation is the only way a batch can fail, so validating first makes
  // the update all-or-nothing.
  RETURN_NOT_OK(batch.Validate());
  MutexLock lock(&mu_);
  if (!open_) return NotOpen();
  using Kind = StoreBatch::Kind;
  using OpType = StoreBatch::OpType;
  for (const StoreBatch::Op& op : batch.ops()) {
    switch (op.kind) {
      case Kind::kApplication:
        if (op.type == OpType::kPut) {
          state_.applications[op.id] = op.value;
        } else {
          state_.applications.erase(op.id);
          state_.attempts.erase(op.id);
        }
        break;
      case Kind::kAttempt:
        if (op.type == OpType::kPut) {
          state_.attempts[op.id][op.sub_id] = op.value;
        } else if (auto it = state_.attempts.find(op.id); it != state_.attempts.end()) {
          it->second.erase(op.sub_id);
          // Keep LoadedState identical to what a disk store would load.
          if (it->second.empty()) state_.attempts.erase(it);
        }
        break;
      case Kind::kMasterKey:
        if (op.type == OpType::kPut) {
          state_.master_keys[{op.id, op.number}] = op.value;
        } else {
          state_.master_keys.erase({op.id, op.number});
        }
        break;
      case Kind::kCluster:
        state_.cluster[op.field] = op.number;
        break;
      case Kind::kNode:
        if (op.type == OpType::kPut) {
          state_.nodes[op.id] = op.value;
        } else {
          state_.nodes.erase(op.id);
        }
        break;
    }
  }
  return Status::OK();
}

Status MemoryStateStore::Format() {
  MutexLock lock(&mu_);
  state_ = LoadedState();
  return Status::OK();
}

}  // namespace spindle::persist
