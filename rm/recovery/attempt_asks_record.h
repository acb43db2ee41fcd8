// The state store's bytes for one attempt's outstanding asks
// (AppStore::SaveAsks): SpindleAttemptAsksProto
// (yarn_server_resourcemanager_recovery.proto) -- the attempt's ask table,
// already reduced by what was granted, and the containers granted that were
// live when it was kept.
//
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "rm/records/yarn_ids.h"
#include "rm/scheduling/ask_table.h"

namespace spindle::rm {

// A container granted for a key of the table.
struct GrantedContainer {
  ContainerId id;
  int32_t priority = 0;
  int64_t allocation_request_id = -1;
  pool::Resource resource;
};

struct AttemptAsksRecord {
  std::vector<ResourceRequest> asks;
  std::vector<GrantedContainer> granted;
};

// Never "" (AppStore::SaveAsks' removal): an empty record is still a table
// (nothing outstanding), kept as one empty row.
std::string EncodeAttemptAsks(const AttemptAsksRecord& record);
// Corruption for bytes that do not parse. Rows without a resource name
// (the empty record's placeholder) are left out.
Result<AttemptAsksRecord> DecodeAttemptAsks(const std::string& bytes);

}  // namespace spindle::rm
