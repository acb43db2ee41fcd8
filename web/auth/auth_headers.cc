#include "web/auth/auth_headers.h"

#include <strings.h>

#include <ctime>
#include <string_view>

#include "base/base64.h"

namespace spindle::web::auth {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  return text;
}

std::string HttpCookieDate(int64_t epoch_millis) {
  const std::time_t seconds = static_cast<std::time_t>(epoch_millis / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char text[64];
  std::snprintf(text, sizeof(text), "%s, %02d-%s-%04d %02d:%02d:%02d GMT", kDays[utc.tm_wday],
                utc.tm_mday, kMonths[utc.tm_mon], utc.tm_year + 1900, utc.tm_hour, utc.tm_min,
                utc.tm_sec);
  return text;
}

}  // namespace

Result<std::optional<std::string>> NegotiateToken(const HttpRequest& request) {
  const std::string authorization = request.Header("Authorization");
  if (authorization.rfind(kNegotiate, 0) != 0) return std::optional<std::string>();
  const std::string_view encoded =
      Trim(std::string_view(authorization).substr(sizeof(kNegotiate) - 1));
  if (encoded.empty()) return Status::InvalidArgument("the Negotiate header carries no token");
  Result<std::string> token = Base64Decode(encoded);
  if (!token.ok()) {
    return Status::InvalidArgument("the Negotiate token is not Base64: " +
                                   token.status().message());
  }
  return std::optional<std::string>(std::move(token).value());
}

std::optional<std::string> AuthCookieValue(const HttpRequest& request) {
  for (const auto& [name, value] : request.headers) {
    if (strcasecmp(name.c_str(), "Cookie") != 0) continue;
    std::string_view rest = value;
    while (!rest.empty()) {
      const size_t semicolon = rest.find(';');
      const std::string_view pair = Trim(rest.substr(0, semicolon));
      rest = semicolon == std::string_view::npos ? std::string_view() : rest.substr(semicolon + 1);
      const size_t eq = pair.find('=');
      if (eq == std::string_view::npos || Trim(pair.substr(0, eq)) != kAuthCookieName) continue;
      std::string_view cookie = Trim(pair.substr(eq + 1));
      if (cookie.size() >= 2 && cookie.front() == '"' && cookie.back() == '"') {
        cookie = cookie.substr(1, cookie.size() - 2);
      }
      return std::string(cookie);
    }
  }
  return std::nullopt;
}

std::string AuthCookieHeader(const std::string& value, int64_t expires_millis,
                             const AuthCookieAttributes& attributes) {
  std::string header = std::string(kAuthCookieName) + "=";
  if (!value.empty()) header += "\"" + value + "\"";
  if (attributes.path.has_value()) header += "; Path=" + *attributes.path;
  if (attributes.domain.has_value()) header += "; Domain=" + *attributes.domain;
  if (expires_millis >= 0 && attributes.persistent) {
    header += "; Expires=" + HttpCookieDate(expires_millis);
  }
  header += "; HttpOnly";
  return header;
}

}  // namespace spindle::web::auth
