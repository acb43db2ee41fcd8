// AccessControlList: Hadoop's ACL string, "user1,user2 group1,group2", with
// Hadoop's AccessControlList semantics:
//   - the text is split at its first space: users before it, groups after it,
//     each a comma-separated list whose entries are trimmed (empty ones
//     dropped);
//   - "*" (alone, surrounding blanks allowed) in either part allows everyone;
//   - " " (a single blank) allows nobody;
//   - a user is allowed if named in the users part or if one of its groups is
//     named in the groups part.
//
// Thread-safety: a value; const methods may be called from any thread.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::rm {

class AccessControlList {
 public:
  // Allows nobody (Hadoop's " ").
  AccessControlList() = default;

  static AccessControlList Parse(std::string_view acl);
  static AccessControlList AllowAll() { return Parse("*"); }
  static AccessControlList AllowNone() { return Parse(" "); }

  bool allows_all() const { return all_allowed_; }
  const std::set<std::string>& users() const { return users_; }
  const std::set<std::string>& groups() const { return groups_; }

  // True if `user`, or one of `groups`, is allowed.
  bool IsUserAllowed(std::string_view user, const std::vector<std::string>& groups) const;

  // Hadoop's getAclString(): "*", or "u1,u2 g1,g2" (users and groups sorted).
  std::string ToString() const;

  friend bool operator==(const AccessControlList& a, const AccessControlList& b) {
    return a.all_allowed_ == b.all_allowed_ && a.users_ == b.users_ && a.groups_ == b.groups_;
  }

 private:
  bool all_allowed_ = false;
  std::set<std::string> users_;
  std::set<std::string> groups_;
};

}  // namespace spindle::rm
