#include "nm_shim/agent/web/container_logs_routes.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <variant>

#include "base/markup_escape.h"
#include "nm_shim/agent/web/container_log_files.h"
#include "rm/records/yarn_ids.h"

namespace spindle::nm {
namespace {

std::string Escape(std::string_view text) { return EscapeMarkup(text); }

std::string EncodeSegment(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

web::HttpResponse Page(int status, const std::string& title, const std::string& body) {
  std::string html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" +
                     Escape(title) + "</title></head>\n<body>\n" + body + "</body></html>\n";
  web::HttpResponse response = web::HttpResponse::Html(status, std::move(html));
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

web::HttpResponse Heading(int status, const std::string& title, const std::string& message) {
  return Page(status, title, "<h1>" + Escape(message) + "</h1>\n");
}

struct Target {
  std::string container;
  std::string user;
  std::vector<std::string> log_dirs;  // the container's, existing ones only
};

// Resolves the {container} of the request to its existing log dirs, or the
// answer that refuses it.
std::variant<Target, web::HttpResponse> Resolve(const web::HttpRequest& request,
                                                const ContainerLogsOptions& options) {
  Target t;
  t.container = request.PathParam("container");
  t.user = request.PathParam("user");
  const std::string title = "Logs for " + t.container;
  Result<rm::ContainerId> id = rm::ContainerId::Parse(t.container);
  if (!id.ok()) return Heading(400, title, "Invalid container ID: " + t.container);
  Result<std::vector<std::string>> dirs = ExistingContainerLogDirs(options.log_dirs, *id);
  if (!dirs.ok()) return Heading(404, title, dirs.status().message());
  t.log_dirs = std::move(dirs).value();
  return t;
}

web::HttpResponse ListLogs(const web::HttpRequest& request, const ContainerLogsOptions& options) {
  auto resolved = Resolve(request, options);
  if (auto* refused = std::get_if<web::HttpResponse>(&resolved)) return std::move(*refused);
  const Target& t = std::get<Target>(resolved);
  const std::vector<LogFileInfo> files = ListLogFiles(t.log_dirs);
  const std::string title = "Logs for " + t.container;
  if (files.empty()) return Heading(200, title, "No logs available for container " + t.container);
  std::string body = "<h2>Local Logs:</h2>\n";
  for (const LogFileInfo& file : files) {
    body += "<p><a href=\"" + Escape(ContainerLogFilePath(t.container, t.user, file.name)) +
            "?start=-4096\">" + Escape(file.name) + " : Total file length is " +
            std::to_string(file.size) + " bytes.</a></p>\n";
  }
  return Page(200, title, body);
}

web::HttpResponse ShowLog(const web::HttpRequest& request, const ContainerLogsOptions& options) {
  auto resolved = Resolve(request, options);
  if (auto* refused = std::get_if<web::HttpResponse>(&resolved)) return std::move(*refused);
  const Target& t = std::get<Target>(resolved);
  const std::string file = request.PathParam("file");
  const std::string title = "Logs for " + t.container;
  Result<OpenLogFile> log = OpenContainerLogFile(t.log_dirs, file);
  if (!log.ok()) return Heading(404, title, log.status().message());
  Result<std::optional<int64_t>> start_param = LongQueryParam(request, "start");
  Result<std::optional<int64_t>> end_param = LongQueryParam(request, "end");
  if (!start_param.ok() || !end_param.ok()) {
    return Heading(400, title,
                   (!start_param.ok() ? start_param.status() : end_param.status()).message());
  }
  // ContainerLogsPage.printLocalLogFile's arithmetic.
  const int64_t length = log->info().size;
  int64_t start = start_param->value_or(-4 * 1024);
  start = start < 0 ? length + start : start;
  start = std::max<int64_t>(start, 0);
  int64_t end = end_param->value_or(length);
  end = end < 0 ? length + end : end;
  end = end < 0 || end > length ? length : end;
  if (start > end) {
    return Heading(400, title,
                   "Invalid start and end values. Start: [" + std::to_string(start) + "], end[" +
                       std::to_string(end) + "]");
  }
  start = std::max(start, end - kMaxLogBytesPerPage);
  Result<std::string> text = log->Read(start, end);
  if (!text.ok()) return Heading(500, title, "Exception reading log file " + file);
  std::string body;
  const int64_t shown = static_cast<int64_t>(text->size());
  if (shown < length) {
    body += "<p>Showing " + std::to_string(shown) + " bytes. Click <a href=\"" +
            Escape(ContainerLogFilePath(t.container, t.user, file)) +
            "?start=0\">here</a> for full log</p>\n";
  }
  body += "<pre>" + Escape(*text) + "</pre>\n";
  return Page(200, title, body);
}

}  // namespace

Result<std::optional<int64_t>> LongQueryParam(const web::HttpRequest& request,
                                              std::string_view name) {
  std::optional<std::string> text = request.Query(name);
  if (!text.has_value() || text->empty()) return std::optional<int64_t>();
  // Long.parseLong takes a '+' sign too; from_chars only '-'.
  const char* first = text->data();
  const char* last = text->data() + text->size();
  if (text->size() > 1 && *first == '+' && first[1] != '-') ++first;
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr != last) {
    return Status::InvalidArgument("Invalid value for " + std::string(name) + ": " + *text);
  }
  return std::optional<int64_t>(value);
}

std::string ContainerLogFilePath(const std::string& container, const std::string& user,
                                 const std::string& file) {
  return "/node/containerlogs/" + EncodeSegment(container) + "/" + EncodeSegment(user) + "/" +
         EncodeSegment(file);
}

void AddContainerLogRoutes(web::Router* router, const ContainerLogsOptions& options) {
  router->Add(web::HttpMethod::kGet, "/node/containerlogs/{container}/{user}",
              [options](const web::HttpRequest& r) { return ListLogs(r, options); });
  router->Add(web::HttpMethod::kGet, "/node/containerlogs/{container}/{user}/{file}",
              [options](const web::HttpRequest& r) { return ShowLog(r, options); });
}

}  // namespace spindle::nm
