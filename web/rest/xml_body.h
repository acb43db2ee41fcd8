// XmlBodyAsJson: a request body in XML (Content-Type: application/xml) as
// the JsonValue tree the JSON readers take, the way JAXB would bind it: an
// element with child elements becomes an object (a name that repeats
// becomes an array, in order), any other element its text as a string.
// Attributes and comments are ignored; the parser expands no external
// entities. `expected_root` must name the document element (Jersey refuses
// another root).
//
// Errors: InvalidArgument naming the line of malformed XML or the root.
// Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "base/json/json_value.h"
#include "base/result.h"

namespace spindle::web::rest {

Result<json::JsonValue> XmlBodyAsJson(std::string_view xml, const std::string& expected_root);

}  // namespace spindle::web::rest
