// GroupMapping: how the RM learns a user's groups for ACL decisions (Hadoop's
// GroupMappingServiceProvider). OsGroupMapping (os_group_mapping.h) asks the
// operating system; the two small ones here serve tests and clusters without
// groups.
//
// Thread contract: GroupsOf() may be called from any thread.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace spindle::rm {

class GroupMapping {
 public:
  virtual ~GroupMapping() = default;
  // The groups of `user`, primary group first; empty for an unknown user.
  virtual std::vector<std::string> GroupsOf(const std::string& user) const = 0;
};

// Nobody belongs to any group: ACLs then match on user names only.
class NoGroupMapping final : public GroupMapping {
 public:
  std::vector<std::string> GroupsOf(const std::string&) const override { return {}; }
};

// A fixed table, e.g. from hadoop.user.group.static.mapping.overrides
// ("user1=group1,group2;user2=;user3=group2").
class StaticGroupMapping final : public GroupMapping {
 public:
  explicit StaticGroupMapping(std::map<std::string, std::vector<std::string>> table = {})
      : table_(std::move(table)) {}
  // Parses the overrides format; InvalidArgument names the bad entry.
  static Result<StaticGroupMapping> Parse(std::string_view overrides);

  std::vector<std::string> GroupsOf(const std::string& user) const override {
    auto it = table_.find(user);
    return it == table_.end() ? std::vector<std::string>() : it->second;
  }
  bool Contains(const std::string& user) const { return table_.count(user) != 0; }
  const std::map<std::string, std::vector<std::string>>& table() const { return table_; }

 private:
  std::map<std::string, std::vector<std::string>> table_;
};

}  // namespace spindle::rm
