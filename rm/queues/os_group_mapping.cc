#include "rm/queues/os_group_mapping.h"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace spindle::rm {

namespace {

// A buffer size for the *_r calls: sysconf's hint, or a generous default.
size_t BufferSize(int name) {
  const long hint = sysconf(name);
  return hint > 0 ? static_cast<size_t>(hint) : 16384;
}

}  // namespace

Result<OsGroupMappingOptions> OsGroupMappingOptions::FromConfiguration(const Configuration& conf) {
  OsGroupMappingOptions options;
  ASSIGN_OR_RETURN(const int64_t secs, conf.GetInt("hadoop.security.groups.cache.secs", 300));
  options.cache_ttl = std::chrono::seconds(std::max<int64_t>(secs, 0));
  const std::string key = "hadoop.user.group.static.mapping.overrides";
  auto parsed = StaticGroupMapping::Parse(conf.Get(key, "dr.who=;"));
  if (!parsed.ok()) return parsed.status().WithContext(conf.SourceOf(key) + ": " + key + ": ");
  options.overrides = std::move(parsed).value();
  return options;
}

OsGroupMapping::OsGroupMapping(OsGroupMappingOptions options, const Clock* clock)
    : options_(std::move(options)), clock_(clock) {}

std::vector<std::string> OsGroupMapping::GroupsOf(const std::string& user) const {
  if (options_.overrides.Contains(user)) return options_.overrides.GroupsOf(user);
  const TimePoint now = clock_->Now();
  {
    MutexLock lock(&mu_);
    auto it = cache_.find(user);
    if (it != cache_.end() && it->second.expires > now) return it->second.groups;
  }
  std::vector<std::string> groups = LookUp(user);
  if (options_.cache_ttl.count() > 0) {
    MutexLock lock(&mu_);
    cache_[user] = Cached{groups, now + options_.cache_ttl};
  }
  return groups;
}

std::vector<std::string> OsGroupMapping::LookUp(const std::string& user) {
  std::vector<std::string> names;
  if (user.empty()) return names;
  passwd pw{};
  passwd* found = nullptr;
  std::vector<char> buffer(BufferSize(_SC_GETPW_R_SIZE_MAX));
  while (true) {
    const int rc = getpwnam_r(user.c_str(), &pw, buffer.data(), buffer.size(), &found);
    if (rc == ERANGE && buffer.size() < (1u << 20)) {
      buffer.resize(buffer.size() * 2);
      continue;
    }
    if (rc != 0 || found == nullptr) return names;
    break;
  }
  const gid_t primary = pw.pw_gid;
  int count = 32;
  std::vector<gid_t> gids(static_cast<size_t>(count));
  while (getgrouplist(user.c_str(), primary, gids.data(), &count) < 0) {
    if (count <= static_cast<int>(gids.size())) count = static_cast<int>(gids.size()) * 2;
    if (count > 65536) return names;
    gids.resize(static_cast<size_t>(count));
  }
  gids.resize(static_cast<size_t>(count));
  // Primary group first, as Hadoop lists it.
  auto primary_it = std::find(gids.begin(), gids.end(), primary);
  if (primary_it != gids.end()) std::rotate(gids.begin(), primary_it, primary_it + 1);
  std::vector<char> group_buffer(BufferSize(_SC_GETGR_R_SIZE_MAX));
  for (gid_t gid : gids) {
    group g{};
    group* result = nullptr;
    int rc = 0;
    while ((rc = getgrgid_r(gid, &g, group_buffer.data(), group_buffer.size(), &result)) ==
               ERANGE &&
           group_buffer.size() < (1u << 20)) {
      group_buffer.resize(group_buffer.size() * 2);
    }
    if (rc != 0 || result == nullptr) continue;
    std::string name = g.gr_name;
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(std::move(name));
    }
  }
  return names;
}

}  // namespace spindle::rm
