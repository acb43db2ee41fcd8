// Standard Base64 (RFC 4648 alphabet, '=' padding, no line breaks): the form
// Hadoop uses for DIGEST-MD5 usernames and passwords derived from tokens.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle {

std::string Base64Encode(std::string_view bytes);
// The URL-safe alphabet ('-' and '_' for '+' and '/') without padding, as
// commons-codec's url-safe encoder writes (Token.encodeToUrlString).
std::string Base64UrlEncode(std::string_view bytes);
// Fails on characters outside the alphabet or a bad length/padding.
Result<std::string> Base64Decode(std::string_view text);
// Also accepts the URL-safe alphabet ('-' and '_') and missing padding, as
// commons-codec's decoder does for the values Hadoop's REST API takes
// (Token.decodeFromUrlString, credentials secrets, service data). Other
// characters still fail.
Result<std::string> Base64DecodeLenient(std::string_view text);

}  // namespace spindle
