#include "nm_shim/agent/web/container_log_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "nm_shim/agent/process/container_paths.h"

namespace spindle::nm {
namespace {

namespace fs = std::filesystem;

bool PlainFileName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\0", 2)) == std::string::npos;
}

int64_t ModifiedMs(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

}  // namespace

Result<std::vector<std::string>> ExistingContainerLogDirs(const std::vector<std::string>& log_dirs,
                                                          const rm::ContainerId& container) {
  std::vector<std::string> existing;
  for (const std::string& dir :
       ContainerLogDirs(log_dirs, container.attempt.app.ToString(), container.ToString())) {
    std::error_code ec;
    if (fs::is_directory(fs::symlink_status(dir, ec))) existing.push_back(dir);
  }
  if (existing.empty()) return Status::NotFound(kUnknownContainerMessage);
  return existing;
}

std::vector<LogFileInfo> ListLogFiles(const std::vector<std::string>& dirs) {
  std::vector<LogFileInfo> files;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      struct stat st {};
      if (lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      files.push_back(LogFileInfo{it->path().filename().string(), st.st_size, ModifiedMs(st)});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const LogFileInfo& a, const LogFileInfo& b) { return a.name < b.name; });
  return files;
}

OpenLogFile::~OpenLogFile() {
  if (fd_ >= 0) close(fd_);
}

Result<std::string> OpenLogFile::Read(int64_t start, int64_t end) const {
  std::string text(static_cast<size_t>(std::max<int64_t>(0, end - start)), '\0');
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = pread(fd_, text.data() + done, text.size() - done,
                            static_cast<off_t>(start + static_cast<int64_t>(done)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::IoError(std::string("read ") + info_.name + ": " + strerror(errno));
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  text.resize(done);
  return text;
}

Result<OpenLogFile> OpenContainerLogFile(const std::vector<std::string>& dirs,
                                         const std::string& name) {
  if (!PlainFileName(name)) return Status::NotFound(kNoSuchLogMessage);
  for (const std::string& dir : dirs) {
    // O_NOFOLLOW refuses a link; O_NONBLOCK keeps a FIFO from blocking the
    // open until fstat refuses it.
    const int fd = open((dir + "/" + name).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      close(fd);
      continue;
    }
    return OpenLogFile(fd, LogFileInfo{name, st.st_size, ModifiedMs(st)});
  }
  return Status::NotFound(kNoSuchLogMessage);
}

}  // namespace spindle::nm
