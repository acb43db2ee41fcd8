// Localizer: brings a container's LocalResources onto this node, as Hadoop's
// FSDownload does for the ResourceLocalizationService, for file:// URLs (and
// scheme-less absolute paths) only.
//
// Each resource is checked against its source (modification time and size,
// when the launch context gives them; PUBLIC resources must be readable by
// everyone, as Hadoop requires for its public cache), then copied (FILE),
// unpacked (ARCHIVE: .tar/.tar.gz/.tgz with the system tar, .zip/.jar with
// unzip; other names are copied, as Hadoop does) or, for PATTERN, a .jar is
// unpacked keeping only the entries matching the pattern plus the jar itself
// (other archives are unpacked whole). Copies land in a fresh numbered dir of
// the cache their visibility names:
//   PUBLIC       <local-dir>/filecache/<n>/<source file name>
//   PRIVATE      <local-dir>/usercache/<user>/filecache/<n>/<source file name>
//   APPLICATION  <local-dir>/usercache/<user>/appcache/<app>/filecache/<n>/<...>
// and a later request for the same source, timestamp, size, type and pattern
// in the same cache reuses them.
//
// Thread-safety: thread-safe. Concurrent requests for one resource download it
// once; the others wait for it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "base/result.h"
#include "nm_shim/agent/container_runtime.h"

namespace spindle::nm {

class Localizer {
 public:
  explicit Localizer(std::vector<std::string> local_dirs);
  Localizer(const Localizer&) = delete;
  Localizer& operator=(const Localizer&) = delete;

  // The local path (file or unpacked dir) for `resource`, on behalf of
  // `user`'s application `app_id`. Errors carry the diagnostic the AM sees.
  Result<std::string> Localize(const LocalResource& resource, const std::string& user,
                               const std::string& app_id) EXCLUDES(mu_);

  // Forgets the application's cached resources (its dirs are being removed).
  void ForgetApplication(const std::string& app_id) EXCLUDES(mu_);

  // The source path of a resource URL, or a diagnostic for unsupported ones.
  static Result<std::string> SourcePath(const LocalResource& resource);

 private:
  enum class State { kDownloading, kReady };
  struct Entry {
    State state = State::kDownloading;
    std::string app_id;  // set for APPLICATION resources
    std::string path;
  };

  std::string CacheRoot(const LocalResource& resource, const std::string& user,
                        const std::string& app_id) EXCLUDES(mu_);
  Result<std::string> Download(const LocalResource& resource, const std::string& source,
                               const std::string& cache_root);

  const std::vector<std::string> local_dirs_;
  Mutex mu_;
  CondVar changed_;
  std::map<std::string, Entry> cache_ GUARDED_BY(mu_);
  size_t next_dir_ GUARDED_BY(mu_) = 0;
  uint64_t next_id_ GUARDED_BY(mu_) = 0;
};

}  // namespace spindle::nm
