#include "persist/state_store_options.h"

namespace spindle::persist {

Status StateStoreOptions::Validate() const {
  if (path.empty()) return Status::InvalidArgument("state store path is empty");
  if (write_buffer_bytes < 64 * 1024) {
    return Status::InvalidArgument("state store write_buffer_bytes must be at least 64 KiB");
  }
  if (max_wal_bytes < write_buffer_bytes) {
    return Status::InvalidArgument("state store max_wal_bytes must be at least write_buffer_bytes");
  }
  if (deletion_compaction_window == 0 || deletion_compaction_trigger == 0 ||
      deletion_compaction_trigger > deletion_compaction_window) {
    return Status::InvalidArgument(
        "state store deletion_compaction_trigger must be in [1, deletion_compaction_window]");
  }
  return Status::OK();
}

}  // namespace spindle::persist
