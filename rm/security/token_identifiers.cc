#include "rm/security/token_identifiers.h"

#include <limits>

#include "rm/security/yarn_id_protos.h"
#include "yarn_security_token.pb.h"

namespace spindle::rm {

std::string EncodeAmrmTokenIdentifier(const ApplicationAttemptId& attempt, int32_t key_id) {
  hadoop::yarn::AMRMTokenIdentifierProto proto;
  ToProto(attempt, proto.mutable_appattemptid());
  proto.set_keyid(key_id);
  return proto.SerializeAsString();
}

std::string EncodeNmTokenIdentifier(const ApplicationAttemptId& attempt, const NodeId& node,
                                    std::string_view app_submitter, int32_t key_id) {
  hadoop::yarn::NMTokenIdentifierProto proto;
  ToProto(attempt, proto.mutable_appattemptid());
  ToProto(node, proto.mutable_nodeid());
  proto.set_appsubmitter(std::string(app_submitter));
  proto.set_keyid(key_id);
  return proto.SerializeAsString();
}

std::string EncodeContainerTokenIdentifier(const ContainerTokenRequest& request,
                                           const ContainerTokenStamp& stamp,
                                           ContainerTokenLayout layout) {
  hadoop::yarn::ContainerTokenIdentifierProto proto;
  ToProto(request.container_id, proto.mutable_containerid());
  proto.set_nmhostaddr(request.node_id.ToString());
  proto.set_appsubmitter(request.app_submitter);
  *proto.mutable_resource() = request.resource;
  proto.set_expirytimestamp(stamp.expiry_time_ms);
  proto.set_masterkeyid(stamp.master_key_id);
  proto.set_rmidentifier(stamp.rm_identifier);
  proto.mutable_priority()->set_priority(request.priority);
  proto.set_creationtime(request.creation_time_ms);
  if (request.log_aggregation_context.has_value()) {
    *proto.mutable_logaggregationcontext() = *request.log_aggregation_context;
  }
  if (layout == ContainerTokenLayout::kHadoop3) {
    if (request.node_label_expression.has_value()) {
      proto.set_nodelabelexpression(*request.node_label_expression);
    }
    proto.set_containertype(static_cast<hadoop::yarn::ContainerTypeProto>(request.container_type));
    proto.set_executiontype(static_cast<hadoop::yarn::ExecutionTypeProto>(request.execution_type));
    proto.set_version(request.version);
    proto.set_allocation_request_id(request.allocation_request_id);
    for (const std::string& tag : request.allocation_tags) proto.add_allocation_tags(tag);
  }
  return proto.SerializeAsString();
}

Result<AmrmTokenIdentifier> DecodeAmrmTokenIdentifier(std::string_view identifier) {
  hadoop::yarn::AMRMTokenIdentifierProto proto;
  if (identifier.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !proto.ParseFromArray(identifier.data(), static_cast<int>(identifier.size()))) {
    return Status::Corruption("not an AMRMTokenIdentifierProto (" +
                              std::to_string(identifier.size()) + " bytes)");
  }
  AmrmTokenIdentifier decoded;
  if (proto.has_appattemptid()) decoded.attempt = FromProto(proto.appattemptid());
  decoded.key_id = proto.keyid();
  return decoded;
}

std::string RmDelegationTokenIdentifier::ToString() const {
  return "owner=" + owner + ", renewer=" + renewer + ", realUser=" + real_user +
         ", issueDate=" + std::to_string(issue_date_ms) +
         ", maxDate=" + std::to_string(max_date_ms) +
         ", sequenceNumber=" + std::to_string(sequence_number) +
         ", masterKeyId=" + std::to_string(master_key_id);
}

void ToProto(const RmDelegationTokenIdentifier& id,
             hadoop::yarn::YARNDelegationTokenIdentifierProto* proto) {
  // set_* marks each field present, so empty strings and zeros are written
  // too (the 2.6 RM's form; see the header).
  proto->set_owner(id.owner);
  proto->set_renewer(id.renewer);
  proto->set_realuser(id.real_user);
  proto->set_issuedate(id.issue_date_ms);
  proto->set_maxdate(id.max_date_ms);
  proto->set_sequencenumber(id.sequence_number);
  proto->set_masterkeyid(id.master_key_id);
}

RmDelegationTokenIdentifier FromProto(const hadoop::yarn::YARNDelegationTokenIdentifierProto& p) {
  RmDelegationTokenIdentifier id;
  id.owner = p.owner();
  id.renewer = p.renewer();
  id.real_user = p.realuser();
  id.issue_date_ms = p.issuedate();
  id.max_date_ms = p.maxdate();
  id.sequence_number = p.sequencenumber();
  id.master_key_id = p.masterkeyid();
  return id;
}

std::string EncodeRmDelegationTokenIdentifier(const RmDelegationTokenIdentifier& id) {
  hadoop::yarn::YARNDelegationTokenIdentifierProto proto;
  ToProto(id, &proto);
  return proto.SerializeAsString();
}

Result<RmDelegationTokenIdentifier> DecodeRmDelegationTokenIdentifier(std::string_view identifier) {
  hadoop::yarn::YARNDelegationTokenIdentifierProto proto;
  if (identifier.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !proto.ParseFromArray(identifier.data(), static_cast<int>(identifier.size()))) {
    return Status::Corruption("not a YARNDelegationTokenIdentifierProto (" +
                              std::to_string(identifier.size()) + " bytes)");
  }
  return FromProto(proto);
}

}  // namespace spindle::rm
