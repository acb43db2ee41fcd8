#include "nm_shim/agent/web/container_logs_rest.h"

#include <time.h>

#include <cstdlib>

#include "nm_shim/agent/web/container_log_files.h"
#include "web/rest/rest_document.h"
#include "web/rest/rest_response.h"

namespace spindle::nm {
namespace {

web::HttpResponse ListLogsInfo(const web::HttpRequest& request,
                               const ContainerLogsOptions& options) {
  const std::string id_text = request.PathParam("container");
  Result<rm::ContainerId> id = rm::ContainerId::Parse(id_text);
  if (!id.ok()) {
    return web::rest::RenderError(
        request, web::rest::RestError::BadRequest("invalid container id, " + id_text));
  }
  Result<std::vector<std::string>> dirs = ExistingContainerLogDirs(options.log_dirs, *id);
  if (!dirs.ok()) {
    return web::rest::RenderError(request, web::rest::RestError::NotFound(dirs.status().message()));
  }
  std::vector<web::rest::RestNode> files;
  for (const LogFileInfo& file : ListLogFiles(*dirs)) {
    web::rest::RestNode node;
    node.Str("fileName", file.name)
        .Str("fileSize", std::to_string(file.size))
        .Str("lastModifiedTime", HadoopTimeString(file.modified_ms));
    files.push_back(std::move(node));
  }
  web::rest::RestNode info;
  info.Items("containerLogInfo", std::move(files))
      .Str("logAggregationType", "LOCAL")
      .Str("containerId", id->ToString())
      .Str("nodeId", options.node_id);
  web::HttpResponse response = web::rest::RenderDocument(
      request, web::rest::RestDocument("containerLogsInfo", std::move(info)));
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

web::HttpResponse Plain(int status, std::string body) {
  return web::HttpResponse::Text(status, std::move(body));
}

web::HttpResponse LogContents(const web::HttpRequest& request,
                              const ContainerLogsOptions& options) {
  const std::string id_text = request.PathParam("container");
  const std::string file = request.PathParam("file");
  Result<rm::ContainerId> id = rm::ContainerId::Parse(id_text);
  if (!id.ok()) return Plain(400, "");
  Result<std::vector<std::string>> dirs = ExistingContainerLogDirs(options.log_dirs, *id);
  if (!dirs.ok()) return Plain(404, dirs.status().message());
  Result<OpenLogFile> log = OpenContainerLogFile(*dirs, file);
  if (!log.ok()) return Plain(404, log.status().message());
  // NMWebServices.parseLongParam: absent is everything.
  Result<std::optional<int64_t>> size_param = LongQueryParam(request, "size");
  if (!size_param.ok()) return Plain(400, size_param.status().message());
  const int64_t size = size_param->value_or(INT64_MAX);
  std::string content_type = "text/plain";
  if (std::optional<std::string> format = request.Query("format"); format && !format->empty()) {
    if (*format == "text") {
      content_type = "text/plain";
    } else if (*format == "octet-stream") {
      content_type = "application/octet-stream";
    } else {
      return Plain(400, "The valid values for the parameter : format are [text, octet-stream]");
    }
  }
  // LogToolUtils.outputContainerLogThroughZeroCopy.
  const int64_t length = log->info().size;
  int64_t start = 0;
  int64_t end = length;
  if (size < 0) {
    if (-size < length) start = length + size;
  } else if (size < length) {
    end = size;
  }
  Result<std::string> bytes = log->Read(start, end);
  if (!bytes.ok()) return Plain(500, bytes.status().message());
  const std::string container = "Container: " + id->ToString() + " on " + options.node_id;
  std::string body = container + "\nLogAggregationType: LOCAL\n" +
                     std::string(container.size(), '=') + "\nLogType:" + file +
                     "\nLogLastModifiedTime:" + HadoopTimeString(log->info().modified_ms) +
                     "\nLogLength:" + std::to_string(length) + "\nLogContents:\n" + *bytes;
  const std::string end_of_file = "End of LogType:" + file;
  body += end_of_file + ".";
  if (options.is_running && options.is_running(*id)) {
    body += "This log file belongs to a running container (" + id->ToString() +
            ") and so may not be complete.\n";
  } else {
    body += "\n";
  }
  body += std::string(end_of_file.size() + 50, '*') + "\n\n";
  web::HttpResponse response;
  response.status = 200;
  response.content_type = content_type + "; charset=utf-8";
  response.body = std::move(body);
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

}  // namespace

std::string HadoopTimeString(int64_t ms) {
  if (ms <= 0) return "N/A";
  const time_t seconds = static_cast<time_t>(ms / 1000);
  struct tm local {};
  if (localtime_r(&seconds, &local) == nullptr) return "N/A";
  char text[64];
  const size_t n = strftime(text, sizeof(text), "%a %b %d %H:%M:%S %z %Y", &local);
  return std::string(text, n);
}

void AddContainerLogRestRoutes(web::Router* router, const ContainerLogsOptions& options) {
  router->Add(web::HttpMethod::kGet, "/ws/v1/node/containers/{container}/logs",
              [options](const web::HttpRequest& r) { return ListLogsInfo(r, options); });
  router->Add(web::HttpMethod::kGet, "/ws/v1/node/containerlogs/{container}/{file}",
              [options](const web::HttpRequest& r) { return LogContents(r, options); });
}

}  // namespace spindle::nm
