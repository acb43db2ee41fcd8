// Golden tests against real Hadoop 2.6.0 traffic: every token and
// Credentials blob captured in shared/captures/hadoop-2.6.0 is decoded with
// our protos, re-created by our secret managers from its fields, and compared
// byte for byte; passwords are recomputed with the captured master keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "base/clock.h"
#include "base/crypto.h"
#include "rm/security/amrm_token_secret_manager.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/credentials.h"
#include "rm/security/nm_token_secret_manager.h"
#include "rm/security/yarn_id_protos.h"
#include "tests/rm/security/captured_secrets.h"
#include "yarn_security_token.pb.h"

namespace spindle::rm {
namespace {

using testing::CapturedCredentials;
using testing::LoadScenarioSecrets;
using testing::ScenarioSecrets;

constexpr int64_t kContainerTokenExpiryMs = 600000;  // the captured RM ran with the default

// Fails unless `bytes` parse as `proto` with no field our .proto lacks.
template <typename Proto>
::testing::AssertionResult ParsesStrictly(const std::string& bytes, Proto* proto) {
  if (!proto->ParseFromString(bytes)) return ::testing::AssertionFailure() << "does not parse";
  if (proto->GetReflection()->GetUnknownFields(*proto).field_count() != 0) {
    return ::testing::AssertionFailure() << "has unknown fields";
  }
  return ::testing::AssertionSuccess();
}

KeyRollingOptions Recovering(const testing::CapturedKey& key) {
  KeyRollingOptions options;
  options.recovered = KeyState{MasterKey{key.key_id, key.bytes}, std::nullopt};
  return options;
}

class CapturedTokensTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto secrets = LoadScenarioSecrets(GetParam());
    ASSERT_TRUE(secrets.ok()) << secrets.status().ToString();
    secrets_ = std::move(secrets).value();
  }
  const testing::CapturedKey& Key(const std::string& name) {
    auto it = secrets_.master_keys.find(name);
    CHECK(it != secrets_.master_keys.end()) << name;
    return it->second;
  }

  ScenarioSecrets secrets_;
};

TEST_P(CapturedTokensTest, ContainerTokensRecreatedByteForByte) {
  const auto& key = Key("container_token_master_key");
  int verified = 0;
  for (const auto& captured : secrets_.tokens) {
    if (captured.kind != kContainerTokenKind) continue;
    SCOPED_TRACE(captured.where);
    EXPECT_EQ(HexEncode(HmacSha1(key.bytes, captured.identifier)), HexEncode(captured.password));

    hadoop::yarn::ContainerTokenIdentifierProto proto;
    ASSERT_TRUE(ParsesStrictly(captured.identifier, &proto));
    ASSERT_EQ(proto.masterkeyid(), key.key_id);
    ContainerTokenRequest request;
    request.container_id = FromProto(proto.containerid());
    auto node = NodeId::Parse(proto.nmhostaddr());
    ASSERT_TRUE(node.ok()) << node.status().ToString();
    request.node_id = *node;
    request.nm_service = captured.service;
    request.app_submitter = proto.appsubmitter();
    request.resource = proto.resource();
    request.priority = proto.priority().priority();
    request.creation_time_ms = proto.creationtime();
    request.container_type = request.container_id.sequence() == 1
                                 ? ContainerType::kApplicationMaster
                                 : ContainerType::kTask;
    if (proto.has_logaggregationcontext()) {
      request.log_aggregation_context = proto.logaggregationcontext();
    }

    // The RM's wall clock when it made the token: expiry - lifetime.
    ManualClock clock(TimePoint{}, proto.expirytimestamp() - kContainerTokenExpiryMs);
    ContainerTokenSecretManager::Options options;
    options.keys = Recovering(key);
    options.token_expiry_ms = kContainerTokenExpiryMs;
    // rmIdentifier is the cluster timestamp in every id of the run.
    options.rm_identifier = request.container_id.attempt.app.cluster_timestamp;
    options.layout = ContainerTokenLayout::kHadoop2;
    auto manager = ContainerTokenSecretManager::Create(options, &clock);
    ASSERT_TRUE(manager.ok()) << manager.status().ToString();

    const Token token = (*manager)->CreateContainerToken(request);
    EXPECT_EQ(HexEncode(token.identifier), HexEncode(captured.identifier));
    EXPECT_EQ(HexEncode(token.password), HexEncode(captured.password));
    EXPECT_EQ(token.kind, captured.kind);
    EXPECT_EQ(token.service, captured.service);
    ++verified;
  }
  // distributedshell: 3 containers seen 5 times; mapreduce-pi: 4 seen 7 times.
  EXPECT_GE(verified, 5);
  RecordProperty("container_tokens_verified", verified);
}

TEST_P(CapturedTokensTest, NmTokensRecreatedByteForByte) {
  const auto& key = Key("nm_token_master_key");
  auto manager = NmTokenSecretManager::Create(Recovering(key), SystemClock::Get());
  ASSERT_TRUE(manager.ok()) << manager.status().ToString();
  int verified = 0;
  auto check = [&](const testing::CapturedToken& captured, const std::string& service) {
    SCOPED_TRACE(captured.where);
    EXPECT_EQ(HexEncode(HmacSha1(key.bytes, captured.identifier)), HexEncode(captured.password));
    hadoop::yarn::NMTokenIdentifierProto proto;
    ASSERT_TRUE(ParsesStrictly(captured.identifier, &proto));
    ASSERT_EQ(proto.keyid(), key.key_id);
    const Token token = (*manager)->CreateToken(
        FromProto(proto.appattemptid()), FromProto(proto.nodeid()), proto.appsubmitter(), service);
    EXPECT_EQ(HexEncode(token.identifier), HexEncode(captured.identifier));
    EXPECT_EQ(HexEncode(token.password), HexEncode(captured.password));
    EXPECT_EQ(token.kind, kNmTokenKind);
    EXPECT_EQ(token.service, service);
    ++verified;
  };
  for (const auto& captured : secrets_.tokens) {
    if (captured.kind == kNmTokenKind) check(captured, captured.service);
  }
  // The NMTokens the RM (AM launch, cleanup) and the AM authenticated with.
  for (const auto& captured : secrets_.sasl_tokens) {
    if (captured.where.find("-to-nm-45454") != std::string::npos) {
      check(captured, "127.0.0.1:45454");
    }
  }
  EXPECT_GE(verified, 9);
  RecordProperty("nm_tokens_verified", verified);
}

// The AMRM master key never leaves the RM, so the captured passwords cannot
// be recomputed; the identifiers can, and our manager must accept them.
TEST_P(CapturedTokensTest, AmrmTokensRecreatedAndAccepted) {
  int verified = 0;
  auto check = [&](const std::string& identifier, const std::string& where) {
    SCOPED_TRACE(where);
    hadoop::yarn::AMRMTokenIdentifierProto proto;
    ASSERT_TRUE(ParsesStrictly(identifier, &proto));
    const ApplicationAttemptId attempt = FromProto(proto.appattemptid());
    KeyRollingOptions keys;
    keys.recovered = KeyState{MasterKey{proto.keyid(), SecureRandomBytes(8)}, std::nullopt};
    auto manager = AmrmTokenSecretManager::Create(keys, SystemClock::Get());
    ASSERT_TRUE(manager.ok()) << manager.status().ToString();

    const Token token = (*manager)->CreateToken(attempt);
    EXPECT_EQ(HexEncode(token.identifier), HexEncode(identifier));
    EXPECT_EQ(token.kind, kAmrmTokenKind);
    EXPECT_EQ(token.service, "");
    auto secret = (*manager)->RetrieveSecret(identifier);
    ASSERT_TRUE(secret.ok()) << secret.status().ToString();
    EXPECT_EQ(secret->password, token.password);
    EXPECT_EQ(secret->user, attempt.ToString());
    EXPECT_EQ(secret->user.rfind("appattempt_", 0), 0u);
    ++verified;
  };
  for (const auto& blob : secrets_.credentials) {
    for (const auto& t : blob.tokens) {
      if (t.kind == kAmrmTokenKind) check(t.identifier, blob.where);
    }
  }
  for (const auto& captured : secrets_.sasl_tokens) {
    if (captured.where.find("-to-rm-8030") != std::string::npos) {
      check(captured.identifier, captured.where);
    }
  }
  EXPECT_GE(verified, 2);
  RecordProperty("amrm_tokens_verified", verified);
}

void ExpectSameAsDecoded(const Credentials& parsed, const CapturedCredentials& decoded) {
  ASSERT_EQ(parsed.tokens().size(), decoded.tokens.size());
  for (size_t i = 0; i < decoded.tokens.size(); ++i) {
    const auto& want = decoded.tokens[i];
    const auto& got = parsed.tokens()[i];
    EXPECT_EQ(got.alias, want.alias);
    EXPECT_EQ(got.token, (Token{want.identifier, want.password, want.kind, want.service}));
  }
  ASSERT_EQ(parsed.secrets().size(), decoded.secrets.size());
  for (size_t i = 0; i < decoded.secrets.size(); ++i) {
    EXPECT_EQ(parsed.secrets()[i].alias, decoded.secrets[i].first);
    EXPECT_EQ(parsed.secrets()[i].secret, decoded.secrets[i].second);
  }
}

// Parse, compare with secrets.json's decoding, write back byte-identically,
// and survive a PROTOBUF round trip.
void ExpectRoundTrip(const std::string& bytes, const CapturedCredentials& decoded) {
  auto parsed = Credentials::Parse(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->source_format(), CredentialsFormat::kWritable);
  EXPECT_EQ(decoded.version, 0);
  ExpectSameAsDecoded(*parsed, decoded);
  EXPECT_EQ(HexEncode(parsed->Serialize(CredentialsFormat::kWritable)), HexEncode(bytes));
  auto via_protobuf = Credentials::Parse(parsed->Serialize(CredentialsFormat::kProtobuf));
  ASSERT_TRUE(via_protobuf.ok()) << via_protobuf.status().ToString();
  EXPECT_EQ(via_protobuf->source_format(), CredentialsFormat::kProtobuf);
  EXPECT_EQ(*via_protobuf, *parsed);
}

TEST_P(CapturedTokensTest, ContainerTokensFilesRewrittenByteForByte) {
  int files = 0;
  for (const auto& file : secrets_.container_tokens_files) {
    SCOPED_TRACE(file.path.string());
    auto bytes = testing::ReadFileBytes(file.path);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    ExpectRoundTrip(*bytes, file.credentials);
    ++files;
  }
  EXPECT_GE(files, 3);
  RecordProperty("container_tokens_files_verified", files);
}

TEST_P(CapturedTokensTest, WireCredentialsRewrittenByteForByte) {
  int blobs = 0;
  for (const auto& blob : secrets_.credentials) {
    SCOPED_TRACE(blob.where);
    auto bytes = testing::ExtractRequestField(GetParam(), blob);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    ExpectRoundTrip(*bytes, blob);
    ++blobs;
  }
  EXPECT_GE(blobs, 3);
  RecordProperty("wire_credentials_verified", blobs);
}

// What the Java RM sent the NM in startContainers for the AM container is the
// client's submitted tokens (none for DistributedShell, the MapReduce shuffle
// secret for pi) plus the AMRM token under alias "": we must produce exactly
// those bytes; and the NM wrote the same bytes to the AM's container_tokens.
TEST_P(CapturedTokensTest, RmAddsAmrmTokenExactlyAsJava) {
  std::string submitted;
  for (const auto& blob : secrets_.credentials) {
    if (blob.method != "submitApplication") continue;
    auto bytes = testing::ExtractRequestField(GetParam(), blob);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    submitted = *bytes;
  }
  int checked = 0;
  for (const auto& blob : secrets_.credentials) {
    if (blob.file.find("-rm-to-nm-") == std::string::npos) continue;
    SCOPED_TRACE(blob.where);
    auto sent = testing::ExtractRequestField(GetParam(), blob);
    ASSERT_TRUE(sent.ok()) << sent.status().ToString();
    const testing::CapturedCredentialsToken* amrm = nullptr;
    for (const auto& t : blob.tokens) {
      if (t.kind == kAmrmTokenKind) amrm = &t;
    }
    ASSERT_NE(amrm, nullptr);
    auto ours = AddAmrmTokenToLaunchTokens(
        submitted, Token{amrm->identifier, amrm->password, amrm->kind, amrm->service});
    ASSERT_TRUE(ours.ok()) << ours.status().ToString();
    EXPECT_EQ(HexEncode(*ours), HexEncode(*sent));

    const auto am_file =
        std::find_if(secrets_.container_tokens_files.begin(), secrets_.container_tokens_files.end(),
                     [](const auto& f) { return f.container.ends_with("_000001"); });
    ASSERT_NE(am_file, secrets_.container_tokens_files.end());
    auto file_bytes = testing::ReadFileBytes(am_file->path);
    ASSERT_TRUE(file_bytes.ok()) << file_bytes.status().ToString();
    EXPECT_EQ(HexEncode(*file_bytes), HexEncode(*ours));
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}

INSTANTIATE_TEST_SUITE_P(Hadoop260, CapturedTokensTest,
                         ::testing::Values("distributedshell", "mapreduce-pi"),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// Java master keys are 8 bytes (KeyGenerator("HmacSHA1").init(64)), as ours.
TEST(CapturedMasterKeysTest, EightBytesLikeOurs) {
  int keys = 0;
  for (const char* scenario : {"nm-register-heartbeat", "distributedshell", "mapreduce-pi"}) {
    auto secrets = LoadScenarioSecrets(scenario);
    ASSERT_TRUE(secrets.ok()) << secrets.status().ToString();
    ASSERT_EQ(secrets->master_keys.size(), 2u) << scenario;
    for (const auto& [name, key] : secrets->master_keys) {
      EXPECT_EQ(key.bytes.size(), KeyRollingOptions{}.key_length) << scenario << " " << name;
      ++keys;
    }
  }
  EXPECT_EQ(keys, 6);
}

}  // namespace
}  // namespace spindle::rm
