#include "rm/security/token_identifiers.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <random>

#include "base/crypto.h"
#include "rm/security/token.h"
#include "rm/security/yarn_id_protos.h"
#include "yarn_security_token.pb.h"

namespace spindle::rm {
namespace {

const ApplicationAttemptId kAttempt{ApplicationId{1795352696796, 1}, 1};

std::string Hex(const std::string& bytes) { return HexEncode(bytes); }

TEST(TokenIdentifiersTest, AmrmIdentifierMatchesHadoopBytes) {
  // From the distributedshell capture (SECRETS.md): attempt
  // appattempt_1795352696796_0001_000001, key id -1558005572.
  EXPECT_EQ(Hex(EncodeAmrmTokenIdentifier(kAttempt, -1558005572)),
            "0a0d0a09080110dcaff09aa034100110bcf18a99faffffffff01");
}

TEST(TokenIdentifiersTest, NmIdentifierMatchesHadoopBytes) {
  EXPECT_EQ(
      Hex(EncodeNmTokenIdentifier(kAttempt, NodeId{"localhost", 45454}, "root", 1921999634)),
      "0a0d0a09080110dcaff09aa0341001120f0a096c6f63616c686f7374108ee3021a04726f6f742092c6bd9407");
}

ContainerTokenRequest AmContainerRequest() {
  ContainerTokenRequest request;
  request.container_id = ContainerId{kAttempt, 1};
  request.node_id = NodeId{"localhost", 45454};
  request.nm_service = "127.0.0.1:45454";
  request.app_submitter = "root";
  request.resource.set_memory(256);
  request.resource.set_virtual_cores(1);
  request.priority = 0;
  request.creation_time_ms = 1795352701345;
  request.container_type = ContainerType::kApplicationMaster;
  return request;
}

constexpr ContainerTokenStamp kStamp{1795353301347, -275701084, 1795352696796};

TEST(TokenIdentifiersTest, ContainerIdentifierHadoop2LayoutMatchesHadoopBytes) {
  EXPECT_EQ(Hex(EncodeContainerTokenIdentifier(AmContainerRequest(), kStamp,
                                               ContainerTokenLayout::kHadoop2)),
            "0a11120d0a09080110dcaff09aa03410011801120f6c6f63616c686f73743a34353435341a04726f6f74"
            "2205088002100128e3a2959ba03430a4c5c4fcfeffffffff0138dcaff09aa0344202080048a1d3f09aa0"
            "34");
}

TEST(TokenIdentifiersTest, ContainerIdentifierHadoop3LayoutAddsTheNewerFields) {
  ContainerTokenRequest request = AmContainerRequest();
  request.node_label_expression = "";
  request.allocation_tags = {"spark", "driver"};
  hadoop::yarn::LogAggregationContextProto log_context;
  log_context.set_include_pattern("*.log");
  request.log_aggregation_context = log_context;
  const std::string bytes =
      EncodeContainerTokenIdentifier(request, kStamp, ContainerTokenLayout::kHadoop3);

  hadoop::yarn::ContainerTokenIdentifierProto proto;
  ASSERT_TRUE(proto.ParseFromString(bytes));
  EXPECT_FALSE(proto.containerid().has_app_id());  // as Java's ContainerIdPBImpl
  EXPECT_EQ(FromProto(proto.containerid()), request.container_id);
  EXPECT_EQ(proto.nmhostaddr(), "localhost:45454");
  EXPECT_EQ(proto.masterkeyid(), -275701084);
  EXPECT_EQ(proto.rmidentifier(), 1795352696796);
  EXPECT_EQ(proto.expirytimestamp(), 1795353301347);
  EXPECT_EQ(proto.logaggregationcontext().include_pattern(), "*.log");
  EXPECT_TRUE(proto.has_nodelabelexpression());
  EXPECT_EQ(proto.nodelabelexpression(), "");
  ASSERT_TRUE(proto.has_containertype());
  EXPECT_EQ(proto.containertype(), hadoop::yarn::APPLICATION_MASTER);
  ASSERT_TRUE(proto.has_executiontype());
  EXPECT_EQ(proto.executiontype(), hadoop::yarn::GUARANTEED);
  ASSERT_TRUE(proto.has_version());  // set even when 0, as Java
  EXPECT_EQ(proto.version(), 0);
  ASSERT_TRUE(proto.has_allocation_request_id());
  EXPECT_EQ(proto.allocation_request_id(), -1);
  ASSERT_EQ(proto.allocation_tags_size(), 2);
  EXPECT_EQ(proto.allocation_tags(1), "driver");
  // Re-serializing what a Java NM parsed gives the same bytes: canonical order.
  EXPECT_EQ(proto.SerializeAsString(), bytes);

  // The 2.x layout of the same request is a strict prefix of fields 1-10.
  hadoop::yarn::ContainerTokenIdentifierProto old;
  ASSERT_TRUE(old.ParseFromString(
      EncodeContainerTokenIdentifier(request, kStamp, ContainerTokenLayout::kHadoop2)));
  EXPECT_TRUE(old.has_logaggregationcontext());
  EXPECT_FALSE(old.has_nodelabelexpression());
  EXPECT_FALSE(old.has_containertype());
  EXPECT_FALSE(old.has_executiontype());
  EXPECT_FALSE(old.has_version());
  EXPECT_FALSE(old.has_allocation_request_id());
  EXPECT_EQ(old.allocation_tags_size(), 0);
}

TEST(TokenIdentifiersTest, NoNodeLabelMeansNoField) {
  const std::string bytes =
      EncodeContainerTokenIdentifier(AmContainerRequest(), kStamp, ContainerTokenLayout::kHadoop3);
  hadoop::yarn::ContainerTokenIdentifierProto proto;
  ASSERT_TRUE(proto.ParseFromString(bytes));
  EXPECT_FALSE(proto.has_nodelabelexpression());
  EXPECT_FALSE(proto.has_logaggregationcontext());
}

// The identifiers as the generated messages serialise them, each field set
// as the Java RM sets it: what the direct encoders must reproduce byte for
// byte. Out of line, so that a profile of the test (callgrind) sets the
// two paths' instructions side by side.
[[gnu::noinline]] std::string NmIdentifierViaMessage(const ApplicationAttemptId& attempt,
                                                     const NodeId& node,
                                                     const std::string& app_submitter,
                                                     int32_t key_id) {
  hadoop::yarn::NMTokenIdentifierProto proto;
  ToProto(attempt, proto.mutable_appattemptid());
  ToProto(node, proto.mutable_nodeid());
  proto.set_appsubmitter(app_submitter);
  proto.set_keyid(key_id);
  return proto.SerializeAsString();
}

[[gnu::noinline]] std::string ContainerIdentifierViaMessage(const ContainerTokenRequest& request,
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

// Values at the varint length boundaries (1, 2, 5 and 10 bytes, negatives).
int64_t EdgyInt64(std::mt19937_64& random) {
  static constexpr int64_t kEdges[] = {
      0,  1,         127,       128,       16383,     16384,         -1,
      -2, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, 1795352696796, int64_t{1} << 40};
  if (random() % 2 == 0) return kEdges[random() % std::size(kEdges)];
  return static_cast<int64_t>(random()) >> (random() % 64);
}
int32_t EdgyInt32(std::mt19937_64& random) { return static_cast<int32_t>(EdgyInt64(random)); }
std::string SomeString(std::mt19937_64& random) {
  // Up to 300 bytes: lengths of one and two varint bytes, any byte value.
  std::string out(random() % 300, '\0');
  for (char& c : out) c = static_cast<char>(random());
  return out;
}

TEST(TokenIdentifiersTest, DirectEncodingsEqualTheGeneratedMessagesBytes) {
  std::mt19937_64 random(17);
  for (int i = 0; i < 2000; ++i) {
    const ApplicationAttemptId attempt{ApplicationId{EdgyInt64(random), EdgyInt32(random)},
                                       EdgyInt32(random)};
    const NodeId node{SomeString(random), EdgyInt32(random)};
    const std::string user = SomeString(random);
    const int32_t key_id = EdgyInt32(random);
    ASSERT_EQ(Hex(EncodeNmTokenIdentifier(attempt, node, user, key_id)),
              Hex(NmIdentifierViaMessage(attempt, node, user, key_id)))
        << "case " << i;

    ContainerTokenRequest request;
    request.container_id = ContainerId{attempt, EdgyInt64(random)};
    request.node_id = node;
    request.app_submitter = user;
    if (random() % 4 != 0) request.resource.set_memory(EdgyInt64(random));
    if (random() % 4 != 0) request.resource.set_virtual_cores(EdgyInt32(random));
    if (random() % 8 == 0) {
      hadoop::yarn::ResourceInformationProto* extra = request.resource.add_resource_value_map();
      extra->set_key("yarn.io/gpu");
      extra->set_value(EdgyInt64(random));
    }
    request.priority = EdgyInt32(random);
    request.creation_time_ms = EdgyInt64(random);
    request.container_type =
        random() % 2 == 0 ? ContainerType::kTask : ContainerType::kApplicationMaster;
    request.execution_type =
        random() % 2 == 0 ? ExecutionType::kGuaranteed : ExecutionType::kOpportunistic;
    request.version = EdgyInt32(random);
    request.allocation_request_id = EdgyInt64(random);
    for (uint64_t t = random() % 3; t > 0; --t)
      request.allocation_tags.push_back(SomeString(random));
    if (random() % 4 == 0) {
      hadoop::yarn::LogAggregationContextProto context;
      context.set_include_pattern(SomeString(random));
      request.log_aggregation_context = context;
    }
    if (random() % 3 == 0) request.node_label_expression = SomeString(random);
    const ContainerTokenStamp stamp{EdgyInt64(random), EdgyInt32(random), EdgyInt64(random)};
    for (ContainerTokenLayout layout :
         {ContainerTokenLayout::kHadoop2, ContainerTokenLayout::kHadoop3}) {
      ASSERT_EQ(Hex(EncodeContainerTokenIdentifier(request, stamp, layout)),
                Hex(ContainerIdentifierViaMessage(request, stamp, layout)))
          << "case " << i;
    }
  }
}

TEST(TokenIdentifiersTest, DecodesAmrmIdentifiers) {
  auto decoded = DecodeAmrmTokenIdentifier(EncodeAmrmTokenIdentifier(kAttempt, -5));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->attempt, kAttempt);
  EXPECT_EQ(decoded->key_id, -5);

  auto empty = DecodeAmrmTokenIdentifier("");
  ASSERT_TRUE(empty.ok());  // every field is optional
  EXPECT_FALSE(empty->attempt.has_value());
  EXPECT_EQ(empty->key_id, -1);  // the proto default

  auto garbage = DecodeAmrmTokenIdentifier("\x0a\xff");
  EXPECT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.status().code(), Status::Code::kCorruption);
}

TEST(TokenTest, FillsEveryTokenProtoField) {
  const Token token{"id", "pw", kAmrmTokenKind, ""};
  const hadoop::common::TokenProto proto = ToTokenProto(token);
  EXPECT_TRUE(proto.IsInitialized());  // all four are required, the empty service too
  EXPECT_TRUE(proto.has_service());
  EXPECT_EQ(FromTokenProto(proto), token);
}

TEST(YarnIdProtosTest, RoundTrips) {
  const ContainerId container{kAttempt, (int64_t{3} << ContainerId::kEpochShift) | 42};
  hadoop::yarn::ContainerIdProto proto;
  ToProto(container, &proto);
  EXPECT_EQ(FromProto(proto), container);
  const NodeId node{"host-1.example", 8041};
  hadoop::yarn::NodeIdProto node_proto;
  ToProto(node, &node_proto);
  EXPECT_EQ(FromProto(node_proto), node);
}

}  // namespace
}  // namespace spindle::rm
