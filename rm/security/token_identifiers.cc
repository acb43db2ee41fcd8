#include "rm/security/token_identifiers.h"

#include <google/protobuf/io/coded_stream.h>

#include <charconv>
#include <limits>

#include "rm/security/yarn_id_protos.h"
#include "yarn_security_token.pb.h"

namespace spindle::rm {

namespace {

// Protobuf's wire format (proto2), written straight into the identifier's
// bytes: what SerializeAsString() of the generated message gives for the
// fields that are set, in field-number order (protobuf's own order), without
// building the message and its sub-messages first. int32 fields (and enums)
// are sign-extended to 64 bits, as protobuf writes them; strings and
// sub-messages are length-delimited.
constexpr uint32_t kVarint = 0;
constexpr uint32_t kLengthDelimited = 2;

size_t VarintSize(uint64_t value) {
  return google::protobuf::io::CodedOutputStream::VarintSize64(value);
}
size_t Int64Size(int64_t value) { return VarintSize(static_cast<uint64_t>(value)); }
size_t Int32Size(int32_t value) { return Int64Size(value); }

// ApplicationIdProto {id = 1, cluster_timestamp = 2} (yarn_id_protos.h).
size_t AppIdSize(const ApplicationId& app) {
  return 1 + Int32Size(app.id) + 1 + Int64Size(app.cluster_timestamp);
}
// ApplicationAttemptIdProto {application_id = 1, attemptId = 2}.
size_t AttemptIdSize(const ApplicationAttemptId& attempt) {
  const size_t app = AppIdSize(attempt.app);
  return 1 + VarintSize(app) + app + 1 + Int32Size(attempt.attempt);
}
// NodeIdProto {host = 1, port = 2}.
size_t NodeIdSize(const NodeId& node) {
  return 1 + VarintSize(node.host.size()) + node.host.size() + 1 + Int32Size(node.port);
}

// Appends one identifier's fields to its bytes.
class IdentifierWriter {
 public:
  explicit IdentifierWriter(size_t expected_bytes) { bytes_.reserve(expected_bytes); }

  // A varint: one byte for fields 1-15, two from 16 (allocation_tags).
  void Tag(uint32_t field, uint32_t wire_type) { Varint((field << 3) | wire_type); }
  void Varint(uint64_t value) {
    uint8_t buffer[10];  // a varint of 64 bits takes at most 10 bytes
    const uint8_t* end =
        google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(value, buffer);
    bytes_.append(reinterpret_cast<const char*>(buffer), static_cast<size_t>(end - buffer));
  }
  void Raw(std::string_view bytes) { bytes_.append(bytes); }

  void Int64Field(uint32_t field, int64_t value) {
    Tag(field, kVarint);
    Varint(static_cast<uint64_t>(value));
  }
  void Int32Field(uint32_t field, int32_t value) { Int64Field(field, value); }
  void BytesField(uint32_t field, std::string_view bytes) {
    Tag(field, kLengthDelimited);
    Varint(bytes.size());
    Raw(bytes);
  }
  // A generated sub-message, serialised in place (no copy of its own).
  void MessageField(uint32_t field, const google::protobuf::MessageLite& message) {
    const size_t size = message.ByteSizeLong();
    Tag(field, kLengthDelimited);
    Varint(size);
    const size_t at = bytes_.size();
    bytes_.resize(at + size);
    message.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(bytes_.data() + at));
  }
  void AttemptIdField(uint32_t field, const ApplicationAttemptId& attempt) {
    Tag(field, kLengthDelimited);
    Varint(AttemptIdSize(attempt));
    Tag(1, kLengthDelimited);
    Varint(AppIdSize(attempt.app));
    Int32Field(1, attempt.app.id);
    Int64Field(2, attempt.app.cluster_timestamp);
    Int32Field(2, attempt.attempt);
  }

  std::string Take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

}  // namespace

std::string EncodeAmrmTokenIdentifier(const ApplicationAttemptId& attempt, int32_t key_id) {
  hadoop::yarn::AMRMTokenIdentifierProto proto;
  ToProto(attempt, proto.mutable_appattemptid());
  proto.set_keyid(key_id);
  return proto.SerializeAsString();
}

std::string EncodeNmTokenIdentifier(const ApplicationAttemptId& attempt, const NodeId& node,
                                    std::string_view app_submitter, int32_t key_id) {
  // NMTokenIdentifierProto {appAttemptId = 1, nodeId = 2, appSubmitter = 3,
  // keyId = 4}, written directly (see IdentifierWriter).
  IdentifierWriter out(64 + node.host.size() + app_submitter.size());
  out.AttemptIdField(1, attempt);
  out.Tag(2, kLengthDelimited);
  out.Varint(NodeIdSize(node));
  out.BytesField(1, node.host);
  out.Int32Field(2, node.port);
  out.BytesField(3, app_submitter);
  out.Int32Field(4, key_id);
  return out.Take();
}

std::string EncodeContainerTokenIdentifier(const ContainerTokenRequest& request,
                                           const ContainerTokenStamp& stamp,
                                           ContainerTokenLayout layout) {
  // ContainerTokenIdentifierProto, field by field in number order, exactly
  // the fields the protobuf message would carry had each been set as the
  // Java RM sets it (the header's list): every token the RM hands out is
  // encoded here, and building the message cost more than signing it.
  IdentifierWriter out(128 + 2 * request.node_id.host.size() + request.app_submitter.size());
  // containerId {app_attempt_id = 2, id = 3}; the deprecated app_id is not set.
  const size_t attempt_size = AttemptIdSize(request.container_id.attempt);
  out.Tag(1, kLengthDelimited);
  out.Varint(1 + VarintSize(attempt_size) + attempt_size + 1 + Int64Size(request.container_id.id));
  out.AttemptIdField(2, request.container_id.attempt);
  out.Int64Field(3, request.container_id.id);
  // nmHostAddr: NodeId.toString(), "host:port".
  char port[16];
  const auto port_end = std::to_chars(port, port + sizeof port, request.node_id.port).ptr;
  const size_t port_size = static_cast<size_t>(port_end - port);
  out.Tag(2, kLengthDelimited);
  out.Varint(request.node_id.host.size() + 1 + port_size);
  out.Raw(request.node_id.host);
  out.Raw(":");
  out.Raw(std::string_view(port, port_size));
  out.BytesField(3, request.app_submitter);
  out.MessageField(4, request.resource);
  out.Int64Field(5, stamp.expiry_time_ms);
  out.Int32Field(6, stamp.master_key_id);
  out.Int64Field(7, stamp.rm_identifier);
  // priority {priority = 1}
  out.Tag(8, kLengthDelimited);
  out.Varint(1 + Int32Size(request.priority));
  out.Int32Field(1, request.priority);
  out.Int64Field(9, request.creation_time_ms);
  if (request.log_aggregation_context.has_value()) {
    out.MessageField(10, *request.log_aggregation_context);
  }
  if (layout == ContainerTokenLayout::kHadoop3) {
    if (request.node_label_expression.has_value()) {
      out.BytesField(11, *request.node_label_expression);
    }
    out.Int32Field(12, static_cast<int32_t>(request.container_type));
    out.Int32Field(13, static_cast<int32_t>(request.execution_type));
    out.Int32Field(14, request.version);
    out.Int64Field(15, request.allocation_request_id);
    for (const std::string& tag : request.allocation_tags) out.BytesField(16, tag);
  }
  return out.Take();
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
