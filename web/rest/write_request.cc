#include "web/rest/write_request.h"

#include <algorithm>
#include <cctype>

#include "base/json/json_stream.h"
#include "web/rest/rest_response.h"
#include "web/rest/xml_body.h"

namespace spindle::web::rest {

namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The media type of the body, without parameters ("application/json").
std::string MediaType(const HttpRequest& request) {
  std::string type = Lower(request.Header("Content-Type"));
  type = type.substr(0, type.find(';'));
  type.erase(std::remove_if(type.begin(), type.end(),
                            [](unsigned char c) { return std::isspace(c) != 0; }),
             type.end());
  return type;
}

// Jersey refuses a body of a type the resource does not consume with a bare
// WebApplicationException, which GenericExceptionHandler answers with 415.
HttpResponse UnsupportedMediaType(const HttpRequest& request) {
  RestError error;
  error.status = 415;
  error.exception = "WebApplicationException";
  error.java_class = "javax.ws.rs.WebApplicationException";
  error.message = "Unsupported Media Type: '" + request.Header("Content-Type") +
                  "' (the body must be application/json or application/xml)";
  return RenderError(request, error);
}

}  // namespace

std::optional<json::JsonValue> ReadBody(const HttpRequest& request, const std::string& xml_root,
                                        HttpResponse* response) {
  const std::string type = MediaType(request);
  Result<json::JsonValue> body = Status::InvalidArgument("");
  if (type == "application/json" || (type.size() > 5 && type.ends_with("+json"))) {
    auto stream = json::JsonStream::FromString("request body", request.body);
    json::JsonValue value;
    Result<bool> read = stream->Next(&value);
    if (!read.ok()) {
      body = read.status();
    } else if (!*read) {
      body = Status::InvalidArgument("the request body is empty");
    } else {
      json::JsonValue extra;
      Result<bool> more = stream->Next(&extra);
      if (!more.ok()) {
        body = more.status();
      } else if (*more) {
        body = Status::InvalidArgument("the request body holds more than one JSON value");
      } else {
        body = std::move(value);
      }
    }
  } else if (BodyIsXml(request)) {
    body = XmlBodyAsJson(request.body, xml_root);
  } else {
    *response = UnsupportedMediaType(request);
    return std::nullopt;
  }
  if (!body.ok()) {
    *response = RenderError(
        request, RestError::BadRequest("cannot read the request body: " + body.status().message()));
    return std::nullopt;
  }
  return std::move(body).value();
}

bool BodyIsXml(const HttpRequest& request) {
  const std::string type = MediaType(request);
  return type == "application/xml" || type == "text/xml";
}

std::string RequestUrl(const HttpRequest& request) {
  std::string host = request.Header("Host");
  if (host.empty()) host = "localhost";
  return "http://" + host + request.path;
}

ipc::ConnectionIdentity Who(const HttpRequest& request, const WebCallerOptions& callers) {
  ipc::ConnectionIdentity who;
  who.user = WebCaller(request, callers);
  who.remote_address = request.remote_address;
  return who;
}

}  // namespace spindle::web::rest
