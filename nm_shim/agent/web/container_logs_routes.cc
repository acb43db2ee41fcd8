#include "nm_shim/agent/web/container_logs_routes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <optional>
#include <variant>

#include "base/markup_escape.h"
#include "nm_shim/agent/process/container_paths.h"
#include "rm/records/yarn_ids.h"

namespace spindle::nm {
namespace {

namespace fs = std::filesystem;

// ContainerLogsUtils.getApplicationForContainer's message.
constexpr char kUnknownContainer[] =
    "Unknown container. Container either has not started or has already completed or doesn't "
    "belong to this node at all.";
// ContainerLogsUtils.getContainerLogFile's message.
constexpr char kNoSuchLog[] = "Cannot find this log on the local disk.";

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
  for (const std::string& dir :
       ContainerLogDirs(options.log_dirs, id->attempt.app.ToString(), id->ToString())) {
    std::error_code ec;
    if (fs::is_directory(fs::symlink_status(dir, ec))) t.log_dirs.push_back(dir);
  }
  if (t.log_dirs.empty()) return Heading(404, title, kUnknownContainer);
  return t;
}

web::HttpResponse ListLogs(const web::HttpRequest& request, const ContainerLogsOptions& options) {
  auto resolved = Resolve(request, options);
  if (auto* refused = std::get_if<web::HttpResponse>(&resolved)) return std::move(*refused);
  const Target& t = std::get<Target>(resolved);
  std::vector<std::pair<std::string, uintmax_t>> files;
  for (const std::string& dir : t.log_dirs) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code status_ec;
      if (!it->is_regular_file(status_ec) || it->is_symlink(status_ec)) continue;
      const uintmax_t size = it->file_size(status_ec);
      if (status_ec) continue;
      files.emplace_back(it->path().filename().string(), size);
    }
  }
  std::sort(files.begin(), files.end());
  const std::string title = "Logs for " + t.container;
  if (files.empty()) return Heading(200, title, "No logs available for container " + t.container);
  std::string body = "<h2>Local Logs:</h2>\n";
  for (const auto& [name, size] : files) {
    body += "<p><a href=\"" + Escape(ContainerLogFilePath(t.container, t.user, name)) +
            "?start=-4096\">" + Escape(name) + " : Total file length is " + std::to_string(size) +
            " bytes.</a></p>\n";
  }
  return Page(200, title, body);
}

bool PlainFileName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\0", 2)) == std::string::npos;
}

// A query parameter as a long; nullopt if absent, an error if not a number.
Result<std::optional<int64_t>> LongParam(const web::HttpRequest& request, std::string_view name) {
  std::optional<std::string> text = request.Query(name);
  if (!text.has_value() || text->empty()) return std::optional<int64_t>();
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || ptr != text->data() + text->size()) {
    return Status::InvalidArgument("Invalid value for " + std::string(name) + ": " + *text);
  }
  return std::optional<int64_t>(value);
}

// Opens `path` only if it is a regular file itself (no symbolic link, no
// FIFO or device): the fd, or -1.
int OpenRegular(const std::string& path, int64_t* size) {
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -1;
  }
  *size = st.st_size;
  return fd;
}

Result<std::string> ReadRange(int fd, int64_t start, int64_t end) {
  std::string text(static_cast<size_t>(end - start), '\0');
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = pread(fd, text.data() + done, text.size() - done,
                            static_cast<off_t>(start + static_cast<int64_t>(done)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::IoError(std::string("read: ") + strerror(errno));
    if (n == 0) break;  // the file shrank meanwhile
    done += static_cast<size_t>(n);
  }
  text.resize(done);
  return text;
}

web::HttpResponse ShowLog(const web::HttpRequest& request, const ContainerLogsOptions& options) {
  auto resolved = Resolve(request, options);
  if (auto* refused = std::get_if<web::HttpResponse>(&resolved)) return std::move(*refused);
  const Target& t = std::get<Target>(resolved);
  const std::string file = request.PathParam("file");
  const std::string title = "Logs for " + t.container;
  if (!PlainFileName(file)) return Heading(404, title, kNoSuchLog);
  // The first log dir that has it (LocalDirsHandlerService.getLogPathToRead).
  int64_t length = 0;
  int fd = -1;
  for (const std::string& dir : t.log_dirs) {
    fd = OpenRegular(dir + "/" + file, &length);
    if (fd >= 0) break;
  }
  if (fd < 0) return Heading(404, title, kNoSuchLog);
  Result<std::optional<int64_t>> start_param = LongParam(request, "start");
  Result<std::optional<int64_t>> end_param = LongParam(request, "end");
  if (!start_param.ok() || !end_param.ok()) {
    close(fd);
    return Heading(400, title,
                   (!start_param.ok() ? start_param.status() : end_param.status()).message());
  }
  // ContainerLogsPage.printLocalLogFile's arithmetic.
  int64_t start = start_param->value_or(-4 * 1024);
  start = start < 0 ? length + start : start;
  start = std::max<int64_t>(start, 0);
  int64_t end = end_param->value_or(length);
  end = end < 0 ? length + end : end;
  end = end < 0 || end > length ? length : end;
  if (start > end) {
    close(fd);
    return Heading(400, title,
                   "Invalid start and end values. Start: [" + std::to_string(start) + "], end[" +
                       std::to_string(end) + "]");
  }
  start = std::max(start, end - kMaxLogBytesPerPage);
  Result<std::string> text = ReadRange(fd, start, end);
  close(fd);
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
