#include "nm_shim/agent/process/localizer.h"

#include <glog/logging.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

#include "nm_shim/agent/process/child_process.h"

namespace spindle::nm {
namespace fs = std::filesystem;

namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string BaseName(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string ReadSmallFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();
  if (text.size() > 2048) text = text.substr(text.size() - 2048);
  return text;
}

int64_t MtimeMs(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

// The program's absolute path from $PATH (posix_spawn does no lookup), or "".
std::string FindProgram(const std::string& name) {
  const char* path_env = std::getenv("PATH");
  std::string path = path_env != nullptr ? path_env : "/usr/bin:/bin";
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    std::string candidate = dir;
    candidate += '/';
    candidate += name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Hadoop's FSDownload.isPublic: others may read the resource and reach it
// through every ancestor directory.
bool IsPublic(const std::string& source, const struct stat& st) {
  const mode_t need = S_ISDIR(st.st_mode) ? (S_IROTH | S_IXOTH) : S_IROTH;
  if ((st.st_mode & need) != need) return false;
  fs::path dir = fs::path(source).parent_path();
  while (!dir.empty()) {
    struct stat dst;
    if (stat(dir.c_str(), &dst) != 0 || (dst.st_mode & S_IXOTH) == 0) return false;
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return true;
}

// Runs a tool (tar, unzip) and turns its failure into a diagnostic.
Status RunTool(const std::vector<std::string>& argv, const std::string& log_path,
               const std::string& stdout_path, const std::string& what) {
  SpawnOptions options;
  options.argv = argv;
  options.stdout_path = stdout_path;
  options.stderr_path = log_path;
  Result<int> rc = RunToCompletion(options);
  if (!rc.ok()) return Status::IoError(what + ": " + rc.status().message());
  if (*rc != 0) {
    return Status::IoError(what + ": " + argv[0] + " exited with code " + std::to_string(*rc) +
                           ": " + ReadSmallFile(log_path));
  }
  return Status::OK();
}

Status CopyFile(const std::string& source, const std::string& dest) {
  std::error_code ec;
  fs::copy(source, dest, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  if (ec) return Status::IoError("cannot copy " + source + " to " + dest + ": " + ec.message());
  return Status::OK();
}

Status Unzip(const std::string& source, const std::string& dest, const std::string& scratch,
             const std::vector<std::string>& entries) {
  const std::string unzip = FindProgram("unzip");
  if (unzip.empty()) {
    return Status::NotSupported("Cannot unpack " + source +
                                ": unzip is not installed on this node");
  }
  std::error_code ec;
  fs::create_directories(dest, ec);
  if (ec) return Status::IoError("cannot create " + dest + ": " + ec.message());
  std::vector<std::string> argv = {unzip, "-q", "-o", source};
  argv.insert(argv.end(), entries.begin(), entries.end());
  argv.push_back("-d");
  argv.push_back(dest);
  return RunTool(argv, scratch + ".log", "", "Cannot unpack " + source);
}

Status Untar(const std::string& source, const std::string& dest, const std::string& scratch,
             bool gzipped) {
  const std::string tar = FindProgram("tar");
  if (tar.empty()) return Status::NotSupported("Cannot unpack " + source + ": no tar on this node");
  std::error_code ec;
  fs::create_directories(dest, ec);
  if (ec) return Status::IoError("cannot create " + dest + ": " + ec.message());
  return RunTool({tar, gzipped ? "-xzf" : "-xf", source, "-C", dest}, scratch + ".log", "",
                 "Cannot unpack " + source);
}

// PATTERN on a jar: the entries matching the pattern, and the jar itself.
Status UnjarMatching(const std::string& source, const std::string& dest, const std::string& scratch,
                     const std::string& pattern) {
  const std::string unzip = FindProgram("unzip");
  if (unzip.empty()) {
    return Status::NotSupported("Cannot unpack " + source +
                                ": unzip is not installed on this node");
  }
  std::regex re;
  if (!pattern.empty()) {
    try {  // std::regex reports a bad pattern only by throwing.
      re = std::regex(pattern);
    } catch (const std::regex_error&) {
      return Status::InvalidArgument("Invalid pattern '" + pattern + "' for " + source);
    }
  }
  const std::string listing = scratch + ".list";
  RETURN_NOT_OK(
      RunTool({unzip, "-Z1", source}, scratch + ".log", listing, "Cannot list " + source));
  std::vector<std::string> matching;
  std::ifstream in(listing);
  std::string entry;
  while (std::getline(in, entry)) {
    if (entry.empty() || entry.back() == '/') continue;
    if (pattern.empty() || std::regex_match(entry, re)) matching.push_back(entry);
  }
  std::error_code ec;
  fs::create_directories(dest, ec);
  if (ec) return Status::IoError("cannot create " + dest + ": " + ec.message());
  if (!matching.empty()) RETURN_NOT_OK(Unzip(source, dest, scratch, matching));
  return CopyFile(source, dest + "/" + BaseName(source));
}

}  // namespace

Localizer::Localizer(std::vector<std::string> local_dirs) : local_dirs_(std::move(local_dirs)) {}

Result<std::string> Localizer::SourcePath(const LocalResource& resource) {
  const std::string url = resource.scheme.empty()
                              ? resource.path
                              : resource.scheme + "://" + resource.host +
                                    (resource.port > 0 ? ":" + std::to_string(resource.port) : "") +
                                    resource.path;
  if (!resource.scheme.empty() && Lower(resource.scheme) != "file") {
    return Status::NotSupported("Resource " + url +
                                " cannot be localized: this node agent only supports file:// "
                                "resources (scheme '" +
                                resource.scheme + "')");
  }
  if (resource.path.empty() || resource.path.front() != '/') {
    return Status::InvalidArgument("Resource " + url +
                                   " cannot be localized: not an absolute path");
  }
  return resource.path;
}

std::string Localizer::CacheRoot(const LocalResource& resource, const std::string& user,
                                 const std::string& app_id) {
  std::string local;
  {
    MutexLock lock(&mu_);
    local = local_dirs_[next_dir_++ % local_dirs_.size()];
  }
  switch (resource.visibility) {
    case LocalResource::Visibility::kPublic:
      return local + "/filecache";
    case LocalResource::Visibility::kPrivate:
      return local + "/usercache/" + user + "/filecache";
    case LocalResource::Visibility::kApplication:
      break;
  }
  return local + "/usercache/" + user + "/appcache/" + app_id + "/filecache";
}

Result<std::string> Localizer::Localize(const LocalResource& resource, const std::string& user,
                                        const std::string& app_id) {
  ASSIGN_OR_RETURN(const std::string source, SourcePath(resource));
  std::string key;
  switch (resource.visibility) {
    case LocalResource::Visibility::kPublic:
      key = "public";
      break;
    case LocalResource::Visibility::kPrivate:
      key = "private/" + user;
      break;
    case LocalResource::Visibility::kApplication:
      key = "app/" + user + "/" + app_id;
      break;
  }
  key += "|" + source + "|" + std::to_string(resource.timestamp) + "|" +
         std::to_string(resource.size) + "|" + std::to_string(static_cast<int>(resource.type)) +
         "|" + resource.pattern;
  // Either a cached copy that still exists, or this thread's claim to
  // download it (the disk is checked without the lock held).
  for (;;) {
    std::string cached;
    {
      MutexLock lock(&mu_);
      auto it = cache_.find(key);
      while (it != cache_.end() && it->second.state == State::kDownloading) {
        changed_.Wait(&mu_);
        it = cache_.find(key);
      }
      if (it == cache_.end()) {
        Entry entry;
        entry.app_id =
            resource.visibility == LocalResource::Visibility::kApplication ? app_id : std::string();
        cache_[key] = entry;
        break;
      }
      cached = it->second.path;
    }
    std::error_code ec;
    if (fs::exists(cached, ec)) return cached;
    MutexLock lock(&mu_);  // removed behind our back: forget it, fetch it again
    auto it = cache_.find(key);
    if (it != cache_.end() && it->second.state == State::kReady && it->second.path == cached) {
      cache_.erase(it);
    }
  }
  Result<std::string> local = Download(resource, source, CacheRoot(resource, user, app_id));
  {
    MutexLock lock(&mu_);
    if (local.ok()) {
      cache_[key].state = State::kReady;
      cache_[key].path = *local;
    } else {
      cache_.erase(key);
    }
  }
  changed_.SignalAll();
  return local;
}

Result<std::string> Localizer::Download(const LocalResource& resource, const std::string& source,
                                        const std::string& cache_root) {
  struct stat st;
  if (stat(source.c_str(), &st) != 0) {
    return Status::NotFound("File file:" + source + " does not exist");
  }
  if (resource.timestamp >= 0 && MtimeMs(st) != resource.timestamp) {
    return Status::InvalidArgument(
        "Resource file:" + source + " changed on src filesystem (expected " +
        std::to_string(resource.timestamp) + ", was " + std::to_string(MtimeMs(st)) + ")");
  }
  if (resource.size >= 0 && S_ISREG(st.st_mode) && st.st_size != resource.size) {
    return Status::InvalidArgument(
        "Resource file:" + source + " changed on src filesystem (expected size " +
        std::to_string(resource.size) + ", was " + std::to_string(st.st_size) + ")");
  }
  if (resource.visibility == LocalResource::Visibility::kPublic && !IsPublic(source, st)) {
    return Status::Unauthorized("Resource file:" + source +
                                " is not publicly accessible and as such cannot be part of the "
                                "public cache.");
  }

  std::error_code ec;
  fs::create_directories(cache_root, ec);
  if (ec) return Status::IoError("cannot create " + cache_root + ": " + ec.message());
  // A fresh numbered dir: mkdir is the arbiter, so dirs left by an earlier
  // agent are skipped rather than reused.
  std::string final_dir;
  std::string tmp_dir;
  for (;;) {
    uint64_t id;
    {
      MutexLock lock(&mu_);
      id = next_id_++;
    }
    final_dir = cache_root + "/" + std::to_string(id);
    tmp_dir = final_dir + "_tmp";
    if (fs::exists(final_dir, ec)) continue;
    if (mkdir(tmp_dir.c_str(), 0755) == 0) break;
    if (errno != EEXIST) {
      return Status::IoError("cannot create " + tmp_dir + ": " + std::string(strerror(errno)));
    }
  }

  const std::string name = BaseName(source);
  const std::string lower = Lower(name);
  const std::string dest = tmp_dir + "/" + name;
  const std::string scratch = tmp_dir + ".scratch";
  const bool zip = EndsWith(lower, ".zip") || EndsWith(lower, ".jar");
  const bool gz = EndsWith(lower, ".tar.gz") || EndsWith(lower, ".tgz");
  const bool tar = gz || EndsWith(lower, ".tar");
  Status s;
  if (S_ISDIR(st.st_mode) || resource.type == LocalResource::Type::kFile) {
    s = CopyFile(source, dest);
  } else if (resource.type == LocalResource::Type::kPattern && EndsWith(lower, ".jar")) {
    s = UnjarMatching(source, dest, scratch, resource.pattern);
  } else if (zip) {
    s = Unzip(source, dest, scratch, {});
  } else if (tar) {
    s = Untar(source, dest, scratch, gz);
  } else {
    LOG(WARNING) << "Cannot unpack " << source << " (unknown archive type); copying it";
    s = CopyFile(source, dest);
  }
  fs::remove(scratch + ".log", ec);
  fs::remove(scratch + ".list", ec);
  if (s.ok() && rename(tmp_dir.c_str(), final_dir.c_str()) != 0) {
    s = Status::IoError("cannot rename " + tmp_dir + ": " + std::string(strerror(errno)));
  }
  if (!s.ok()) {
    fs::remove_all(tmp_dir, ec);
    return s;
  }
  return final_dir + "/" + name;
}

void Localizer::ForgetApplication(const std::string& app_id) {
  MutexLock lock(&mu_);
  for (auto it = cache_.begin(); it != cache_.end();) {
    if (it->second.state == State::kReady && it->second.app_id == app_id) {
      it = cache_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace spindle::nm
