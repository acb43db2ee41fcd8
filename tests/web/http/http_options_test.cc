#include "web/http/http_options.h"

#include <gtest/gtest.h>

namespace spindle::web {
namespace {

TEST(HttpServerOptionsTest, DefaultsWhenNothingIsSet) {
  rm::Configuration conf;
  auto options = HttpServerOptions::FromConfiguration(conf, "0.0.0.0", 8088);
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->bind_host, "0.0.0.0");
  EXPECT_EQ(options->port, 8088);
  EXPECT_EQ(options->worker_threads, HttpServerOptions::kDefaultWorkerThreads);
  EXPECT_EQ(options->worker_threads, 4);
  EXPECT_EQ(options->max_request_header_bytes, 65536);
  EXPECT_EQ(options->idle_timeout, std::chrono::milliseconds(60000));
  EXPECT_EQ(options->max_request_body_bytes, 1 << 20);
  EXPECT_EQ(options->max_queued_requests, 64);
  EXPECT_EQ(options->max_connections, 256);
  EXPECT_EQ(options->max_connections_per_address, 64);
  EXPECT_EQ(options->listen_backlog, 128);
  EXPECT_EQ(options->header_timeout, std::chrono::milliseconds(10000));
  EXPECT_EQ(options->request_timeout, std::chrono::milliseconds(30000));
  EXPECT_EQ(options->handler_nice, 10);
}

TEST(HttpServerOptionsTest, ReadsEveryKey) {
  rm::Configuration conf;
  conf.Set("hadoop.http.max.threads", "7");
  conf.Set("hadoop.http.max.request.header.size", "8192");
  conf.Set("hadoop.http.idle_timeout.ms", "1500");
  conf.Set("spindle.http.max-request-body-bytes", "1000");
  conf.Set("spindle.http.max-queued-requests", "0");
  conf.Set("spindle.http.max-connections", "3");
  conf.Set("spindle.http.request-timeout-ms", " 250 ");
  conf.Set("spindle.http.handler-nice", "0");
  conf.Set("spindle.http.max-connections-per-address", "0");
  conf.Set("hadoop.http.socket.backlog.size", "1024");
  conf.Set("spindle.http.header-timeout-ms", "750");
  auto options = HttpServerOptions::FromConfiguration(conf, "127.0.0.1", 0);
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->worker_threads, 7);
  EXPECT_EQ(options->max_request_header_bytes, 8192);
  EXPECT_EQ(options->idle_timeout, std::chrono::milliseconds(1500));
  EXPECT_EQ(options->max_request_body_bytes, 1000);
  EXPECT_EQ(options->max_queued_requests, 0);
  EXPECT_EQ(options->max_connections, 3);
  EXPECT_EQ(options->request_timeout, std::chrono::milliseconds(250));
  EXPECT_EQ(options->handler_nice, 0);
  EXPECT_EQ(options->max_connections_per_address, 0);
  EXPECT_EQ(options->listen_backlog, 1024);
  EXPECT_EQ(options->header_timeout, std::chrono::milliseconds(750));
}

TEST(HttpServerOptionsTest, MinusOneThreadsMeansTheDefault) {
  rm::Configuration conf;
  conf.Set("hadoop.http.max.threads", "-1");
  auto options = HttpServerOptions::FromConfiguration(conf, "127.0.0.1", 0);
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->worker_threads, HttpServerOptions::kDefaultWorkerThreads);
}

struct BadValue {
  const char* key;
  const char* value;
};

class HttpServerOptionsBadValueTest : public testing::TestWithParam<BadValue> {};

TEST_P(HttpServerOptionsBadValueTest, IsInvalidArgumentNamingKeyAndValue) {
  rm::Configuration conf;
  ASSERT_TRUE(conf.AddResourceString(std::string("<configuration><property><name>") +
                                         GetParam().key + "</name><value>" + GetParam().value +
                                         "</value></property></configuration>",
                                     "yarn-site.xml")
                  .ok());
  auto options = HttpServerOptions::FromConfiguration(conf, "127.0.0.1", 0);
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().code(), Status::Code::kInvalidArgument);
  const std::string message = options.status().message();
  EXPECT_NE(message.find(GetParam().key), std::string::npos) << message;
  EXPECT_NE(message.find(GetParam().value), std::string::npos) << message;
  EXPECT_NE(message.find("yarn-site.xml"), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(EveryKey, HttpServerOptionsBadValueTest,
                         testing::Values(BadValue{"hadoop.http.max.threads", "0"},
                                         BadValue{"hadoop.http.max.threads", "-2"},
                                         BadValue{"hadoop.http.max.threads", "many"},
                                         BadValue{"hadoop.http.max.threads", "5000"},
                                         BadValue{"hadoop.http.max.request.header.size", "0"},
                                         BadValue{"hadoop.http.max.request.header.size", "64k"},
                                         BadValue{"hadoop.http.idle_timeout.ms", "0"},
                                         BadValue{"hadoop.http.idle_timeout.ms", "-5"},
                                         BadValue{"spindle.http.max-request-body-bytes", "-1"},
                                         BadValue{"spindle.http.max-request-body-bytes", "1MB"},
                                         BadValue{"spindle.http.max-queued-requests", "-1"},
                                         BadValue{"spindle.http.max-queued-requests", "x"},
                                         BadValue{"spindle.http.max-connections", "0"},
                                         BadValue{"spindle.http.max-connections", "1.5"},
                                         BadValue{"spindle.http.request-timeout-ms", "0"},
                                         BadValue{"spindle.http.request-timeout-ms", "soon"},
                                         BadValue{"spindle.http.handler-nice", "20"},
                                         BadValue{"spindle.http.handler-nice", "-1"},
                                         BadValue{"spindle.http.max-connections-per-address", "-1"},
                                         BadValue{"hadoop.http.socket.backlog.size", "0"},
                                         BadValue{"spindle.http.header-timeout-ms", "0"},
                                         BadValue{"spindle.http.header-timeout-ms", "10s"}));

}  // namespace
}  // namespace spindle::web
