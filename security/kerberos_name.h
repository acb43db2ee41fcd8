// A Kerberos principal name split as Hadoop 3.3's KerberosName does:
// "service[/host][@REALM]", each part free of '/' and '@'. A name that does
// not have that shape is refused when it contains '@' ("Malformed Kerberos
// name: ...") and otherwise taken whole as a service name with no host and
// no realm (so "a/b/c" is one simple name, as in Java).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::security {

struct KerberosName {
  std::string service;
  std::optional<std::string> host;
  std::optional<std::string> realm;

  static Result<KerberosName> Parse(std::string_view name);

  // The parts put back together: service[/host][@realm].
  std::string ToString() const;
};

}  // namespace spindle::security
