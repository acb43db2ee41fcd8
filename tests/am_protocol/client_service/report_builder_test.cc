// Tracking URLs follow the RM web app's bound port (ReportBuilder::
// SetWebAppPort) when they point at the RM's own web app.
#include "am_protocol/client_service/report_builder.h"

#include <gtest/gtest.h>

#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/client_service/record_protos.h"

namespace spindle::client_service {
namespace {

TEST(ReportBuilderTest, ProxyUrlCarriesTheBoundWebPort) {
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.webapp.address", "127.0.0.1:0");
  auto options = ClientRmServiceOptions::FromConfiguration(conf);
  ASSERT_TRUE(options.ok());
  EXPECT_TRUE(options->reports.proxy_is_rm_webapp);
  ReportBuilder reports(options->reports, SystemClock::Get());
  const rm::ApplicationId app{1700000000000, 3};
  // Before the web app started, the configured address is all there is.
  EXPECT_EQ(reports.ProxyUrl(app), "http://127.0.0.1:0/proxy/application_1700000000000_0003/");
  reports.SetWebAppPort(41234);
  EXPECT_EQ(reports.ProxyUrl(app), "http://127.0.0.1:41234/proxy/application_1700000000000_0003/");
}

TEST(ReportBuilderTest, AWebProxyAddressIsKeptAsConfigured) {
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.webapp.address", "127.0.0.1:0");
  conf.Set("yarn.web-proxy.address", "proxy.example:9046");
  auto options = ClientRmServiceOptions::FromConfiguration(conf);
  ASSERT_TRUE(options.ok());
  EXPECT_FALSE(options->reports.proxy_is_rm_webapp);
  ReportBuilder reports(options->reports, SystemClock::Get());
  reports.SetWebAppPort(41234);
  EXPECT_EQ(reports.ProxyUrl(rm::ApplicationId{1700000000000, 3}),
            "http://proxy.example:9046/proxy/application_1700000000000_0003/");
}

// What a report's final status prints as (record_protos.h): Hadoop's
// FinalApplicationStatus names, never the proto's APP_ ones.
TEST(ReportBuilderTest, FinalStatusesPrintAsHadoopPrintsThem) {
  EXPECT_EQ(rm::Name(FromProto(hadoop::yarn::APP_UNDEFINED)), "UNDEFINED");
  EXPECT_EQ(rm::Name(FromProto(hadoop::yarn::APP_SUCCEEDED)), "SUCCEEDED");
  EXPECT_EQ(rm::Name(FromProto(hadoop::yarn::APP_FAILED)), "FAILED");
  EXPECT_EQ(rm::Name(FromProto(hadoop::yarn::APP_KILLED)), "KILLED");
  EXPECT_EQ(rm::Name(FromProto(hadoop::yarn::APP_ENDED)), "ENDED");
}

}  // namespace
}  // namespace spindle::client_service
