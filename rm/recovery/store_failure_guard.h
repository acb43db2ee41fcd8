// StoreFailureGuard: what the RM does when its state store cannot persist a
// write (ENOSPC, EIO, a read-only filesystem), as Hadoop's RMStateStore does
// in notifyStoreOperationFailed:
//  - Hadoop 2.6 (ResourceManager.RMFatalEventDispatcher) logs the failure as
//    FATAL and terminates the RM with status 1, whatever the configuration:
//    StoreFailureAction::kExit.
//  - Hadoop 3.3 (ResourceManager.RMFatalEventDispatcher, non-HA,
//    STATE_STORE_OP_FAILED) terminates with status 1 when
//    yarn.resourcemanager.fail-fast (default ${yarn.fail-fast}, false) is
//    true, else logs the failure and keeps running: kExit or kRefuseWrites.
//    The 2.7 line is read the same way (the key catalogue lists the key for
//    2.7; release 2.7.0 itself always terminated).
// Spindle's "keeps running" is a degraded mode: every call that needs a
// write answers an error (a submission fails with java.io.IOException, as
// the ApplicationManager answers a store error), while everything already in
// memory is served as before; the store asks RocksDB to resume at most every
// 5 s on the next write (RocksDbStateStore), so once space returns writes
// succeed again and the RM says so. Nothing that could not be persisted is
// ever acknowledged, in either mode.
//
// Either way the RM logs one line at ERROR with Hadoop's FATAL marker
// (glog's FATAL would abort) naming the store, the cause and what follows,
// once per failure episode; the episode ends with the next successful write.
// Refusals of a batch (InvalidArgument) and calls on a closed store
// (Unavailable) are not store failures. A write refused because another RM
// took the store over (IsStoreFenced, rm/recovery/store_fenced.h: Hadoop's
// StoreFencedException) is not one either: it goes to `fenced` (Hadoop's
// STATE_STORE_FENCED event), once per episode, and the RM leaves the active
// state rather than failing writes.
//
// Thread-safety: thread-safe if the wrapped store is; `exit` may be called
// from any thread that writes, at most once.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "base/mutex.h"
#include "persist/state_store.h"

namespace spindle::rm {

enum class StoreFailureAction { kExit, kRefuseWrites };

class StoreFailureGuard final : public persist::StateStore {
 public:
  // `name` identifies the store in the log ("the state store at <path>").
  StoreFailureGuard(std::unique_ptr<persist::StateStore> store, std::string name,
                    StoreFailureAction action, std::function<void()> exit,
                    std::function<void(const std::string& reason)> fenced = nullptr);

  Status Open() override { return store_->Open(); }
  Status Close() override { return store_->Close(); }
  Result<persist::LoadedState> Load() override { return store_->Load(); }
  Status Apply(const persist::StoreBatch& batch) override;
  Status Format() override { return store_->Format(); }

  // True while writes fail (since the last failure, until a write succeeds).
  bool failing() const EXCLUDES(mu_);

 private:
  const std::unique_ptr<persist::StateStore> store_;
  const std::string name_;
  const StoreFailureAction action_;
  const std::function<void()> exit_;
  const std::function<void(const std::string& reason)> fenced_;
  mutable Mutex mu_;
  bool failing_ GUARDED_BY(mu_) = false;
  bool exit_called_ GUARDED_BY(mu_) = false;
  // `fenced_` was called since the last successful write.
  bool fenced_called_ GUARDED_BY(mu_) = false;
};

}  // namespace spindle::rm
