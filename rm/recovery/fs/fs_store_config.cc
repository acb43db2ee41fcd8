#include "rm/recovery/fs/fs_store_config.h"

#include <filesystem>

#include "rm/config/hadoop_line.h"

namespace spindle::rm {

namespace {

// Hadoop's Path: a scheme is what precedes the first ':' when that comes
// before any '/'.
std::string SchemeOf(const std::string& uri) {
  const size_t colon = uri.find(':');
  const size_t slash = uri.find('/');
  if (colon == std::string::npos || (slash != std::string::npos && slash < colon)) return "";
  return uri.substr(0, colon);
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

Result<std::string> LocalDirectoryOfStoreUri(const std::string& uri,
                                             const std::string& default_fs) {
  const std::string scheme = Lower(SchemeOf(uri));
  std::string path;
  if (scheme.empty()) {
    const std::string fs_scheme = Lower(SchemeOf(default_fs));
    if (!fs_scheme.empty() && fs_scheme != "file") {
      return Status::InvalidArgument(
          "'" + uri + "' has no scheme, so it is on fs.defaultFS = '" + default_fs +
          "'; Spindle's FileSystemRMStateStore writes only to the local file system (it has "
          "no " +
          fs_scheme +
          " client): write the store URI as file:///<path>, or use "
          "ZKRMStateStore");
    }
    path = uri;
  } else if (scheme == "file") {
    path = uri.substr(5);
    if (path.rfind("//", 0) == 0) {
      const size_t end = path.find('/', 2);
      const std::string authority = path.substr(2, end == std::string::npos ? end : end - 2);
      if (!authority.empty() && Lower(authority) != "localhost") {
        return Status::InvalidArgument(
            "'" + uri + "' names the host '" + authority +
            "'; a file: URI of the store must be local (file:///<path>)");
      }
      path = end == std::string::npos ? "/" : path.substr(end);
    }
  } else {
    return Status::InvalidArgument(
        "'" + uri + "' is on a " + scheme +
        " file system; Spindle's FileSystemRMStateStore writes only to the local file system "
        "(file:///<path>): it has no " +
        (scheme == "hdfs" ? "HDFS" : scheme) +
        " client. Use a local or file:// path, or ZKRMStateStore");
  }
  if (path.empty()) return Status::InvalidArgument("'" + uri + "' names no directory");
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) return Status::InvalidArgument("'" + uri + "': " + ec.message());
  return absolute.lexically_normal().string();
}

Result<FsStoreOptions> FsStoreOptionsFromConfiguration(const Configuration& conf) {
  ASSIGN_OR_RETURN(const HadoopLine line, HadoopLineOf(conf));
  FsStoreOptions options;
  options.hadoop3 = line == HadoopLine::k3_3;
  options.version = options.hadoop3 ? zkstore::StoreVersion{1, 3} : zkstore::StoreVersion{1, 2};
  options.uri = conf.GetTrimmed(kFsStoreUriKey).value_or("");
  if (options.uri.empty()) {
    return Status::InvalidArgument(conf.SourceOf(kFsStoreUriKey) + ": " + kFsStoreUriKey +
                                   " is empty; yarn.resourcemanager.store.class names "
                                   "FileSystemRMStateStore, which needs its directory");
  }
  const std::string default_fs = conf.GetTrimmed("fs.defaultFS").value_or("file:///");
  auto directory = LocalDirectoryOfStoreUri(options.uri, default_fs);
  if (!directory.ok()) {
    return directory.status().WithContext(conf.SourceOf(kFsStoreUriKey) + ": " + kFsStoreUriKey +
                                          " = ");
  }
  options.directory = std::move(directory).value();

  if (line != HadoopLine::k2_6) {
    constexpr char kRetriesKey[] = "yarn.resourcemanager.fs.state-store.num-retries";
    constexpr char kIntervalKey[] = "yarn.resourcemanager.fs.state-store.retry-interval-ms";
    ASSIGN_OR_RETURN(const int64_t retries, conf.GetInt(kRetriesKey, 0));
    ASSIGN_OR_RETURN(const int64_t interval, conf.GetInt(kIntervalKey, 1000));
    if (retries < 0 || interval < 0) {
      const std::string key = retries < 0 ? kRetriesKey : kIntervalKey;
      return Status::InvalidArgument(conf.SourceOf(key) + ": " + key + " = '" +
                                     std::to_string(retries < 0 ? retries : interval) +
                                     "' must not be negative");
    }
    options.num_retries = static_cast<int>(std::min<int64_t>(retries, INT32_MAX));
    options.retry_interval = std::chrono::milliseconds(interval);
  }
  ASSIGN_OR_RETURN(options.sync_writes, conf.GetBool("spindle.store.sync-writes", true));
  ASSIGN_OR_RETURN(options.ha_enabled, conf.GetBool("yarn.resourcemanager.ha.enabled", false));
  return options;
}

}  // namespace spindle::rm
