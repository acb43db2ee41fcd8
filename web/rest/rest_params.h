// Parsing of REST path and query parameters the way Hadoop's web services
// parse them, with Hadoop's error for bad input (for the read endpoints
// and the write endpoints alike).
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rm/records/yarn_ids.h"
#include "web/rest/rest_response.h"

namespace spindle::web::rest {

// WebAppUtils.parseApplicationId: BadRequestException wrapping
// ApplicationId.fromString's IllegalArgumentException:
// "java.lang.IllegalArgumentException: Invalid ApplicationId prefix: <id>.
// The valid ApplicationId should start with prefix application" or
// "java.lang.IllegalArgumentException: Invalid ApplicationId: <id>".
std::optional<rm::ApplicationId> ParseAppIdParam(const std::string& text, RestError* error);

// The comma-separated values of every occurrence of a query parameter,
// trimmed, blanks dropped (WebServices.parseQueries, without case folding).
std::vector<std::string> SplitQueries(const std::vector<std::string>& values);

// parseQueries(values, isState=true): lower-case YarnApplicationState names,
// or BadRequestException "Invalid application-state <s> specified. It should
// be one of [NEW, ..., KILLED]".
std::optional<std::set<std::string>> ParseAppStates(const std::vector<std::string>& values,
                                                    RestError* error);

// The YarnApplicationStateProto number (NEW = 1 .. KILLED = 8) of a state
// name in any case; nullopt if unknown.
std::optional<int> YarnAppStateNumber(const std::string& name);

// Java's Long.parseLong: an optional sign and decimal digits, in range.
bool ParseJavaLong(const std::string& text, int64_t* out);

std::string LowerAscii(std::string s);
std::string UpperAscii(std::string s);

}  // namespace spindle::web::rest
