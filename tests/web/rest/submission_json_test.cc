#include "web/rest/submission_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/base64.h"
#include "base/json/json_stream.h"
#include "rm/security/credentials.h"
#include "rm/security/writable_io.h"

namespace spindle::web::rest {
namespace {

using ::testing::HasSubstr;
namespace y = hadoop::yarn;

json::JsonValue Parse(const std::string& text) {
  auto stream = json::JsonStream::FromString("body", text);
  json::JsonValue value;
  Result<bool> read = stream->Next(&value);
  EXPECT_TRUE(read.ok() && *read) << text;
  return value;
}

Result<y::ApplicationSubmissionContextProto> From(const std::string& text) {
  return SubmissionContextFromJson(Parse(text), SubmissionLimits{});
}

// The example of Hadoop's REST documentation (DistributedShell), written
// as Jersey reads it: one-element lists bare, numbers as numbers.
TEST(SubmissionJsonTest, DocumentedDistributedShellExample) {
  auto context = From(R"({
    "application-id":"application_1404203615263_0001",
    "application-name":"test",
    "am-container-spec": {
      "local-resources": {"entry": [{"key":"AppMaster.jar", "value": {
          "resource":"hdfs://hdfs-namenode:9000/user/testuser/DistributedShell/demo-app/AppMaster.jar",
          "type":"FILE", "visibility":"APPLICATION", "size": 43004, "timestamp": 1405452071209}}]},
      "commands": {"command":"{{JAVA_HOME}}/bin/java -Xmx10m org.apache.hadoop.yarn.applications.distributedshell.ApplicationMaster --container_memory 10 1><LOG_DIR>/AppMaster.stdout 2><LOG_DIR>/AppMaster.stderr"},
      "environment": {"entry": [{"key": "DISTRIBUTEDSHELLSCRIPTTIMESTAMP", "value": "1405459400754"},
                                {"key": "CLASSPATH", "value": "{{CLASSPATH}}<CPS>./*"}]}
    },
    "unmanaged-AM":false,
    "max-app-attempts":2,
    "resource": {"memory":1024, "vCores":1},
    "application-type":"YARN",
    "keep-containers-across-application-attempts":false,
    "log-aggregation-context": {"log-include-pattern":"file1", "rolled-log-exclude-pattern":"file4"},
    "attempt-failures-validity-interval":3600000,
    "reservation-id":"reservation_1454114874_1",
    "application-tags": {"tag": ["a", "b"]}
  })");
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  EXPECT_EQ(context->application_id().cluster_timestamp(), 1404203615263);
  EXPECT_EQ(context->application_id().id(), 1);
  EXPECT_EQ(context->application_name(), "test");
  EXPECT_FALSE(context->has_queue());  // the protocol's default ("default") applies
  EXPECT_FALSE(context->has_priority());
  const y::ContainerLaunchContextProto& spec = context->am_container_spec();
  ASSERT_EQ(spec.localresources_size(), 1);
  EXPECT_EQ(spec.localresources(0).key(), "AppMaster.jar");
  const y::LocalResourceProto& jar = spec.localresources(0).value();
  EXPECT_EQ(jar.resource().scheme(), "hdfs");
  EXPECT_EQ(jar.resource().host(), "hdfs-namenode");
  EXPECT_EQ(jar.resource().port(), 9000);
  EXPECT_EQ(jar.resource().file(), "/user/testuser/DistributedShell/demo-app/AppMaster.jar");
  EXPECT_EQ(jar.type(), y::FILE);
  EXPECT_EQ(jar.visibility(), y::APPLICATION);
  EXPECT_EQ(jar.size(), 43004);
  EXPECT_EQ(jar.timestamp(), 1405452071209);
  ASSERT_EQ(spec.command_size(), 1);
  EXPECT_THAT(spec.command(0), HasSubstr("distributedshell.ApplicationMaster"));
  ASSERT_EQ(spec.environment_size(), 2);
  EXPECT_EQ(spec.environment(1).key(), "CLASSPATH");
  EXPECT_EQ(spec.environment(1).value(), "{{CLASSPATH}}<CPS>./*");
  // An empty token storage, as Credentials.writeTokenStorageToStream writes.
  EXPECT_EQ(spec.tokens(), std::string("HDTS\0\0\0", 7));
  EXPECT_EQ(context->maxappattempts(), 2);
  EXPECT_EQ(context->resource().memory(), 1024);
  EXPECT_EQ(context->resource().virtual_cores(), 1);
  ASSERT_EQ(context->am_container_resource_request_size(), 1);
  const y::ResourceRequestProto& am = context->am_container_resource_request(0);
  EXPECT_EQ(am.resource_name(), "*");
  EXPECT_EQ(am.num_containers(), 1);
  EXPECT_EQ(am.capability().memory(), 1024);
  EXPECT_EQ(am.priority().priority(), 0);
  EXPECT_EQ(context->applicationtype(), "YARN");
  EXPECT_TRUE(context->cancel_tokens_when_complete());
  EXPECT_EQ(context->log_aggregation_context().include_pattern(), "file1");
  EXPECT_EQ(context->log_aggregation_context().rolled_logs_exclude_pattern(), "file4");
  EXPECT_FALSE(context->log_aggregation_context().has_exclude_pattern());
  EXPECT_EQ(context->attempt_failures_validity_interval(), 3600000);
  EXPECT_EQ(context->reservation_id().cluster_timestamp(), 1454114874);
  EXPECT_EQ(context->reservation_id().id(), 1);
  ASSERT_EQ(context->applicationtags_size(), 2);
  EXPECT_EQ(context->applicationtags(1), "b");
}

TEST(SubmissionJsonTest, LeftOutFieldsTakeTheDaoDefaults) {
  auto context = From(R"({"application-id":"application_1_0002"})");
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  // The DAO's "", not the protocol's "N/A" / "YARN".
  EXPECT_TRUE(context->has_application_name());
  EXPECT_EQ(context->application_name(), "");
  EXPECT_TRUE(context->has_applicationtype());
  EXPECT_EQ(context->applicationtype(), "");
  EXPECT_EQ(context->maxappattempts(), 0);
  EXPECT_EQ(context->attempt_failures_validity_interval(), -1);
  EXPECT_EQ(context->resource().memory(), 0);
  EXPECT_FALSE(context->unmanaged_am());
  EXPECT_FALSE(context->has_log_aggregation_context());
  EXPECT_FALSE(context->has_reservation_id());
  EXPECT_EQ(context->am_container_spec().tokens(), std::string("HDTS\0\0\0", 7));
}

TEST(SubmissionJsonTest, ScalarsAsStringsAndBareEntriesAsJerseyReadsThem) {
  auto context = From(R"({"application-id":"application_1_0003", "max-app-attempts":"3",
      "unmanaged-AM":"true", "priority": "5", "resource": {"memory":"512", "vCores":"2"},
      "am-container-spec": {"environment": {"entry": {"key":"A", "value":"1"}},
                            "commands": {"command": ["a", "b"]},
                            "application-acls": {"entry": [{"key":"VIEW_APP","value":"bob"},
                                                           {"key":"MODIFY_APP","value":"carol"}]}},
      "application-tags": {"tag": "only"}})");
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  EXPECT_EQ(context->maxappattempts(), 3);
  EXPECT_TRUE(context->unmanaged_am());
  EXPECT_EQ(context->priority().priority(), 5);
  EXPECT_EQ(context->resource().virtual_cores(), 2);
  const auto& spec = context->am_container_spec();
  ASSERT_EQ(spec.environment_size(), 1);
  EXPECT_EQ(spec.environment(0).value(), "1");
  ASSERT_EQ(spec.command_size(), 2);
  ASSERT_EQ(spec.application_acls_size(), 2);
  EXPECT_EQ(spec.application_acls(0).accesstype(), y::APPACCESS_VIEW_APP);
  EXPECT_EQ(spec.application_acls(1).acl(), "carol");
  ASSERT_EQ(context->applicationtags_size(), 1);
}

TEST(SubmissionJsonTest, CredentialsAndServiceDataAreDecoded) {
  std::string token;
  rm::WriteText("ident", &token);
  rm::WriteText("secret", &token);
  rm::WriteText("RM_DELEGATION_TOKEN", &token);
  rm::WriteText("", &token);
  std::string url_token = Base64Encode(token);
  // Token.encodeToUrlString: URL-safe alphabet, no padding.
  for (char& c : url_token) c = c == '+' ? '-' : c == '/' ? '_' : c;
  while (!url_token.empty() && url_token.back() == '=') url_token.pop_back();
  auto context = From(R"({"application-id":"application_1_0004", "am-container-spec": {
      "credentials": {"tokens": {"entry": [{"key":"rm-dt", "value":")" +
                      url_token + R"("}]},
                      "secrets": {"entry": [{"key":"s3", "value":")" +
                      Base64Encode("k3y") + R"("}]}},
      "service-data": {"entry": [{"key":"mapreduce_shuffle", "value":")" +
                      Base64Encode("\x01\x02") + R"("}, {"key":"empty", "value":""}]}}})");
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  auto credentials = rm::Credentials::Parse(context->am_container_spec().tokens());
  ASSERT_TRUE(credentials.ok()) << credentials.status().ToString();
  const rm::Token* parsed = credentials->FindToken("rm-dt");
  ASSERT_NE(parsed, nullptr);
  EXPECT_EQ(parsed->identifier, "ident");
  EXPECT_EQ(parsed->kind, "RM_DELEGATION_TOKEN");
  ASSERT_NE(credentials->FindSecret("s3"), nullptr);
  EXPECT_EQ(*credentials->FindSecret("s3"), "k3y");
  ASSERT_EQ(context->am_container_spec().service_data_size(), 1);  // empty values dropped
  EXPECT_EQ(context->am_container_spec().service_data(0).value(), "\x01\x02");
}

TEST(SubmissionJsonTest, BadInputIsABadRequestWithHadoopsMessage) {
  EXPECT_THAT(From(R"({"application-name":"x"})").status().message(),
              HasSubstr("Could not parse application id "));
  EXPECT_THAT(From(R"({"application-id":"app_1"})").status().message(),
              HasSubstr("Could not parse application id app_1"));
  EXPECT_EQ(From(R"({"application-id":"application_1_1", "resource":{"memory":9000}})")
                .status()
                .message(),
            "Requested more memory than configured max");
  EXPECT_EQ(
      From(R"({"application-id":"application_1_1", "resource":{"vCores":5}})").status().message(),
      "Requested more cores than configured max");
  EXPECT_THAT(From(R"({"application-id":"application_1_1", "am-container-spec": {"credentials":
                {"tokens": {"entry": {"key":"t", "value":"%%%"}}}}})")
                  .status()
                  .message(),
              HasSubstr("Could not parse credentials data; exception message = "));
  EXPECT_THAT(From(R"({"application-id":"application_1_1", "am-container-spec": {"local-resources":
                {"entry": {"key":"j", "value": {"resource":"file:///j", "type":"JAR"}}}}})")
                  .status()
                  .message(),
              HasSubstr("'JAR' is not one of ARCHIVE, FILE, PATTERN"));
  EXPECT_THAT(From(R"({"application-id":"application_1_1", "am-container-spec": {"local-resources":
                {"entry": {"key":"j", "value": {"resource":"file:///j", "size": 0}}}}})")
                  .status()
                  .message(),
              HasSubstr("size must be greater than 0"));
  EXPECT_THAT(
      From(R"({"application-id":"application_1_1", "max-app-attempts": "two"})").status().message(),
      HasSubstr("max-app-attempts: expected an integer, got 'two'"));
  EXPECT_THAT(
      From(R"({"application-id":"application_1_1", "reservation-id": "r_1"})").status().message(),
      HasSubstr("reservation id r_1 is invalid"));
  EXPECT_FALSE(SubmissionContextFromJson(Parse("[1]"), SubmissionLimits{}).ok());
}

TEST(SubmissionJsonTest, UrisAsUrlFromUriSplitsThem) {
  auto context = From(R"({"application-id":"application_1_0005", "am-container-spec": {
      "local-resources": {"entry": [
        {"key":"a", "value": {"resource":"file:/tmp/a.sh?x=1#f"}},
        {"key":"b", "value": {"resource":"hdfs://u@nn/b"}}]}}})");
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  const auto& a = context->am_container_spec().localresources(0).value().resource();
  EXPECT_EQ(a.scheme(), "file");
  EXPECT_FALSE(a.has_host());
  EXPECT_EQ(a.port(), -1);
  EXPECT_EQ(a.file(), "/tmp/a.sh");
  const auto& b = context->am_container_spec().localresources(1).value().resource();
  EXPECT_EQ(b.userinfo(), "u");
  EXPECT_EQ(b.host(), "nn");
  EXPECT_EQ(b.port(), -1);
  EXPECT_EQ(b.file(), "/b");
}

}  // namespace
}  // namespace spindle::web::rest
