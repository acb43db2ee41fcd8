#include "cmd/command_line.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace spindle {

Result<CommandLine> CommandLine::Parse(int argc, char** argv, int first) {
  CommandLine cl;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      cl.positional_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::string value;
    const size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
      value = argv[++i];
    } else {
      value = "true";
    }
    if (name.empty()) return Status::InvalidArgument("empty flag name in '" + arg + "'");
    cl.flags_[name] = value;
  }
  return cl;
}

bool CommandLine::Has(const std::string& name) const { return flags_.count(name) != 0; }

std::string CommandLine::GetString(const std::string& name, const std::string& fallback) const {
  auto it = flags_.find(name);
  return it == flags_.end() ? fallback : it->second;
}

Result<int64_t> CommandLine::GetInt(const std::string& name, int64_t fallback) const {
  auto it = flags_.find(name);
  if (it == flags_.end()) return fallback;
  int64_t value = 0;
  const std::string& text = it->second;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) {
    return Status::InvalidArgument("--" + name + " wants an integer, got '" + text + "'");
  }
  return value;
}

Result<double> CommandLine::GetDouble(const std::string& name, double fallback, double min,
                                      double max) const {
  auto it = flags_.find(name);
  if (it == flags_.end()) return fallback;
  const std::string& text = it->second;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(v)) {
    return Status::InvalidArgument("--" + name + " wants a number, got '" + text + "'");
  }
  if (v < min || v > max) {
    return Status::InvalidArgument("--" + name + " must be in [" + std::to_string(min) + ", " +
                                   std::to_string(max) + "]");
  }
  return v;
}

std::vector<std::string> CommandLine::GetList(const std::string& name,
                                              std::vector<std::string> fallback) const {
  auto it = flags_.find(name);
  if (it == flags_.end()) return fallback;
  std::vector<std::string> out;
  const std::string& text = it->second;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Status CommandLine::CheckKnown(const std::set<std::string>& known) const {
  for (const auto& [name, value] : flags_) {
    if (known.count(name) == 0) return Status::InvalidArgument("unknown flag --" + name);
  }
  return Status::OK();
}

}  // namespace spindle
