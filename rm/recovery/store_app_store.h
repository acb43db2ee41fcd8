// StateStoreAppStore: the ApplicationManager's AppStore on the RM's state
// store (persist/), one store call per record so each is atomic and, with a
// synced store, durable when it returns.
//
// Thread-safety: thread-safe (the StateStore is).
#pragma once

#include "persist/state_store.h"
#include "rm/apps/app_store.h"

namespace spindle::rm {

class StateStoreAppStore final : public AppStore {
 public:
  // `store` must be open and outlive this object.
  explicit StateStoreAppStore(persist::StateStore* store) : store_(store) {}

  Status SaveApp(const RmApp& app) override;
  Status SaveAttempt(const RmApp& app, const RmAttempt& attempt) override;
  Status RemoveApp(const ApplicationId& app) override;
  Status ReserveAppIds(int32_t last) override;
  Status SaveAsks(const ApplicationAttemptId& attempt, const std::string& bytes) override;
  Status SaveAttemptRows(const ApplicationAttemptId& attempt,
                         const AttemptRowChanges& changes) override;

 private:
  persist::StateStore* const store_;
};

}  // namespace spindle::rm
