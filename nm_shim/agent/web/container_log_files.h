// A container's log files on this node, found the way the Java NM finds them
// (ContainerLogsUtils, Hadoop 3.3): the container's dir under every log dir
// (<log-dir>/<app>/<container>), files read from the first dir that has
// them. Shared by the log pages (HTML) and the NM REST log endpoints.
//
// Only regular files directly in those dirs are ever listed or opened: a file
// name must be one plain name, and a symbolic link, FIFO or device is treated
// as missing, so a container cannot make the agent serve anything outside
// its own log dir.
//
// Thread-safety: free functions over the file system.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "rm/records/yarn_ids.h"

namespace spindle::nm {

// ContainerLogsUtils.getApplicationForContainer's message.
inline constexpr char kUnknownContainerMessage[] =
    "Unknown container. Container either has not started or has already completed or doesn't "
    "belong to this node at all.";
// ContainerLogsUtils.getContainerLogFile's message.
inline constexpr char kNoSuchLogMessage[] = "Cannot find this log on the local disk.";

// The container's log dirs that exist; NotFound (kUnknownContainerMessage)
// if none does.
Result<std::vector<std::string>> ExistingContainerLogDirs(const std::vector<std::string>& log_dirs,
                                                          const rm::ContainerId& container);

struct LogFileInfo {
  std::string name;
  int64_t size = 0;
  int64_t modified_ms = 0;
};

// The regular files of `dirs`, sorted by name.
std::vector<LogFileInfo> ListLogFiles(const std::vector<std::string>& dirs);

// An open log file; closes itself.
class OpenLogFile {
 public:
  OpenLogFile(int fd, LogFileInfo info) : fd_(fd), info_(std::move(info)) {}
  OpenLogFile(OpenLogFile&& other) noexcept : fd_(other.fd_), info_(std::move(other.info_)) {
    other.fd_ = -1;
  }
  OpenLogFile& operator=(OpenLogFile&&) = delete;
  ~OpenLogFile();

  const LogFileInfo& info() const { return info_; }
  // Bytes [start, end) (fewer if the file shrank meanwhile).
  Result<std::string> Read(int64_t start, int64_t end) const;

 private:
  int fd_;
  LogFileInfo info_;
};

// `name` from the first of `dirs` that has it as a regular file; NotFound
// (kNoSuchLogMessage) otherwise, or if `name` is not one plain file name.
Result<OpenLogFile> OpenContainerLogFile(const std::vector<std::string>& dirs,
                                         const std::string& name);

}  // namespace spindle::nm
