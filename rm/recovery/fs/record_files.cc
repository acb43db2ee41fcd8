#include "rm/recovery/fs/record_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <glog/logging.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "rm/recovery/fs/fs_store_layout.h"
#include "rm/recovery/fs/hadoop_checksum_file.h"

namespace spindle::rm::fsstore {

namespace {

Status Errno(const std::string& what, const std::string& path) {
  return Status::IoError("cannot " + what + " " + path + ": " + std::strerror(errno));
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string ChecksumPathOf(const std::string& path) {
  return DirectoryOf(path) + "/" + ChecksumFileName(BaseNameOf(path));
}

Result<std::optional<std::string>> ReadWhole(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<std::string>();
    return Errno("open", path);
  }
  std::string data;
  char buffer[16384];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Status failed = Errno("read", path);
      ::close(fd);
      return failed;
    }
    if (n == 0) break;
    data.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return std::optional<std::string>(std::move(data));
}

}  // namespace

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseNameOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void RecordFiles::Touched(const std::string& path) {
  if (sync_) changed_dirs_.insert(DirectoryOf(path));
}

Status RecordFiles::WriteData(const std::string& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Errno("create", path);
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Status failed = Errno("write", path);
      ::close(fd);
      return failed;
    }
    written += static_cast<size_t>(n);
  }
  if (sync_ && ::fsync(fd) != 0) {
    Status failed = Errno("sync", path);
    ::close(fd);
    return failed;
  }
  if (::close(fd) != 0) return Errno("close", path);
  Touched(path);
  return Status::OK();
}

Status RecordFiles::Rename(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) return Errno("rename " + from + " to", to);
  Touched(to);
  return Status::OK();
}

Status RecordFiles::Unlink(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return Errno("delete", path);
  Touched(path);
  return Status::OK();
}

Status RecordFiles::RenameRecord(const std::string& from, const std::string& to) {
  RETURN_NOT_OK(Rename(from, to));
  const std::string from_sums = ChecksumPathOf(from);
  if (Exists(from_sums)) return Rename(from_sums, ChecksumPathOf(to));
  return Unlink(ChecksumPathOf(to));
}

Status RecordFiles::Write(const std::string& path, std::string_view bytes) {
  const std::string tmp = path + std::string(kTmpSuffix);
  RETURN_NOT_OK(WriteData(tmp, bytes));
  RETURN_NOT_OK(WriteData(ChecksumPathOf(tmp), EncodeChecksumFile(bytes)));
  return RenameRecord(tmp, path);
}

Status RecordFiles::Update(const std::string& path, std::string_view bytes) {
  const std::string pending = path + std::string(kNewSuffix);
  RETURN_NOT_OK(Write(pending, bytes));
  RETURN_NOT_OK(Delete(path));
  return RenameRecord(pending, path);
}

Status RecordFiles::Put(const std::string& path, std::string_view bytes) {
  return Exists(path) ? Update(path, bytes) : Write(path, bytes);
}

Status RecordFiles::Delete(const std::string& path) {
  RETURN_NOT_OK(Unlink(ChecksumPathOf(path)));
  return Unlink(path);
}

Status RecordFiles::DeleteTree(const std::string& dir) {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (ec) return Status::IoError("cannot delete " + dir + ": " + ec.message());
  Touched(dir);
  return Status::OK();
}

Status RecordFiles::MakeDirectory(const std::string& dir) {
  if (IsDirectory(dir)) return Status::OK();
  if (dir != "/" && DirectoryOf(dir) != dir) RETURN_NOT_OK(MakeDirectory(DirectoryOf(dir)));
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return Errno("create the directory", dir);
  if (!IsDirectory(dir))
    return Status::IoError("cannot create the directory " + dir + ": a file is in the way");
  Touched(dir);
  return Status::OK();
}

bool RecordFiles::Exists(const std::string& path) const {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

bool RecordFiles::IsDirectory(const std::string& path) const {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Result<std::optional<std::string>> RecordFiles::Read(const std::string& path) const {
  ASSIGN_OR_RETURN(std::optional<std::string> data, ReadWhole(path));
  if (!data) return data;
  ASSIGN_OR_RETURN(std::optional<std::string> sums, ReadWhole(ChecksumPathOf(path)));
  if (sums) {
    Status verified = VerifyChecksumFile(*data, *sums);
    if (!verified.ok()) return verified.WithContext(path + " (against its .crc file): ");
  }
  return data;
}

Result<std::vector<std::string>> RecordFiles::List(const std::string& dir) const {
  std::vector<std::string> names;
  DIR* handle = ::opendir(dir.c_str());
  if (handle == nullptr) {
    if (errno == ENOENT) return names;
    return Errno("list", dir);
  }
  while (const dirent* entry = ::readdir(handle)) {
    const std::string_view name = entry->d_name;
    if (name == "." || name == ".." || IsChecksumFileName(name)) continue;
    names.emplace_back(name);
  }
  ::closedir(handle);
  std::sort(names.begin(), names.end());
  return names;
}

Status RecordFiles::CleanLeftovers(const std::string& dir) {
  ASSIGN_OR_RETURN(std::vector<std::string> names, List(dir));
  for (const std::string& name : names) {
    if (!EndsWith(name, kNewSuffix)) continue;
    const std::string pending = dir + "/" + name;
    if (IsDirectory(pending)) continue;
    const std::string target = pending.substr(0, pending.size() - kNewSuffix.size());
    LOG(WARNING) << "FileSystem state store: finishing the interrupted update of " << target;
    RETURN_NOT_OK(Delete(target));
    RETURN_NOT_OK(RenameRecord(pending, target));
  }
  ASSIGN_OR_RETURN(names, List(dir));
  for (const std::string& name : names) {
    if (!EndsWith(name, kTmpSuffix) || IsDirectory(dir + "/" + name)) continue;
    LOG(WARNING) << "FileSystem state store: deleting the incomplete record " << dir << "/" << name;
    RETURN_NOT_OK(Delete(dir + "/" + name));
  }
  // Checksum files whose record is gone.
  DIR* handle = ::opendir(dir.c_str());
  if (handle == nullptr) return errno == ENOENT ? Status::OK() : Errno("list", dir);
  std::vector<std::string> orphans;
  while (const dirent* entry = ::readdir(handle)) {
    const std::string_view name = entry->d_name;
    if (!IsChecksumFileName(name)) continue;
    const std::string record(name.substr(1, name.size() - 5));
    if (!Exists(dir + "/" + record)) orphans.emplace_back(name);
  }
  ::closedir(handle);
  for (const std::string& orphan : orphans) RETURN_NOT_OK(Unlink(dir + "/" + orphan));
  return Status::OK();
}

Status RecordFiles::SyncDirectories() {
  std::set<std::string> dirs;
  dirs.swap(changed_dirs_);
  for (const std::string& dir : dirs) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) continue;  // deleted since: its parent is in the set
      return Errno("open the directory", dir);
    }
    const int synced = ::fsync(fd);
    ::close(fd);
    if (synced != 0) return Errno("sync the directory", dir);
  }
  return Status::OK();
}

}  // namespace spindle::rm::fsstore
