// CommandLine: the flags of one `spindle <command>` invocation, in the forms
// `--name=value`, `--name value` and bare `--switch`. Unknown or malformed
// flags are reported, never guessed at.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"

namespace spindle {

class CommandLine {
 public:
  // Parses argv[first..argc). Positional arguments are kept in order.
  static Result<CommandLine> Parse(int argc, char** argv, int first);

  bool Has(const std::string& name) const;
  std::string GetString(const std::string& name, const std::string& fallback) const;
  Result<int64_t> GetInt(const std::string& name, int64_t fallback) const;
  // A finite number in [min, max]; InvalidArgument naming the flag otherwise.
  Result<double> GetDouble(const std::string& name, double fallback, double min, double max) const;
  // A comma-separated list (empty items dropped); `fallback` if absent.
  std::vector<std::string> GetList(const std::string& name,
                                   std::vector<std::string> fallback = {}) const;
  const std::vector<std::string>& positional() const { return positional_; }

  // InvalidArgument naming the first flag not in `known`.
  Status CheckKnown(const std::set<std::string>& known) const;

 private:
  std::map<std::string, std::string> flags_;
  std::vector<std::string> positional_;
};

}  // namespace spindle
