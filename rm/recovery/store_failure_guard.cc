#include "rm/recovery/store_failure_guard.h"

#include <glog/logging.h>

#include <utility>

#include "rm/recovery/store_fenced.h"

namespace spindle::rm {

StoreFailureGuard::StoreFailureGuard(std::unique_ptr<persist::StateStore> store, std::string name,
                                     StoreFailureAction action, std::function<void()> exit,
                                     std::function<void(const std::string& reason)> fenced)
    : store_(std::move(store)),
      name_(std::move(name)),
      action_(action),
      exit_(std::move(exit)),
      fenced_(std::move(fenced)) {}

bool StoreFailureGuard::failing() const {
  MutexLock lock(&mu_);
  return failing_;
}

Status StoreFailureGuard::Apply(const persist::StoreBatch& batch) {
  const Status status = store_->Apply(batch);
  if (IsStoreFenced(status)) {
    bool first = false;
    {
      MutexLock lock(&mu_);
      first = !fenced_called_;
      fenced_called_ = true;
    }
    if (first) {
      LOG(ERROR) << name_ << " is fenced: " << status.message()
                 << "; this RM is no longer the active one";
      if (fenced_) fenced_(status.message());
    }
    return status;
  }
  const bool store_failure = !status.ok() && status.code() != Status::Code::kInvalidArgument &&
                             status.code() != Status::Code::kUnavailable;
  bool call_exit = false;
  {
    MutexLock lock(&mu_);
    if (status.ok()) {
      if (failing_) LOG(INFO) << name_ << " accepts writes again: the RM writes as before";
      failing_ = false;
      fenced_called_ = false;
      return status;
    }
    if (!store_failure || failing_) return status;
    failing_ = true;
    if (action_ == StoreFailureAction::kExit) {
      LOG(ERROR) << "FATAL: " << name_ << " failed to persist a write (" << status.message()
                 << "); shutting down the ResourceManager with status 1 (Hadoop's fail-fast: "
                    "yarn.resourcemanager.fail-fast, always on the 2.6 line)";
      call_exit = !exit_called_;
      exit_called_ = true;
    } else {
      LOG(ERROR) << "FATAL: " << name_ << " failed to persist a write (" << status.message()
                 << "); every call that must be persisted (submissions, kills, attempts) now "
                    "fails until the store accepts writes again (re-checked every 5 s); "
                    "reads are served (yarn.resourcemanager.fail-fast is off)";
    }
  }
  if (call_exit && exit_) exit_();
  return status;
}

}  // namespace spindle::rm
