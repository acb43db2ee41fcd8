#include "web/metrics/object_name.h"

#include <algorithm>

namespace spindle::web {

bool GlobMatch(std::string_view pattern, std::string_view text) {
  size_t p = 0;
  size_t t = 0;
  size_t star = std::string_view::npos;
  size_t mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

Result<ObjectName> ObjectName::Parse(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return Status::InvalidArgument("Key properties cannot be empty");
  }
  ObjectName name;
  name.domain_ = std::string(text.substr(0, colon));
  std::string_view rest = text.substr(colon + 1);
  if (rest.empty()) return Status::InvalidArgument("Key properties cannot be empty");
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    if (part == "*") {
      if (name.property_pattern_)
        return Status::InvalidArgument("Cannot have several '*' characters in pattern properties");
      name.property_pattern_ = true;
    } else {
      const size_t eq = part.find('=');
      if (eq == std::string_view::npos) {
        return Status::InvalidArgument("Unterminated key property part");
      }
      if (eq == 0) return Status::InvalidArgument("Invalid key (empty)");
      std::string key(part.substr(0, eq));
      if (key.find_first_of("*?") != std::string::npos) {
        return Status::InvalidArgument("Invalid character in key `" + key + "'");
      }
      for (const auto& [k, v] : name.keys_) {
        if (k == key) return Status::InvalidArgument("key `" + key + "' already defined");
      }
      name.keys_.emplace_back(std::move(key), std::string(part.substr(eq + 1)));
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return name;
}

std::string ObjectName::Get(std::string_view key) const {
  for (const auto& [k, v] : keys_) {
    if (k == key) return v;
  }
  return "";
}

bool ObjectName::Matches(const ObjectName& name) const {
  if (!GlobMatch(domain_, name.domain_)) return false;
  if (!property_pattern_ && keys_.size() != name.keys_.size()) return false;
  for (const auto& wanted : keys_) {
    auto it = std::find_if(name.keys_.begin(), name.keys_.end(),
                           [&](const auto& kv) { return kv.first == wanted.first; });
    if (it == name.keys_.end() || !GlobMatch(wanted.second, it->second)) return false;
  }
  return true;
}

}  // namespace spindle::web
