#include "base/open_file_limit.h"

#include <glog/logging.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace spindle {
namespace {

int64_t AsInt(rlim_t value) { return value == RLIM_INFINITY ? -1 : static_cast<int64_t>(value); }

std::string Describe(int64_t value) { return value < 0 ? "unlimited" : std::to_string(value); }

}  // namespace

Result<OpenFileLimit> RaiseOpenFileLimit(const char* who) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    const Status error =
        Status::IoError(std::string("cannot read the open-file limit: ") + std::strerror(errno));
    LOG(WARNING) << who << ": " << error.message();
    return error;
  }
  OpenFileLimit result;
  result.before = AsInt(limit.rlim_cur);
  result.hard = AsInt(limit.rlim_max);
  result.after = result.before;
  if (limit.rlim_cur == limit.rlim_max) {
    LOG(INFO) << who << ": open-file limit (RLIMIT_NOFILE) is " << Describe(result.after)
              << ", its hard limit";
    return result;
  }
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    const Status error =
        Status::IoError("cannot raise the open-file limit from " + Describe(result.before) +
                        " to " + Describe(result.hard) + ": " + std::strerror(errno));
    LOG(WARNING) << who << ": " << error.message();
    return error;
  }
  result.after = result.hard;
  LOG(INFO) << who << ": raised the open-file limit (RLIMIT_NOFILE) from "
            << Describe(result.before) << " to its hard limit " << Describe(result.after)
            << ", so many connections do not run it out of descriptors";
  return result;
}

}  // namespace spindle
