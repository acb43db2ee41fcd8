// What every write endpoint of /ws/v1/cluster reads from its request: the
// body (JSON or XML, as Jersey unmarshals the resource's @Consumes types),
// the caller as the RPC side sees a connection, and the request's own URL
// (for Location headers).
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "base/json/json_value.h"
#include "web/http/http_message.h"
#include "web/rest/web_caller.h"
#include "wire/ipc/connection_identity.h"

namespace spindle::web::rest {

// The body as a JSON tree: a JSON body as it is, an XML body (application/
// xml or text/xml) whose root must be `xml_root` as the tree of its
// children. nullopt with *response set when it cannot be read: 415 for
// another media type (Jersey's bare WebApplicationException), 400
// BadRequestException for a body that does not parse.
std::optional<json::JsonValue> ReadBody(const HttpRequest& request, const std::string& xml_root,
                                        HttpResponse* response);

// Whether the body is XML (application/xml or text/xml): ReadBody then
// gives the children of its root.
bool BodyIsXml(const HttpRequest& request);

// "http://<Host header>/<path>" (Host "localhost" if absent).
std::string RequestUrl(const HttpRequest& request);

// The web caller (web_caller.h) as the identity ClientRmService checks.
ipc::ConnectionIdentity Who(const HttpRequest& request, const WebCallerOptions& callers);

}  // namespace spindle::web::rest
