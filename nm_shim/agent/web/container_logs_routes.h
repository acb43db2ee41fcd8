// The NodeManager's container log pages, as the Java NM serves them
// (ContainerLogsPage and ContainerLogsUtils, Hadoop 3.3), so that the log
// links the RM hands out (http://<node http address>/node/containerlogs/
// <container>/<user>) work on a Spindle-only cell:
//
//   GET /node/containerlogs/{container}/{user}
//       HTML: one link per file of the container's log dirs
//       (<log-dir>/<app>/<container>, every log dir, names sorted), each
//       "<name> : Total file length is <n> bytes.", pointing at the page
//       below with ?start=-4096; "No logs available for container <id>" when
//       the dirs hold no file.
//   GET /node/containerlogs/{container}/{user}/{file}[?start=S&end=E]
//       HTML: bytes [S, E) of the file in a <pre>; S defaults to -4096 and
//       E to the length, negative values count from the end (Java's
//       printLocalLogFile), and when not the whole file is shown a
//       "Showing <n> bytes. Click here for full log" link (?start=0).
//
// Answers that differ from a 200 page: an id that is not a container id is
// 400 "Invalid container ID: <id>"; a container with no log dir on this
// node is 404 with the Java NM's "Unknown container..." message (logs stay
// on the node after the application ends, as with Java's
// NonAggregatingLogHandler before its retention runs out, so "known" means
// "its log dir exists"); a file name that is not one plain name ("..",
// ".", a '/' after decoding), a file that is missing, a symbolic link or
// not a regular file is 404 "Cannot find this log on the local disk.": a
// container cannot make the agent serve anything outside its log dir;
// start/end that are not numbers, or start after end, are 400. The {user}
// segment is only carried into links, as in Java (no access control in
// SIMPLE mode). One page shows at most kMaxLogBytesPerPage bytes (the last
// ones of the asked range).
//
// Thread-safety: the routes are stateless and read the file system; they
// may run on many handler threads.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "rm/records/yarn_ids.h"
#include "web/http/router.h"

namespace spindle::nm {

inline constexpr int64_t kMaxLogBytesPerPage = 16 << 20;

struct ContainerLogsOptions {
  // yarn.nodemanager.log-dirs, as the runtime uses them.
  std::vector<std::string> log_dirs;
  // The node's id (host:port), named in the REST answers.
  std::string node_id;
  // Whether a container is running here (the REST file answer says its log
  // may not be complete). Default: none is.
  std::function<bool(const rm::ContainerId&)> is_running;
};

void AddContainerLogRoutes(web::Router* router, const ContainerLogsOptions& options);

// Query parameter `name` as a long (Java's Long.parseLong of the text):
// nullopt if absent or empty, InvalidArgument if not a number.
Result<std::optional<int64_t>> LongQueryParam(const web::HttpRequest& request,
                                              std::string_view name);

// The page's link to one log file (path segments percent-encoded):
// /node/containerlogs/<container>/<user>/<file>
std::string ContainerLogFilePath(const std::string& container, const std::string& user,
                                 const std::string& file);

}  // namespace spindle::nm
