#include "rm/recovery/store_app_store.h"

#include "rm/recovery/app_records.h"

namespace spindle::rm {

Status StateStoreAppStore::SaveApp(const RmApp& app) {
  return store_->PutApplication(app.submission.id.ToString(), EncodeAppRecord(app));
}

Status StateStoreAppStore::SaveAttempt(const RmApp& app, const RmAttempt& attempt) {
  return store_->PutAttempt(app.submission.id.ToString(), attempt.id.ToString(),
                            EncodeAttemptRecord(attempt));
}

Status StateStoreAppStore::RemoveApp(const ApplicationId& app) {
  return store_->RemoveApplication(app.ToString());
}

Status StateStoreAppStore::SaveAsks(const ApplicationAttemptId& attempt, const std::string& bytes) {
  persist::StoreBatch batch;
  batch.set_sync(false);
  if (bytes.empty()) {
    batch.DeleteAttempt(attempt.app.ToString(), AsksRecordId(attempt));
  } else {
    batch.PutAttempt(attempt.app.ToString(), AsksRecordId(attempt), bytes);
  }
  return store_->Apply(batch);
}

Status StateStoreAppStore::SaveAttemptRows(const ApplicationAttemptId& attempt,
                                           const AttemptRowChanges& changes) {
  if (changes.empty()) return Status::OK();
  persist::StoreBatch batch;
  batch.set_sync(false);  // as SaveAsks: see AppStore
  const std::string app = attempt.app.ToString();
  for (const std::string& key : changes.erase) {
    if (key.empty()) return Status::InvalidArgument("an attempt row key is empty");
    batch.DeleteAttempt(app, AttemptRowRecordId(attempt, key));
  }
  for (const auto& [key, bytes] : changes.put) {
    if (key.empty()) return Status::InvalidArgument("an attempt row key is empty");
    batch.PutAttempt(app, AttemptRowRecordId(attempt, key), bytes);
  }
  return store_->Apply(batch);
}

Status StateStoreAppStore::ReserveAppIds(int32_t last) {
  return store_->SetClusterValue(persist::ClusterField::kAppIdCounter, last);
}

}  // namespace spindle::rm
