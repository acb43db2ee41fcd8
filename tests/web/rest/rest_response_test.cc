#include "web/rest/rest_response.h"

#include <gtest/gtest.h>

namespace spindle::web::rest {
namespace {

HttpRequest WithAccept(const std::string& accept) {
  HttpRequest request;
  if (!accept.empty()) request.headers.emplace_back("Accept", accept);
  return request;
}

TEST(NegotiateFormatTest, DefaultsAndWildcardsGiveJson) {
  EXPECT_EQ(NegotiateFormat(WithAccept("")), RestFormat::kJson);
  EXPECT_EQ(NegotiateFormat(WithAccept("*/*")), RestFormat::kJson);
  EXPECT_EQ(NegotiateFormat(WithAccept("application/*")), RestFormat::kJson);
  EXPECT_EQ(NegotiateFormat(WithAccept("application/json")), RestFormat::kJson);
  EXPECT_EQ(NegotiateFormat(WithAccept("Application/JSON; charset=utf-8")), RestFormat::kJson);
}

TEST(NegotiateFormatTest, XmlAndQValues) {
  EXPECT_EQ(NegotiateFormat(WithAccept("application/xml")), RestFormat::kXml);
  EXPECT_EQ(NegotiateFormat(WithAccept("application/json;q=0.5, application/xml")),
            RestFormat::kXml);
  EXPECT_EQ(NegotiateFormat(WithAccept("application/xml;q=0.9, application/json;q=0.95")),
            RestFormat::kJson);
  EXPECT_EQ(NegotiateFormat(WithAccept("text/html, application/xml;q=0.9, */*;q=0.8")),
            RestFormat::kXml);
  // More specific beats a wildcard of the same q.
  EXPECT_EQ(NegotiateFormat(WithAccept("*/*, application/xml")), RestFormat::kXml);
  EXPECT_EQ(NegotiateFormat(WithAccept("application/json;q=0, application/xml;q=0.1")),
            RestFormat::kXml);
}

TEST(NegotiateFormatTest, UnsupportedTypesAreNotAcceptable) {
  EXPECT_EQ(NegotiateFormat(WithAccept("text/plain")), std::nullopt);
  EXPECT_EQ(NegotiateFormat(WithAccept("application/json;q=0")), std::nullopt);
  // Garbage is ignored rather than fatal.
  EXPECT_EQ(NegotiateFormat(WithAccept("garbage,;;,/")), RestFormat::kJson);
}

TEST(RestErrorTest, HadoopStatusMapping) {
  EXPECT_EQ(RestError::NotFound("x").status, 404);
  EXPECT_EQ(RestError::BadRequest("x").status, 400);
  EXPECT_EQ(RestError::IllegalArgument("x").status, 400);
  EXPECT_EQ(RestError::Forbidden("x").status, 403);
  EXPECT_EQ(RestError::Authorization("x").status, 401);
  EXPECT_EQ(RestError::NotAcceptable().status, 406);
  EXPECT_EQ(RestError::Of("java.lang.UnsupportedOperationException", "x").status, 400);
  EXPECT_EQ(RestError::Of("java.io.IOException", "x").status, 404);
  // Unmapped exceptions: INTERNAL_SERVER_ERROR, GenericExceptionHandler's
  // default in 2.6.0, 2.7.7 and 3.3.0 alike.
  EXPECT_EQ(RestError::Of("org.apache.hadoop.yarn.exceptions.YarnException", "x").status, 500);
  EXPECT_EQ(RestError::Of("java.lang.NullPointerException", std::nullopt).status, 500);
  EXPECT_EQ(RestError().status, 500);
  EXPECT_EQ(RestError::Of("org.apache.hadoop.yarn.exceptions.YarnException", "x").exception,
            "YarnException");
  // Hadoop's webapp exceptions wrap their message (Jersey 1); causes show
  // as toString(); plain Java exceptions keep theirs.
  EXPECT_EQ(RestError::NotFound("gone").message, "java.lang.Exception: gone");
  EXPECT_EQ(RestError::Forbidden("no").message, "java.lang.Exception: no");
  EXPECT_EQ(RestError::BadRequestCause("java.lang.IllegalArgumentException", "bad").message,
            "java.lang.IllegalArgumentException: bad");
  EXPECT_EQ(RestError::BadRequestCause("java.lang.IllegalArgumentException", "bad").status, 400);
  EXPECT_EQ(RestError::IllegalArgument("plain").message, "plain");
}

TEST(RestErrorTest, JsonGolden) {
  HttpResponse response =
      RenderError(HttpRequest{}, RestError::NotFound("app with id: application_1_0009 not found"));
  EXPECT_EQ(response.status, 404);
  EXPECT_EQ(response.content_type, "application/json; charset=utf-8");
  EXPECT_EQ(response.body,
            R"({"RemoteException":{"exception":"NotFoundException",)"
            R"("message":"java.lang.Exception: app with id: application_1_0009 not found",)"
            R"("javaClassName":"org.apache.hadoop.yarn.webapp.NotFoundException"}})");
}

TEST(RestErrorTest, XmlGoldenAndAbsentMessage) {
  RestError error =
      RestError::Of("org.apache.hadoop.yarn.webapp.BadRequestException", std::nullopt);
  HttpResponse response = RenderError(WithAccept("application/xml"), error);
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(response.content_type, "application/xml; charset=utf-8");
  EXPECT_EQ(response.body,
            R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?><RemoteException>)"
            R"(<exception>BadRequestException</exception>)"
            R"(<javaClassName>org.apache.hadoop.yarn.webapp.BadRequestException</javaClassName>)"
            R"(</RemoteException>)");
}

TEST(RenderDocumentTest, NegotiatesOrRefuses) {
  RestNode body;
  body.Str("state", "RUNNING");
  RestDocument doc("appstate", body);
  HttpResponse json = RenderDocument(HttpRequest{}, doc);
  EXPECT_EQ(json.status, 200);
  EXPECT_EQ(json.body, R"({"appstate":{"state":"RUNNING"}})");
  HttpResponse xml = RenderDocument(WithAccept("application/xml"), doc, 202);
  EXPECT_EQ(xml.status, 202);
  EXPECT_EQ(xml.body, R"(<?xml version="1.0" encoding="UTF-8" standalone="yes"?>)"
                      R"(<appstate><state>RUNNING</state></appstate>)");
  HttpResponse refused = RenderDocument(WithAccept("text/plain"), doc);
  EXPECT_EQ(refused.status, 406);
  EXPECT_EQ(refused.content_type, "application/json; charset=utf-8");
  EXPECT_EQ(
      refused.body,
      R"({"RemoteException":{"exception":"NotAcceptableException",)"
      R"("message":"HTTP 406 Not Acceptable","javaClassName":"javax.ws.rs.NotAcceptableException"}})");
  // Errors for a client that accepts nothing we make still come as JSON.
  EXPECT_EQ(RenderError(WithAccept("text/plain"), RestError::NotFound("x")).content_type,
            "application/json; charset=utf-8");
}

}  // namespace
}  // namespace spindle::web::rest
