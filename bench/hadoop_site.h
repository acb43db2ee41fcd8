// WriteSite: a Hadoop configuration file (yarn-site.xml) for the daemons the
// benchmarks start as children.
//
// Thread-safety: a stateless function.
#pragma once

#include <map>
#include <string>

#include "base/status.h"

namespace spindle::bench {

// Writes <dir>/yarn-site.xml with these properties, creating `dir`.
// IoError if it cannot.
Status WriteSite(const std::string& dir, const std::map<std::string, std::string>& properties);

}  // namespace spindle::bench
