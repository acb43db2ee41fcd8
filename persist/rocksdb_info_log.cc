#include "persist/rocksdb_info_log.h"

#include <glog/logging.h>

#include <cstdio>
#include <utility>

namespace spindle::persist {

namespace {
// Keeps the captured lines bounded whatever RocksDB logs.
constexpr size_t kMaxWarnings = 64;
}  // namespace

RocksDbInfoLog::RocksDbInfoLog(std::string store_path, bool quiet)
    : rocksdb::Logger(rocksdb::InfoLogLevel::INFO_LEVEL),
      store_path_(std::move(store_path)),
      quiet_(quiet) {}

void RocksDbInfoLog::Logv(const char* format, va_list ap) {
  Logv(rocksdb::InfoLogLevel::INFO_LEVEL, format, ap);
}

void RocksDbInfoLog::Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) {
  const bool warning =
      level >= rocksdb::InfoLogLevel::WARN_LEVEL && level != rocksdb::InfoLogLevel::HEADER_LEVEL;
  if (!warning && (quiet_ || !VLOG_IS_ON(2))) return;
  char buffer[1024];
  const int n = std::vsnprintf(buffer, sizeof(buffer), format, ap);
  if (n < 0) return;
  const std::string line(buffer);
  if (warning) {
    MutexLock lock(&mu_);
    if (warnings_.size() < kMaxWarnings) warnings_.push_back(line);
  }
  if (quiet_) return;
  if (!warning) {
    VLOG(2) << "rocksdb " << store_path_ << ": " << line;
  } else if (level == rocksdb::InfoLogLevel::WARN_LEVEL) {
    LOG(WARNING) << "rocksdb " << store_path_ << ": " << line;
  } else {
    LOG(ERROR) << "rocksdb " << store_path_ << ": " << line;
  }
}

std::vector<std::string> RocksDbInfoLog::Warnings() const {
  MutexLock lock(&mu_);
  return warnings_;
}

}  // namespace spindle::persist
