// Configuration: Hadoop's layered XML configuration (core-site.xml,
// yarn-site.xml, capacity-scheduler.xml ...) read with Hadoop's semantics:
// resources are added in order and later ones override earlier ones, except
// that a property marked <final>true</final> keeps its first value; values
// are expanded on read with ${name} substitution from other properties, a few
// Java system properties (user.name, user.home, java.io.tmpdir) and
// ${env.NAME}, at most 20 levels deep. Typed getters fail with an
// InvalidArgument that names the file, the key and the value.
//
// Under the loaded files lie the defaults Hadoop ships (core-default.xml,
// yarn-default.xml) for the keys rm/config/hadoop_line.h tabulates, taken
// from the Hadoop line spindle.compat.hadoop-version names: a key no file
// sets reads as that line's default, and SourceOf() names the default file.
//
// Thread contract: loading and Set() are not thread-safe; once loaded, const
// methods may be called from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "rm/config/hadoop_line.h"
#include "rm/config/socket_address.h"

namespace spindle::rm {

class Configuration {
 public:
  Configuration();

  // Adds an XML resource. Fails with the file name and the reason (missing,
  // unreadable, not well-formed, top-level element not <configuration>, a
  // <property> without <name>); on failure nothing from the file is applied.
  Status AddResourceFile(const std::string& path);
  // The same from a string; `source` names it in errors and SourceOf().
  Status AddResourceString(std::string_view xml, const std::string& source);

  // Sets a value as code does (overrides unless the key is final).
  void Set(const std::string& key, const std::string& value);

  // The expanded value, or nullopt if unset. Unresolvable ${...} stay as written.
  std::optional<std::string> Get(const std::string& key) const;
  std::string Get(const std::string& key, const std::string& fallback) const;
  // The value as written (or the line's shipped default), without substitution.
  std::optional<std::string> GetRaw(const std::string& key) const;
  // Expanded and trimmed; an empty value counts as unset.
  std::optional<std::string> GetTrimmed(const std::string& key) const;

  Result<int64_t> GetInt(const std::string& key, int64_t fallback) const;
  Result<double> GetDouble(const std::string& key, double fallback) const;
  Result<bool> GetBool(const std::string& key, bool fallback) const;
  // host:port (rm/config/socket_address.h), as Hadoop's getSocketAddr
  // reads it; `fallback` when unset (it must itself be host:port).
  Result<SocketAddress> GetSocketAddress(const std::string& key, const std::string& fallback) const;
  // Comma-separated, each entry trimmed, empty entries dropped.
  std::vector<std::string> GetTrimmedStrings(const std::string& key) const;

  // The file (or "programmatically") that set the key's current value;
  // "yarn-default.xml (Hadoop 3.3)" and the like for a shipped default of the
  // line; for any other key no file sets, kBuiltInDefaultSource. Errors start
  // with it, so an operator sees which file to fix, or that no file set the key.
  static constexpr char kBuiltInDefaultSource[] = "built-in default (not set in the configuration)";
  std::string SourceOf(const std::string& key) const;
  bool IsFinal(const std::string& key) const;
  // Whether a resource or Set() gave `key` a value (a shipped default of the
  // Hadoop line does not count).
  bool IsSet(const std::string& key) const { return entries_.count(key) != 0; }
  // All keys that start with `prefix`, sorted.
  std::vector<std::string> KeysWithPrefix(std::string_view prefix) const;
  // Every key, sorted (for /conf and diagnostics).
  std::vector<std::string> Keys() const { return KeysWithPrefix(""); }

  // Expands ${...} in an arbitrary string against this configuration.
  Result<std::string> Substitute(const std::string& text) const;

  // Overrides a pseudo system property (tests, or the daemon's own user).
  void SetSystemProperty(const std::string& name, const std::string& value) {
    system_properties_[name] = value;
  }

 private:
  struct Entry {
    std::string value;
    std::string source;
    bool final = false;
  };
  void Apply(const std::string& key, Entry entry);
  // The line whose shipped defaults fill unset keys.
  HadoopLine LineForDefaults() const;
  Status InvalidValue(const std::string& key, const std::string& value,
                      const std::string& expected) const;

  std::map<std::string, Entry> entries_;
  std::map<std::string, std::string> system_properties_;
};

}  // namespace spindle::rm
