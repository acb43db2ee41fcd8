// OsGroupMapping: a user's groups as the operating system knows them
// (getpwnam_r for the primary group, getgrouplist for the rest, getgrgid_r for
// the names), like Hadoop's ShellBasedUnixGroupsMapping / JNI mapping, with
// Hadoop's static overrides (hadoop.user.group.static.mapping.overrides)
// consulted first and a cache (hadoop.security.groups.cache.secs).
//
// Thread contract: GroupsOf() is thread-safe; lookups run without the cache
// lock held, so a slow name service does not block other users' lookups.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "rm/config/configuration.h"
#include "rm/queues/group_mapping.h"

namespace spindle::rm {

struct OsGroupMappingOptions {
  // hadoop.security.groups.cache.secs. Default: 300 s. Zero disables caching.
  Duration cache_ttl = std::chrono::seconds(300);
  // hadoop.user.group.static.mapping.overrides. Default: "dr.who=;".
  StaticGroupMapping overrides{{{"dr.who", {}}}};

  // Reads the two keys above; InvalidArgument for a malformed value.
  static Result<OsGroupMappingOptions> FromConfiguration(const Configuration& conf);
};

class OsGroupMapping final : public GroupMapping {
 public:
  // `clock` must outlive the mapping.
  OsGroupMapping(OsGroupMappingOptions options, const Clock* clock);

  std::vector<std::string> GroupsOf(const std::string& user) const override;
  // Forgets every cached membership (rmadmin -refreshUserToGroupsMappings).
  void Refresh() {
    MutexLock lock(&mu_);
    cache_.clear();
  }

  // The uncached system lookup.
  static std::vector<std::string> LookUp(const std::string& user);

 private:
  struct Cached {
    std::vector<std::string> groups;
    TimePoint expires;
  };
  const OsGroupMappingOptions options_;
  const Clock* const clock_;
  mutable Mutex mu_;
  mutable std::map<std::string, Cached> cache_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
