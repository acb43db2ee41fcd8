#include "rm/queues/java_float.h"

#include <charconv>
#include <system_error>

namespace spindle::rm {

std::string JavaFloat(float value) {
  // The shortest text that reads back as the same float, as Java prints it
  // (std::to_chars gives "1e-04" where Java gives "1.0E-4"; the queue
  // messages show values within [0, 100], which both print alike).
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  std::string out(buf, ec == std::errc() ? end : buf);
  if (out.find_first_of(".en") == std::string::npos) out += ".0";
  return out;
}

}  // namespace spindle::rm
