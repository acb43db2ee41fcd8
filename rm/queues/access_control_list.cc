#include "rm/queues/access_control_list.h"

#include "base/strings/trim.h"

namespace spindle::rm {

namespace {

// Hadoop's isWildCardACLValue: the part contains "*" and is "*" once trimmed.
bool IsWildcard(std::string_view part) { return TrimBlanks(part) == "*"; }

std::set<std::string> SplitTrimmed(std::string_view list) {
  std::set<std::string> out;
  while (true) {
    const size_t comma = list.find(',');
    std::string_view item = TrimBlanks(list.substr(0, comma));
    if (!item.empty()) out.emplace(item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

std::string Join(const std::set<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ',';
    out += item;
  }
  return out;
}

}  // namespace

AccessControlList AccessControlList::Parse(std::string_view acl) {
  AccessControlList out;
  const size_t space = acl.find(' ');
  const std::string_view users = acl.substr(0, space);
  const std::string_view groups =
      space == std::string_view::npos ? std::string_view() : acl.substr(space + 1);
  if (IsWildcard(users) || (space != std::string_view::npos && IsWildcard(groups))) {
    out.all_allowed_ = true;
    return out;
  }
  out.users_ = SplitTrimmed(users);
  out.groups_ = SplitTrimmed(groups);
  return out;
}

bool AccessControlList::IsUserAllowed(std::string_view user,
                                      const std::vector<std::string>& groups) const {
  if (all_allowed_) return true;
  if (users_.count(std::string(user)) != 0) return true;
  for (const auto& group : groups) {
    if (groups_.count(group) != 0) return true;
  }
  return false;
}

std::string AccessControlList::ToString() const {
  if (all_allowed_) return "*";
  return Join(users_) + " " + Join(groups_);
}

}  // namespace spindle::rm
