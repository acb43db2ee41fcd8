// The NodeManager's REST log endpoints (Hadoop 3.3's NMWebServices), which
// the 3.3 `yarn logs` CLI reads for a running application's containers:
//
//   GET /ws/v1/node/containers/{container}/logs
//       JSON or XML: {"containerLogsInfo":{"containerLogInfo":[{"fileName",
//       "fileSize","lastModifiedTime"}...],"logAggregationType":"LOCAL",
//       "containerId","nodeId"}} (sizes and times are strings, times as
//       Hadoop's Times.format: "EEE MMM dd HH:mm:ss Z yyyy"). The CLI reads
//       containerLogsInfo as an object or an array; this is the object.
//   GET /ws/v1/node/containerlogs/{container}/{file}[?size=N&format=F]
//       text/plain (format=text, default) or application/octet-stream
//       (format=octet-stream): LogToolUtils' header ("Container: <id> on
//       <node>", "LogAggregationType: LOCAL", a rule, LogType,
//       LogLastModifiedTime, LogLength, "LogContents:"), the bytes (size < 0:
//       the last -size bytes, size >= 0: the first size, absent: all), then
//       "End of LogType:<file>." with the running-container warning when it
//       runs, and a line of '*'.
//
// Errors: an invalid container id is 400 (empty body, as Java); a container
// with no log dir here, or a file that is not there (or not a plain regular
// file, see container_log_files.h), is 404 with the Java NM's message (the
// list endpoint as a NotFoundException RemoteException; Java wraps that one
// into a 500); a size that is not a number or an unknown format is 400.
//
// Thread-safety: stateless routes; may run on many threads.
#pragma once

#include "nm_shim/agent/web/container_logs_routes.h"
#include "web/http/router.h"

namespace spindle::nm {

void AddContainerLogRestRoutes(web::Router* router, const ContainerLogsOptions& options);

// Hadoop's Times.format of a wall-clock time in ms, in this machine's time
// zone ("Fri Nov 27 08:48:30 +0000 2026"); "N/A" for 0 or less.
std::string HadoopTimeString(int64_t ms);

}  // namespace spindle::nm
