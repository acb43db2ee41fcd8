#include "rm/queues/group_mapping.h"

namespace spindle::rm {

namespace {

std::string Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  return std::string(s);
}

std::vector<std::string> SplitTrimmed(std::string_view text, char separator) {
  std::vector<std::string> out;
  while (true) {
    const size_t at = text.find(separator);
    std::string item = Trim(text.substr(0, at));
    if (!item.empty()) out.push_back(std::move(item));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return out;
}

}  // namespace

Result<StaticGroupMapping> StaticGroupMapping::Parse(std::string_view overrides) {
  std::map<std::string, std::vector<std::string>> table;
  for (const std::string& entry : SplitTrimmed(overrides, ';')) {
    const size_t eq = entry.find('=');
    const std::string user = Trim(std::string_view(entry).substr(0, eq));
    if (eq == std::string::npos || user.empty()) {
      return Status::InvalidArgument("Configuration " + entry +
                                     " is invalid: expected user=group1,group2");
    }
    table[user] = SplitTrimmed(std::string_view(entry).substr(eq + 1), ',');
  }
  return StaticGroupMapping(std::move(table));
}

}  // namespace spindle::rm
