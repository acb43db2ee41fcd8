#include "web/rest/rest_document.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace spindle::web::rest {
namespace {

TEST(JavaFloatStringTest, MatchesJavaToString) {
  EXPECT_EQ(JavaFloatString(0.0f), "0.0");
  EXPECT_EQ(JavaFloatString(-0.0f), "-0.0");
  EXPECT_EQ(JavaFloatString(1.0f), "1.0");
  EXPECT_EQ(JavaFloatString(100.0f), "100.0");
  EXPECT_EQ(JavaFloatString(12.5f), "12.5");
  EXPECT_EQ(JavaFloatString(33.333332f), "33.333332");
  EXPECT_EQ(JavaFloatString(0.1f), "0.1");
  EXPECT_EQ(JavaFloatString(0.001f), "0.001");
  EXPECT_EQ(JavaFloatString(0.0001f), "1.0E-4");
  EXPECT_EQ(JavaFloatString(1.5e-5f), "1.5E-5");
  EXPECT_EQ(JavaFloatString(1234567.0f), "1234567.0");
  EXPECT_EQ(JavaFloatString(1.0e7f), "1.0E7");
  EXPECT_EQ(JavaFloatString(-2.5f), "-2.5");
  EXPECT_EQ(JavaFloatString(std::numeric_limits<float>::quiet_NaN()), "NaN");
  EXPECT_EQ(JavaFloatString(std::numeric_limits<float>::infinity()), "INF");
  EXPECT_EQ(JavaDoubleString(0.5), "0.5");
  EXPECT_EQ(JavaDoubleString(1e21), "1.0E21");
  EXPECT_EQ(JavaDoubleString(1.0 / 3), "0.3333333333333333");
}

TEST(RestDocumentTest, ScalarsInOrder) {
  RestNode body;
  body.Int("id", 1476912658570)
      .Str("state", "STARTED")
      .Float("progress", 50.0f)
      .Bool("unmanagedApplication", false)
      .OptStr("absent", std::nullopt)
      .OptStr("present", std::string("x"));
  RestDocument doc("clusterInfo", body);
  EXPECT_EQ(doc.ToJson(), R"({"clusterInfo":{"id":1476912658570,"state":"STARTED","progress":50.0,)"
                          R"("unmanagedApplication":false,"present":"x"}})");
  EXPECT_EQ(doc.ToXml(),
            R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
            R"(<clusterInfo><id>1476912658570</id><state>STARTED</state>)"
            R"(<progress>50.0</progress><unmanagedApplication>false</unmanagedApplication>)"
            R"(<present>x</present></clusterInfo>)");
}

TEST(RestDocumentTest, UnwrappedRootIsLeftOutOfJsonOnly) {
  RestNode body;
  body.Str("application-id", "application_1_0001");
  RestDocument doc("NewApplication", body, RestDocument::JsonRoot::kUnwrapped);
  EXPECT_EQ(doc.ToJson(), R"({"application-id":"application_1_0001"})");
  EXPECT_EQ(doc.ToXml(), R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
                         R"(<NewApplication><application-id>application_1_0001</application-id>)"
                         R"(</NewApplication>)");
}

TEST(RestDocumentTest, EmptyCollectionIsEmptyObject) {
  RestNode apps;
  apps.Items("app", {});
  RestDocument doc("apps", apps);
  EXPECT_EQ(doc.ToJson(), R"({"apps":{}})");
  EXPECT_EQ(doc.ToXml(), R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?><apps/>)");
}

TEST(RestDocumentTest, OneItemIsStillAnArray) {
  RestNode app;
  app.Str("id", "application_1_0001");
  RestNode apps;
  apps.Items("app", {app});
  RestDocument doc("apps", apps);
  EXPECT_EQ(doc.ToJson(), R"({"apps":{"app":[{"id":"application_1_0001"}]}})");
  EXPECT_EQ(doc.ToXml(), R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
                         R"(<apps><app><id>application_1_0001</id></app></apps>)");
}

TEST(RestDocumentTest, RepeatedElementsAndStringLists) {
  RestNode a, b;
  a.Str("id", "a");
  b.Str("id", "b");
  RestNode node;
  node.StrItems("nodeLabels", {"x", "y"}).StrItems("none", {}).Items("n", {a, b});
  RestDocument doc("node", node);
  EXPECT_EQ(doc.ToJson(), R"({"node":{"nodeLabels":["x","y"],"n":[{"id":"a"},{"id":"b"}]}})");
  EXPECT_EQ(doc.ToXml(), R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
                         R"(<node><nodeLabels>x</nodeLabels><nodeLabels>y</nodeLabels>)"
                         R"(<n><id>a</id></n><n><id>b</id></n></node>)");
}

TEST(RestDocumentTest, EscapingAndEmptyStrings) {
  RestNode body;
  body.Str("diagnostics", "").Str("msg", "a \"q\" & <b>\n\x01/");
  RestDocument doc("app", body);
  // Jersey 1 escapes the solidus too.
  EXPECT_EQ(doc.ToJson(), R"({"app":{"diagnostics":"","msg":"a \"q\" & <b>\n\u0001\/"}})");
  EXPECT_EQ(doc.ToXml(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
            "<app><diagnostics></diagnostics>"
            "<msg>a \"q\" &amp; &lt;b&gt;\n\x01/</msg></app>");
}

TEST(RestDocumentTest, XsiTypeIsJsonTypeFieldAndXmlAttributeDeclaredOnce) {
  RestNode leaf;
  leaf.SetXsiType("capacitySchedulerLeafQueueInfo").Str("queueName", "default");
  RestNode queues;
  queues.Items("queue", {leaf});
  RestNode info;
  info.SetXsiType("capacityScheduler").Float("capacity", 100.0f).Put("queues", queues);
  RestNode body;
  body.Put("schedulerInfo", info);
  RestDocument doc("scheduler", body);
  EXPECT_EQ(doc.ToJson(),
            R"({"scheduler":{"schedulerInfo":{"type":"capacityScheduler","capacity":100.0,)"
            R"("queues":{"queue":[{"type":"capacitySchedulerLeafQueueInfo",)"
            R"("queueName":"default"}]}}}})");
  EXPECT_EQ(doc.ToXml(),
            R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?><scheduler>)"
            R"(<schedulerInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" )"
            R"(xsi:type="capacityScheduler"><capacity>100.0</capacity><queues>)"
            R"(<queue xsi:type="capacitySchedulerLeafQueueInfo"><queueName>default</queueName>)"
            R"(</queue></queues></schedulerInfo></scheduler>)");
}

TEST(RestDocumentTest, NonFiniteFloatsStayValidJson) {
  RestNode body;
  body.Float("f", std::numeric_limits<float>::quiet_NaN());
  RestDocument doc("x", body);
  EXPECT_EQ(doc.ToJson(), R"({"x":{"f":0.0}})");
  EXPECT_EQ(doc.ToXml(),
            R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?><x><f>NaN</f></x>)");
}

TEST(RestDocumentTest, FindLooksUpFields) {
  RestNode body;
  body.Int("a", 1).Str("b", "two");
  ASSERT_NE(body.Find("b"), nullptr);
  EXPECT_EQ(body.Find("b")->text(), "two");
  EXPECT_EQ(body.Find("a")->kind(), RestNode::Kind::kNumber);
  EXPECT_EQ(body.Find("c"), nullptr);
  EXPECT_EQ(body.size(), 2u);
}

}  // namespace
}  // namespace spindle::web::rest
