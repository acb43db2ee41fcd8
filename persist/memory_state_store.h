// MemoryStateStore: a StateStore kept in process memory, for tests of the RM
// (restart is Close() then Open() on the same object: the records survive,
// as they would on disk). Nothing is durable across processes.
//
// Thread-safety: all methods are thread-safe (one mutex; each call holds it
// for its whole duration, which makes every batch atomic).
#pragma once

#include "base/mutex.h"
#include "persist/state_store.h"

namespace spindle::persist {

class MemoryStateStore final : public StateStore {
 public:
  MemoryStateStore() = default;
  MemoryStateStore(const MemoryStateStore&) = delete;
  MemoryStateStore& operator=(const MemoryStateStore&) = delete;

  Status Open() override;
  Status Close() override;
  Result<LoadedState> Load() override;
  Status Apply(const StoreBatch& batch) override;
  Status Format() override;

 private:
  Mutex mu_;
  bool open_ GUARDED_BY(mu_) = false;
  LoadedState state_ GUARDED_BY(mu_);
};

}  // namespace spindle::persist
