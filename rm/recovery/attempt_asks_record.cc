#include "rm/recovery/attempt_asks_record.h"

#include "rm/security/yarn_id_protos.h"
#include "yarn_server_resourcemanager_recovery.pb.h"

namespace spindle::rm {

namespace y = hadoop::yarn;

namespace {

void ToProto(const pool::Resource& r, y::ResourceProto* proto) {
  proto->set_memory(r.memory_mb());
  proto->set_virtual_cores(static_cast<int32_t>(r.vcores()));
}

pool::Resource FromProto(const y::ResourceProto& proto) {
  return pool::Resource::Of(proto.memory(), proto.virtual_cores());
}

}  // namespace

std::string EncodeAttemptAsks(const AttemptAsksRecord& record) {
  y::SpindleAttemptAsksProto table;
  for (const ResourceRequest& ask : record.asks) {
    y::ResourceRequestProto* row = table.add_ask();
    row->mutable_priority()->set_priority(ask.priority);
    row->set_resource_name(ask.resource_name);
    ToProto(ask.capability, row->mutable_capability());
    row->set_num_containers(ask.count);
    row->set_relax_locality(ask.relax_locality);
    row->set_allocation_request_id(ask.allocation_request_id);
  }
  for (const GrantedContainer& c : record.granted) {
    y::ContainerProto* granted = table.add_granted();
    ToProto(c.id, granted->mutable_id());
    ToProto(c.resource, granted->mutable_resource());
    granted->mutable_priority()->set_priority(c.priority);
    granted->set_allocation_request_id(c.allocation_request_id);
  }
  if (table.ask_size() == 0 && table.granted_size() == 0) table.add_ask();
  return table.SerializeAsString();
}

Result<AttemptAsksRecord> DecodeAttemptAsks(const std::string& bytes) {
  y::SpindleAttemptAsksProto table;
  if (!table.ParseFromString(bytes)) {
    return Status::Corruption("stored asks do not parse as SpindleAttemptAsksProto");
  }
  AttemptAsksRecord record;
  for (const y::ResourceRequestProto& row : table.ask()) {
    if (row.resource_name().empty()) continue;
    record.asks.push_back(ResourceRequest{
        row.priority().priority(), row.allocation_request_id(), row.resource_name(),
        FromProto(row.capability()), row.num_containers(), row.relax_locality(), std::nullopt});
  }
  for (const y::ContainerProto& c : table.granted()) {
    record.granted.push_back(GrantedContainer{rm::FromProto(c.id()), c.priority().priority(),
                                              c.allocation_request_id(), FromProto(c.resource())});
  }
  return record;
}

}  // namespace spindle::rm
