#include "base/process_user.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

namespace spindle {

namespace {

// The passwd entry field `pick` of the real uid, or "?" (what the JVM sets
// when it cannot look the uid up).
template <typename Pick>
std::string PasswdField(Pick pick) {
  long size = sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buffer(size > 0 ? static_cast<size_t>(size) : 16384);
  passwd entry{};
  passwd* found = nullptr;
  if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr) {
    return "?";
  }
  const char* value = pick(*found);
  return value != nullptr && *value != '\0' ? value : "?";
}

}  // namespace

std::string ProcessUserName() {
  return PasswdField([](const passwd& pw) { return pw.pw_name; });
}

std::string ProcessUserHome() {
  return PasswdField([](const passwd& pw) { return pw.pw_dir; });
}

std::string LoginUserName() {
  if (const char* env = std::getenv("HADOOP_USER_NAME"); env != nullptr && *env != '\0') {
    return env;
  }
  return ProcessUserName();
}

}  // namespace spindle
