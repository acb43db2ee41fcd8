#include "web/rest/rest_params.h"

#include <cctype>
#include <charconv>
#include <utility>

#include "base/strings/trim.h"
#include "web/rest/app_info.h"

namespace spindle::web::rest {

namespace {

constexpr char kIllegalArgument[] = "java.lang.IllegalArgumentException";

std::string AllYarnStates() {
  std::string out = "[";
  for (const auto& name : YarnAppStateNames()) {
    if (out.size() > 1) out += ", ";
    out += name;
  }
  return out + "]";
}

}  // namespace

std::string LowerAscii(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string UpperAscii(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::optional<rm::ApplicationId> ParseAppIdParam(const std::string& text, RestError* error) {
  if (text.rfind("application_", 0) != 0) {
    *error = RestError::BadRequestCause(kIllegalArgument,
                                        "Invalid ApplicationId prefix: " + text +
                                            ". The valid ApplicationId should start with prefix "
                                            "application");
    return std::nullopt;
  }
  auto id = rm::ApplicationId::Parse(text);
  if (!id.ok()) {
    *error = RestError::BadRequestCause(kIllegalArgument, "Invalid ApplicationId: " + text);
    return std::nullopt;
  }
  return *id;
}

std::vector<std::string> SplitQueries(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& value : values) {
    size_t start = 0;
    while (start <= value.size()) {
      size_t comma = value.find(',', start);
      if (comma == std::string::npos) comma = value.size();
      std::string part(TrimBlanks(std::string_view(value).substr(start, comma - start)));
      if (!part.empty()) out.push_back(std::move(part));
      start = comma + 1;
    }
  }
  return out;
}

std::optional<int> YarnAppStateNumber(const std::string& name) {
  const auto& names = YarnAppStateNames();
  const std::string upper = UpperAscii(name);
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == upper) return static_cast<int>(i) + 1;
  }
  return std::nullopt;
}

std::optional<std::set<std::string>> ParseAppStates(const std::vector<std::string>& values,
                                                    RestError* error) {
  std::set<std::string> states;
  for (const auto& part : SplitQueries(values)) {
    if (!YarnAppStateNumber(part).has_value()) {
      *error = RestError::BadRequest("Invalid application-state " + part +
                                     " specified. It should be one of " + AllYarnStates());
      return std::nullopt;
    }
    states.insert(LowerAscii(part));
  }
  return states;
}

bool ParseJavaLong(const std::string& text, int64_t* out) {
  if (text.empty()) return false;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (*begin == '+') ++begin;
  if (begin == end || (*begin == '-' && text[0] == '+')) return false;
  auto [ptr, ec] = std::from_chars(begin, end, *out);
  return ec == std::errc() && ptr == end;
}

}  // namespace spindle::web::rest
