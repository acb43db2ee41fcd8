// /conf as Hadoop's ConfServlet: XML and JSON shapes, ?name=, formats,
// finals and sources, and ConfigRedactor's redaction.
#include "web/metrics/conf_servlet.h"

#include <gtest/gtest.h>

#include "tests/web/metrics/metrics_fixture.h"

namespace spindle::web {
namespace {

using testing::ParseJson;
using testing::StrField;

rm::Configuration Conf() {
  rm::Configuration conf;
  EXPECT_TRUE(conf.AddResourceString(
                      "<configuration>"
                      "<property><name>yarn.resourcemanager.hostname</name><value>rm1</value>"
                      "<final>true</final></property>"
                      "<property><name>yarn.resourcemanager.address</name>"
                      "<value>${yarn.resourcemanager.hostname}:8032</value></property>"
                      "<property><name>ssl.server.keystore.password</name><value>hunter2</value>"
                      "</property>"
                      "<property><name>fs.s3a.secret.key</name><value>abc</value></property>"
                      "<property><name>my.odd</name><value>a&lt;b&amp;c</value></property>"
                      "</configuration>",
                      "yarn-site.xml")
                  .ok());
  conf.Set("spindle.set.in.code", "1");
  return conf;
}

HttpRequest Request(std::vector<std::pair<std::string, std::string>> query,
                    std::string accept = "") {
  HttpRequest request;
  request.path = "/conf";
  request.query = std::move(query);
  if (!accept.empty()) request.headers.emplace_back("Accept", accept);
  return request;
}

TEST(ConfServletTest, XmlByDefaultWithRawValuesFinalsAndSources) {
  const rm::Configuration conf = Conf();
  const HttpResponse response = HandleConf(Request({}), conf);
  ASSERT_EQ(response.status, 200);
  EXPECT_EQ(response.content_type, "text/xml; charset=utf-8");
  const std::string& xml = response.body;
  EXPECT_EQ(
      xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?><configuration>", 0),
      0u);
  EXPECT_NE(xml.find("<property><name>yarn.resourcemanager.hostname</name><value>rm1</value>"
                     "<final>true</final><source>yarn-site.xml</source></property>"),
            std::string::npos)
      << xml;
  // writeXml shows values as written.
  EXPECT_NE(xml.find("<value>${yarn.resourcemanager.hostname}:8032</value><final>false</final>"),
            std::string::npos);
  EXPECT_NE(xml.find("<name>spindle.set.in.code</name><value>1</value><final>false</final>"
                     "<source>programmatically</source>"),
            std::string::npos);
  EXPECT_NE(xml.find("<value>a&lt;b&amp;c</value>"), std::string::npos);
  EXPECT_NE(xml.find("<name>ssl.server.keystore.password</name><value>&lt;redacted&gt;</value>"),
            std::string::npos);
  EXPECT_EQ(xml.find("hunter2"), std::string::npos);
  EXPECT_EQ(xml.substr(xml.size() - 16), "</configuration>");
}

TEST(ConfServletTest, JsonByFormatOrAcceptWithExpandedValues) {
  const rm::Configuration conf = Conf();
  for (const HttpRequest& request :
       {Request({{"format", "json"}}), Request({}, "application/json")}) {
    const HttpResponse response = HandleConf(request, conf);
    ASSERT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json; charset=utf-8");
    const json::JsonValue root = ParseJson(response.body);
    const json::JsonValue* properties = root.Find("properties");
    ASSERT_NE(properties, nullptr);
    EXPECT_EQ(properties->elements().size(), 6u);
    bool seen = false;
    for (const json::JsonValue& p : properties->elements()) {
      const std::string key = StrField(p, "key");
      if (key == "yarn.resourcemanager.address") {
        seen = true;
        EXPECT_EQ(StrField(p, "value"), "rm1:8032");  // dumpConfiguration expands
        EXPECT_FALSE(p.Find("isFinal")->bool_value());
        EXPECT_EQ(StrField(p, "resource"), "yarn-site.xml");
      }
      if (key == "yarn.resourcemanager.hostname") {
        EXPECT_TRUE(p.Find("isFinal")->bool_value());
      }
      if (key == "fs.s3a.secret.key") {
        EXPECT_EQ(StrField(p, "value"), "<redacted>");
      }
    }
    EXPECT_TRUE(seen);
  }
}

TEST(ConfServletTest, NameSelectsOnePropertyOr404) {
  const rm::Configuration conf = Conf();
  HttpResponse response =
      HandleConf(Request({{"name", "yarn.resourcemanager.hostname"}, {"format", "json"}}), conf);
  ASSERT_EQ(response.status, 200);
  const json::JsonValue root = ParseJson(response.body);
  const json::JsonValue* property = root.Find("property");
  ASSERT_NE(property, nullptr);
  EXPECT_EQ(StrField(*property, "key"), "yarn.resourcemanager.hostname");
  EXPECT_EQ(StrField(*property, "value"), "rm1");

  response = HandleConf(Request({{"name", "my.odd"}}), conf);
  ASSERT_EQ(response.status, 200);
  EXPECT_NE(response.body.find("<configuration><property><name>my.odd</name>"), std::string::npos);
  EXPECT_EQ(response.body.find("yarn.resourcemanager"), std::string::npos);

  response = HandleConf(Request({{"name", "no.such.key"}}), conf);
  EXPECT_EQ(response.status, 404);
  EXPECT_EQ(response.body, "Property no.such.key not found");
}

TEST(ConfServletTest, BadFormatIs400) {
  const HttpResponse response = HandleConf(Request({{"format", "yaml"}}), Conf());
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(response.body, "Bad format: yaml");
}

TEST(ConfServletTest, SensitiveKeysFollowTheConfiguredList) {
  rm::Configuration conf = Conf();
  ConfigRedactor defaults(conf);
  EXPECT_TRUE(defaults.IsSensitive("ssl.server.keystore.password"));
  EXPECT_TRUE(defaults.IsSensitive("fs.azure.account.key.foo"));
  EXPECT_TRUE(defaults.IsSensitive("hadoop.security.sensitive-config-keys"));
  EXPECT_FALSE(defaults.IsSensitive("yarn.resourcemanager.hostname"));
  // The list is the configuration's own; a bad regex is ignored.
  conf.Set("hadoop.security.sensitive-config-keys", " hostname$ , [unclosed ");
  ConfigRedactor custom(conf);
  EXPECT_TRUE(custom.IsSensitive("yarn.resourcemanager.hostname"));
  EXPECT_FALSE(custom.IsSensitive("ssl.server.keystore.password"));
  const HttpResponse response = HandleConf(Request({{"format", "json"}}), conf);
  EXPECT_NE(
      response.body.find("{\"key\":\"yarn.resourcemanager.hostname\",\"value\":\"<redacted>\""),
      std::string::npos)
      << response.body;
  EXPECT_NE(response.body.find("hunter2"), std::string::npos);
}

}  // namespace
}  // namespace spindle::web
