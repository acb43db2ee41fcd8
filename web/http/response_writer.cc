#include "web/http/response_writer.h"

#include <strings.h>

#include <ctime>
#include <string_view>

namespace spindle::web {
namespace {

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

bool Printable(std::string_view text) {
  return text.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

bool ServerOwned(std::string_view name) {
  return SameName(name, "Content-Length") || SameName(name, "Transfer-Encoding") ||
         SameName(name, "Connection") || SameName(name, "Date") || SameName(name, "Content-Type");
}

}  // namespace

std::string HttpDate(std::chrono::system_clock::time_point when) {
  const std::time_t t = std::chrono::system_clock::to_time_t(when);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  const size_t n = std::strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return std::string(buf, n);
}

std::string SerializeResponse(const HttpResponse& response, const ResponseFraming& framing,
                              const std::string& date) {
  const int status = response.status >= 100 && response.status <= 999 ? response.status : 500;
  const bool no_body = status < 200 || status == 204 || status == 304;
  std::string out;
  out.reserve(256 + response.body.size());
  out += "HTTP/1.1 ";
  out += std::to_string(status);
  out += ' ';
  out += StatusReason(status);
  out += "\r\n";
  auto field = [&out](std::string_view name, std::string_view value) {
    out.append(name);
    out += ": ";
    out.append(value);
    out += "\r\n";
  };
  field("Date", date);
  field("Content-Type", Printable(response.content_type) && !response.content_type.empty()
                            ? std::string_view(response.content_type)
                            : std::string_view("application/octet-stream"));
  if (!no_body) field("Content-Length", std::to_string(response.body.size()));
  field("Connection", framing.keep_alive ? "keep-alive" : "close");
  bool has_cache_control = false;
  for (const auto& [name, value] : response.headers) {
    if (name.empty() || !Printable(name) || !Printable(value) || ServerOwned(name)) continue;
    if (name.find(':') != std::string::npos) continue;
    if (SameName(name, "Cache-Control")) has_cache_control = true;
    field(name, value);
  }
  if (!has_cache_control) field("Cache-Control", "no-cache");
  out += "\r\n";
  if (!no_body && !framing.head) out += response.body;
  return out;
}

}  // namespace spindle::web
