// HttpGet: one blocking HTTP/1.1 GET on a fresh connection, for tests that
// check a Spindle web server over a real socket. The target is sent as given
// (so tests can send escapes such as %2e%2e). Reads give up after 20 s, so a
// broken server fails the test instead of hanging it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"

namespace spindle::testing {

struct HttpGetResult {
  int status = 0;
  std::string content_type;
  // The Location header (redirects), empty without one.
  std::string location;
  std::string body;
};

// IoError if the connection or the exchange fails.
Result<HttpGetResult> HttpGet(const std::string& host, uint16_t port, const std::string& target,
                              const std::vector<std::pair<std::string, std::string>>& headers = {});

}  // namespace spindle::testing
