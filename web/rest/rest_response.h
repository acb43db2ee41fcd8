// Content negotiation and error answers for the REST API, as Hadoop's RM
// web services give them.
//
// Negotiation: the resources produce application/json (preferred) and
// application/xml. The Accept header's media ranges are tried by q-value
// (then specificity); the first that matches a produced type wins. No
// Accept header, "*/*" or "application/*" give JSON. When nothing matches
// (Accept: text/plain) the answer is 406 with a NotAcceptableException
// body in JSON, as Hadoop 3.4+ (Jersey 2) answers; Hadoop 3.3 (Jersey 1)
// answered 500 with no useful body there.
//
// Errors: RemoteExceptionData, {"RemoteException":{"exception":<simple
// class name>,"message":<text>,"javaClassName":<class name>}} (message
// omitted when absent), with the status GenericExceptionHandler maps the
// exception class to: NotFound 404, BadRequest / IllegalArgument /
// UnsupportedOperation 400, Forbidden 403, Authorization and Security 401
// (Hadoop maps AuthorizationException to UNAUTHORIZED, not 403), NotAcceptable
// 406, anything else 500 (INTERNAL_SERVER_ERROR: GenericExceptionHandler's
// default in every line, 2.6.0 through 3.3; none answers 503).
//
// Thread-safety: free functions over values.
#pragma once

#include <optional>
#include <string>

#include "web/http/http_message.h"
#include "web/rest/rest_document.h"

namespace spindle::web::rest {

enum class RestFormat { kJson, kXml };

// The format the request accepts, or nullopt if it accepts neither.
std::optional<RestFormat> NegotiateFormat(const HttpRequest& request);

// A Java exception the REST layer answers with.
struct RestError {
  int status = 500;
  // Simple and full Java class names: "NotFoundException",
  // "org.apache.hadoop.yarn.webapp.NotFoundException".
  std::string exception;
  std::string java_class;
  std::optional<std::string> message;

  // Builds the error for `java_class`, its status from Hadoop's mapping.
  static RestError Of(std::string java_class, std::optional<std::string> message);

  // Hadoop's own webapp exceptions built from a message (new
  // NotFoundException("...")) wrap it in a java.lang.Exception, and Jersey 1
  // (Hadoop <= 3.3) reports the wrapper's message: "java.lang.Exception:
  // <message>" (TestRMWebServicesApps expects "java.lang.Exception: app with
  // id: application_00000_0099 not found"). These add that prefix.
  static RestError NotFound(const std::string& message);    // 404
  static RestError BadRequest(const std::string& message);  // 400
  static RestError Forbidden(const std::string& message);   // 403
  // new BadRequestException(cause): the cause's toString(), e.g.
  // "java.lang.IllegalArgumentException: Invalid ApplicationId: <id>".
  static RestError BadRequestCause(const std::string& cause_class, const std::string& message);
  // Java exceptions thrown as they are carry their message unchanged.
  static RestError IllegalArgument(std::string message);  // 400
  static RestError Authorization(std::string message);    // 401
  static RestError NotAcceptable();                       // 406
};

// The status GenericExceptionHandler gives an exception of `java_class`.
int StatusForException(const std::string& java_class);

// The RemoteException document of `error`.
RestDocument ErrorDocument(const RestError& error);

// `document` (status `status`) in the negotiated format; 406 if none.
HttpResponse RenderDocument(const HttpRequest& request, const RestDocument& document,
                            int status = 200);
// `error` in the negotiated format (JSON if none).
HttpResponse RenderError(const HttpRequest& request, const RestError& error);

// A String entity (Response.status(s).entity("...")) of a resource that
// produces JSON and XML: the text as it is, typed by the negotiated format
// (JSON if none).
HttpResponse TextEntity(const HttpRequest& request, int status, std::string text);

}  // namespace spindle::web::rest
