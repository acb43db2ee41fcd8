// Token identifiers, byte-exact with Hadoop (WIRE.md 6.2): each identifier is
// the raw serialization of a yarn_security_token.proto message, with exactly
// the fields the Java RM sets. These are pure functions; the secret managers
// add the key id, the timestamps and the password.
//
//   AMRMTokenIdentifierProto        {appAttemptId, keyId}
//   NMTokenIdentifierProto          {appAttemptId, nodeId, appSubmitter, keyId}
//   ContainerTokenIdentifierProto   fields 1-9 always, 10 with a log
//                                   aggregation context, 11-16 per layout
//   YARNDelegationTokenIdentifierProto  all seven fields, in field order
//                                   (RM_DELEGATION_TOKEN; see below)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "rm/records/yarn_ids.h"
#include "yarn_protos.pb.h"
#include "yarn_security_token.pb.h"

namespace spindle::rm {

// Which fields a container token identifier carries.
enum class ContainerTokenLayout {
  // Fields 1-10, as a Hadoop 2.6/2.7 RM writes them (10 only with a log
  // aggregation context). 2.x and 3.x NMs accept it.
  kHadoop2,
  // Also what a Hadoop 3.x RM sets: nodeLabelExpression (11, when given),
  // containerType (12), executionType (13), version (14),
  // allocation_request_id (15) and allocation_tags (16). NMs before 2.8 keep
  // the fields they do not know as unknown fields; their bytes are unchanged.
  kHadoop3,
};

enum class ContainerType { kApplicationMaster = 1, kTask = 2 };
enum class ExecutionType { kGuaranteed = 1, kOpportunistic = 2 };

// What the caller knows about a container when it asks for its token.
struct ContainerTokenRequest {
  ContainerId container_id;
  NodeId node_id;          // nmHostAddr = node_id.ToString(), compared by the NM
  std::string nm_service;  // the token's service: the NM's "IP:port"
  std::string app_submitter;
  hadoop::yarn::ResourceProto resource;
  int32_t priority = 0;
  int64_t creation_time_ms = 0;  // when the RM created the container
  ContainerType container_type = ContainerType::kTask;
  ExecutionType execution_type = ExecutionType::kGuaranteed;
  int32_t version = 0;  // container version; 0 unless resized
  int64_t allocation_request_id = -1;
  std::vector<std::string> allocation_tags;
  std::optional<hadoop::yarn::LogAggregationContextProto> log_aggregation_context;
  // Java RMs pass "" (no label) for containers without one.
  std::optional<std::string> node_label_expression;
};

// What the RM stamps on a container token.
struct ContainerTokenStamp {
  int64_t expiry_time_ms = 0;  // wall clock ms: now + container allocation expiry
  int32_t master_key_id = 0;   // the container-token key that signs it
  int64_t rm_identifier = 0;   // the RM's cluster timestamp
};

std::string EncodeAmrmTokenIdentifier(const ApplicationAttemptId& attempt, int32_t key_id);
std::string EncodeNmTokenIdentifier(const ApplicationAttemptId& attempt, const NodeId& node,
                                    std::string_view app_submitter, int32_t key_id);
std::string EncodeContainerTokenIdentifier(const ContainerTokenRequest& request,
                                           const ContainerTokenStamp& stamp,
                                           ContainerTokenLayout layout);

// A decoded AMRM token identifier. Java's getters: a missing attempt is
// absent, a missing key id is -1.
struct AmrmTokenIdentifier {
  std::optional<ApplicationAttemptId> attempt;
  int32_t key_id = -1;
};
// Corruption if the bytes are not an AMRMTokenIdentifierProto.
Result<AmrmTokenIdentifier> DecodeAmrmTokenIdentifier(std::string_view identifier);

// An RM delegation token identifier (Java: RMDelegationTokenIdentifier, a
// YARNDelegationTokenIdentifier). Times are wall-clock ms.
//
// Byte layout: the raw YARNDelegationTokenIdentifierProto {owner=1,
// renewer=2, realUser=3 (strings), issueDate=4, maxDate=5 (int64),
// sequenceNumber=6, masterKeyId=7 (int32)}, no version byte, no length
// prefix. Why this and not the generic Writable layout of
// AbstractDelegationTokenIdentifier (version 0, Text owner/renewer/realUser,
// VLong dates, VInt numbers): YARN-2615 made the YARN identifiers protobuf
// before 2.6.0 was released, and every targeted version (2.6.0, 2.7.x, 2.8+,
// 3.x) reads an RM delegation token with builder.mergeFrom(), i.e. parses it
// as this proto only; the Writable reader (readFieldsInOldFormat, 3.x) is
// used only by RM recovery of pre-2.6 state (YARN-5594), never on the wire.
// A Writable identifier would therefore not decode in any client.
//
// Which fields: a 2.6 RM sets all seven (empty strings and zeros
// included); 2.7+ and 3.x RMs (YARN-2936) write only the fields that differ from the proto
// defaults. All readers decode both alike (proto2 optional fields), so we
// write the 2.6 form: all seven, in field-number order, which is
// deterministic and byte-exact with the oldest targeted RM.
struct RmDelegationTokenIdentifier {
  std::string owner;
  std::string renewer;
  std::string real_user;
  int64_t issue_date_ms = 0;
  int64_t max_date_ms = 0;
  int32_t sequence_number = 0;
  int32_t master_key_id = 0;

  auto operator<=>(const RmDelegationTokenIdentifier&) const = default;
  bool operator==(const RmDelegationTokenIdentifier&) const = default;
  // Java's (2.6) AbstractDelegationTokenIdentifier.toString(): "owner=...,
  // renewer=..., realUser=..., issueDate=..., maxDate=..., sequenceNumber=...,
  // masterKeyId=...", the form Hadoop's error messages embed.
  std::string ToString() const;
};

std::string EncodeRmDelegationTokenIdentifier(const RmDelegationTokenIdentifier& id);
// The identifier as its message (every field set, so that its bytes are
// EncodeRmDelegationTokenIdentifier's), and back (absent fields are empty/0).
void ToProto(const RmDelegationTokenIdentifier& id,
             hadoop::yarn::YARNDelegationTokenIdentifierProto* proto);
RmDelegationTokenIdentifier FromProto(
    const hadoop::yarn::YARNDelegationTokenIdentifierProto& proto);
// Parses the proto form; missing fields take the proto defaults ("" and 0),
// as Java's readFields does. Corruption if the bytes are not the proto.
Result<RmDelegationTokenIdentifier> DecodeRmDelegationTokenIdentifier(std::string_view identifier);

}  // namespace spindle::rm
