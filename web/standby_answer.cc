#include "web/standby_answer.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <random>
#include <set>

#include "base/markup_escape.h"

namespace spindle::web {

namespace {

constexpr char kRefreshParam[] = "next.refresh.interval";
// RMWebAppFilter's BASIC_SLEEP_TIME and MAX_SLEEP_TIME, seconds.
constexpr int64_t kBasicSleepSeconds = 5;
constexpr int64_t kMaxSleepSeconds = 5 * 60;

double ThreadLocalUniform() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(generator);
}

// Query text as a browser would send it back: unreserved bytes as they
// are, everything else %XX.
std::string Encode(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// Java's Integer.parseInt(text.trim()).
std::optional<int64_t> ParseJavaInt(std::string text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.erase(0, 1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.pop_back();
  if (!text.empty() && text.front() == '+') text.erase(0, 1);
  int32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// HtmlQuoting.quoteHtmlChars: & < > " ' as entities, which is
// EscapeMarkup's kAll.
std::string QuoteHtml(const std::string& text) { return EscapeMarkup(text, MarkupEscape::kAll); }

// The request's parameters encoded again, in request order; `bump` replaces
// (or appends) next.refresh.interval with that value.
std::string EncodedQuery(const HttpRequest& request, std::optional<int64_t> bump) {
  std::string query;
  bool replaced = false;
  for (const auto& [name, value] : request.query) {
    if (!query.empty()) query += '&';
    if (bump.has_value() && name == kRefreshParam) {
      query += std::string(kRefreshParam) + "=" + std::to_string(*bump);
      replaced = true;
    } else {
      query += Encode(name) + "=" + Encode(value);
    }
  }
  if (bump.has_value() && !replaced) {
    if (!query.empty()) query += '&';
    query += std::string(kRefreshParam) + "=" + std::to_string(*bump);
  }
  return query;
}

// RMWebAppFilter's answer when the active RM is found.
HttpResponse RedirectToActive(const HttpRequest& request, const std::string& active_url) {
  const std::string query = EncodedQuery(request, std::nullopt);
  const std::string path = QuoteHtml(request.path);
  const std::string with_query = query.empty() ? path : path + "?" + query;
  // getHtmlEscapedURIWithQueryString: path and query each quoted.
  const std::string shown = query.empty() ? path : path + "?" + QuoteHtml(query);
  HttpResponse response =
      HttpResponse::Text(307, "This is standby RM. The redirect url is: " + shown + "\n");
  response.headers.emplace_back("Location", active_url + with_query);
  return response;
}

}  // namespace

bool AnsweredWhileStandby(const std::string& path) {
  static const std::set<std::string> kNotRedirected = {"/ws/v1/cluster/info",
                                                       "/cluster/cluster",
                                                       "/conf",
                                                       "/stacks",
                                                       "/logLevel",
                                                       "/logs",
                                                       "/isActive",
                                                       "/jmx",
                                                       "/prom",
                                                       "/metrics"};
  return kNotRedirected.count(path) != 0 || path.rfind("/proxy/", 0) == 0;
}

std::optional<HttpResponse> StandbyAnswer(const HttpRequest& request, const rm::ClientFacade& core,
                                          const StandbyAnswerOptions& options) {
  if (core.ha_state() != rm::HaState::kStandby || AnsweredWhileStandby(request.path)) {
    return std::nullopt;
  }
  if (options.find_active_url) {
    if (std::optional<std::string> active = options.find_active_url(); active.has_value()) {
      return RedirectToActive(request, *active);
    }
  }
  bool retry = true;
  int64_t interval = 0;
  if (auto text = request.Query(kRefreshParam); text.has_value()) {
    std::optional<int64_t> parsed = ParseJavaInt(*text);
    if (parsed.has_value()) {
      interval = *parsed;
    } else {
      retry = false;
    }
  }
  // calculateExponentialTime: 5 x 2^k (a long), times U[0.5, 1.5), to int.
  const double uniform = options.uniform ? options.uniform() : ThreadLocalUniform();
  const int64_t base = interval >= 0 && interval < 62 ? kBasicSleepSeconds << interval : 0;
  const auto next = static_cast<int64_t>(static_cast<double>(base) * (uniform + 0.5));
  if (next > kMaxSleepSeconds) retry = false;
  // appendOrReplaceParamter: the request's query with the interval bumped.
  const std::string query = EncodedQuery(request, interval + 1);
  std::string text =
      retry ? "Can not find any active RM. Will retry in next " + std::to_string(next) + " seconds."
            : "There is no active RM right now.";
  text += "\nHA Zookeeper Connection State: " + options.ha_zookeeper_connection_state + "\n";
  HttpResponse response = HttpResponse::Text(retry ? 307 : 200, std::move(text));
  if (retry) {
    response.headers.emplace_back(
        "Refresh", std::to_string(next) + ";url=" + options.self_url + request.path + "?" + query);
  }
  return response;
}

}  // namespace spindle::web
