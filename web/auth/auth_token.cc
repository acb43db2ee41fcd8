#include "web/auth/auth_token.h"

#include <charconv>
#include <map>

namespace spindle::web::auth {
namespace {

Result<int64_t> ParseMillis(const std::string& text, const char* name) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    return Status::InvalidArgument(std::string("Invalid authentication token: ") + name + "=" +
                                   text + " is not a number");
  }
  return value;
}

}  // namespace

std::string AuthToken::ToString() const {
  std::string text = "u=" + user + "&p=" + principal + "&t=" + type + "&";
  if (max_inactives != -1) text += "i=" + std::to_string(max_inactives) + "&";
  text += "e=" + std::to_string(expires);
  return text;
}

bool AuthToken::IsExpired(int64_t now_millis) const {
  return (max_inactives != -1 && now_millis > max_inactives) ||
         (expires != -1 && now_millis > expires);
}

Result<AuthToken> AuthToken::Parse(std::string_view text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    text = text.substr(1, text.size() - 2);
  }
  std::map<std::string, std::string, std::less<>> attributes;
  while (!text.empty()) {
    const size_t amp = text.find('&');
    const std::string_view part = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    if (eq == std::string_view::npos) {
      return Status::InvalidArgument("Invalid authentication token");
    }
    attributes[std::string(part.substr(0, eq))] = std::string(part.substr(eq + 1));
  }
  for (const char* required : {"u", "p", "e", "t"}) {
    if (!attributes.contains(required)) {
      return Status::InvalidArgument("Invalid token string, missing attributes");
    }
  }
  AuthToken token;
  token.user = attributes["u"];
  token.principal = attributes["p"];
  token.type = attributes["t"];
  for (const auto& [name, value] :
       {std::pair{"userName", &token.user}, std::pair{"principal", &token.principal},
        std::pair{"type", &token.type}}) {
    if (value->empty() || value->find('&') != std::string::npos) {
      return Status::InvalidArgument(std::string(name) + " is NULL, empty or contains a '&'");
    }
  }
  ASSIGN_OR_RETURN(token.expires, ParseMillis(attributes["e"], "e"));
  if (auto i = attributes.find("i"); i != attributes.end()) {
    ASSIGN_OR_RETURN(token.max_inactives, ParseMillis(i->second, "i"));
  }
  return token;
}

}  // namespace spindle::web::auth
