// NmConnectRetryPolicy against Hadoop's ServerProxy.createRetryPolicy
// (2.6.5 and 3.3.0) and yarn-default.xml (max-wait 180000, interval 10000).
#include "nm_shim/am_launcher/nm_connect_retry_policy.h"

#include <gtest/gtest.h>

#include "rm/config/configuration.h"

namespace spindle::nm_shim {
namespace {

using std::chrono::milliseconds;

TEST(NmConnectRetryPolicyTest, DefaultsAreHadoops) {
  rm::Configuration conf;
  auto policy = NmConnectRetryPolicy::FromConfiguration(conf);
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  EXPECT_EQ(policy->max_wait_ms, 180000);
  EXPECT_EQ(policy->retry_interval_ms, 10000);
}

TEST(NmConnectRetryPolicyTest, RetriesConnectionFailuresUpToMaxWaitOverInterval) {
  NmConnectRetryPolicy policy;  // 180000 / 10000: 18 retries, 10 s apart
  const Status refused = Status::IoError("cannot connect to host1:45454: Connection refused");
  for (int64_t done = 0; done < 18; ++done) {
    ASSERT_EQ(policy.NextDelay(refused, done), milliseconds(10000)) << done;
  }
  EXPECT_EQ(policy.NextDelay(refused, 18), std::nullopt);
  // -1: forever.
  policy.max_wait_ms = -1;
  EXPECT_EQ(policy.NextDelay(refused, 1'000'000), milliseconds(10000));
}

TEST(NmConnectRetryPolicyTest, OnlyTheExceptionsHadoopMapsAreRetried) {
  // EOFException / SocketException / ConnectException / ConnectTimeout.
  EXPECT_TRUE(NmConnectRetryPolicy::IsRetriable(Status::IoError("connection reset")));
  EXPECT_TRUE(NmConnectRetryPolicy::IsRetriable(Status::Aborted("connection closed")));
  EXPECT_TRUE(
      NmConnectRetryPolicy::IsRetriable(Status::TimedOut("connecting to host1:45454 timed out")));
  EXPECT_TRUE(NmConnectRetryPolicy::IsRetriable(
      Status::Remote("org.apache.hadoop.yarn.exceptions.NMNotYetReadyException", "not ready")));
  EXPECT_TRUE(NmConnectRetryPolicy::IsRetriable(
      Status::Remote("org.apache.hadoop.ipc.RetriableException", "later")));
  // TRY_ONCE_THEN_FAIL for the rest: the node refused the container, a call
  // timed out on an open connection, authentication failed.
  EXPECT_FALSE(NmConnectRetryPolicy::IsRetriable(
      Status::Remote("org.apache.hadoop.yarn.exceptions.YarnException", "already started")));
  EXPECT_FALSE(NmConnectRetryPolicy::IsRetriable(Status::TimedOut("call 7 timed out")));
  EXPECT_FALSE(NmConnectRetryPolicy::IsRetriable(Status::Unauthorized("bad token")));
  NmConnectRetryPolicy policy;
  EXPECT_EQ(policy.NextDelay(Status::Unauthorized("bad token"), 0), std::nullopt);
}

TEST(NmConnectRetryPolicyTest, RefusesWhatHadoopsPreconditionsRefuse) {
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"yarn.client.nodemanager-connect.max-wait-ms", "0"},
           {"yarn.client.nodemanager-connect.max-wait-ms", "-2"},
           {"yarn.client.nodemanager-connect.retry-interval-ms", "0"}}) {
    rm::Configuration conf;
    ASSERT_TRUE(conf.AddResourceString("<configuration><property><name>" + key + "</name><value>" +
                                           value + "</value></property></configuration>",
                                       "yarn-site.xml")
                    .ok());
    auto policy = NmConnectRetryPolicy::FromConfiguration(conf);
    ASSERT_FALSE(policy.ok()) << key << "=" << value;
    EXPECT_NE(policy.status().message().find(key), std::string::npos);
  }
}

}  // namespace
}  // namespace spindle::nm_shim
