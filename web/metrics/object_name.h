// ObjectName: JMX object names and patterns, as /jmx?qry= takes them
// ("Hadoop:service=ResourceManager,name=QueueMetrics,*", "*:*",
// "java.lang:type=OperatingSystem"). A name is "domain:key=value[,key=value]";
// a pattern may use * and ? in the domain and in values, and end its key
// list with ",*" (or be "domain:*") to match names with more keys. Keys are
// unordered, as in javax.management.ObjectName. Quoted values are not
// supported (no bean of ours uses them).
//
// Thread-safety: values.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace spindle::web {

class ObjectName {
 public:
  // InvalidArgument (as MalformedObjectNameException) for a name without
  // ':', an empty key list, a key without '=', an empty key, or a repeated
  // key.
  static Result<ObjectName> Parse(std::string_view text);

  // Whether this pattern (or name) matches the name `name`.
  bool Matches(const ObjectName& name) const;

  const std::string& domain() const { return domain_; }
  // The value of `key`, or "".
  std::string Get(std::string_view key) const;
  bool is_property_pattern() const { return property_pattern_; }

 private:
  std::string domain_;
  std::vector<std::pair<std::string, std::string>> keys_;
  bool property_pattern_ = false;
};

// Glob match: '*' any run, '?' one character.
bool GlobMatch(std::string_view pattern, std::string_view text);

}  // namespace spindle::web
