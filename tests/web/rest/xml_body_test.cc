#include "web/rest/xml_body.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "web/rest/submission_json.h"

namespace spindle::web::rest {
namespace {

using ::testing::HasSubstr;

TEST(XmlBodyTest, BindsElementsAsJaxbWould) {
  auto body = XmlBodyAsJson(R"(<?xml version="1.0" encoding="UTF-8"?>
<application-submission-context>
  <application-id>application_1404203615263_0001</application-id>
  <application-name>test</application-name>
  <am-container-spec>
    <local-resources>
      <entry><key>example</key><value><resource>hdfs://nn:9000/x.jar</resource><type>FILE</type>
        <visibility>APPLICATION</visibility><size>43004</size><timestamp>1405452071209</timestamp></value></entry>
    </local-resources>
    <commands><command>sleep 1 &amp;&amp; echo</command></commands>
    <environment>
      <entry><key>A</key><value>1</value></entry>
      <entry><key>B</key><value> 2 </value></entry>
    </environment>
  </am-container-spec>
  <max-app-attempts>2</max-app-attempts>
  <resource><memory>1024</memory><vCores>1</vCores></resource>
  <application-tags><tag>a</tag><tag>b</tag></application-tags>
</application-submission-context>)",
                            "application-submission-context");
  ASSERT_TRUE(body.ok()) << body.status().ToString();
  auto context = SubmissionContextFromJson(*body, SubmissionLimits{});
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  EXPECT_EQ(context->application_id().id(), 1);
  EXPECT_EQ(context->maxappattempts(), 2);
  EXPECT_EQ(context->resource().memory(), 1024);
  const auto& spec = context->am_container_spec();
  ASSERT_EQ(spec.localresources_size(), 1);
  EXPECT_EQ(spec.localresources(0).value().size(), 43004);
  ASSERT_EQ(spec.command_size(), 1);
  EXPECT_EQ(spec.command(0), "sleep 1 && echo");
  ASSERT_EQ(spec.environment_size(), 2);
  EXPECT_EQ(spec.environment(1).value(), " 2 ");  // text kept as sent
  ASSERT_EQ(context->applicationtags_size(), 2);
}

TEST(XmlBodyTest, RefusesMalformedXmlAndOtherRoots) {
  EXPECT_THAT(XmlBodyAsJson("<appstate><state>KILLED</state>", "appstate").status().message(),
              HasSubstr("malformed XML"));
  EXPECT_THAT(XmlBodyAsJson("<other/>", "appstate").status().message(),
              HasSubstr("expected <appstate>"));
  EXPECT_THAT(XmlBodyAsJson("", "appstate").status().message(), HasSubstr("no <appstate>"));
  auto empty = XmlBodyAsJson("<appstate/>", "appstate");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->is_object());
}

}  // namespace
}  // namespace spindle::web::rest
