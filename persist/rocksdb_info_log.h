// RocksDbInfoLog: where RocksDB's informational log goes instead of a LOG
// file in the store directory.
//
// RocksDB's own LOG file is kept out of the store directory for two reasons:
// opening a database rotates it (LOG -> LOG.old.*), so even a store Spindle
// refuses would be changed; and on a full disk RocksDB's file logger, after
// one failed write, aborts the process on the next one (librocksdb 7.8 built
// with assertions: `Assertion 'sync_without_flush_called_' failed` in
// WritableFileWriter, reached from EnvLogger::Logv). Lines at WARN and above
// go to the RM's log (glog WARNING/ERROR) prefixed with the store path;
// INFO and below to VLOG(2). With `capture`, lines at WARN and above are also
// kept, for the refusal message of a damaged store (RocksDB names the
// damaged write-ahead log only in its log).
//
// Thread-safety: thread-safe (RocksDB logs from its background threads).
#pragma once

#include <rocksdb/env.h>

#include <cstdarg>
#include <string>
#include <vector>

#include "base/mutex.h"

namespace spindle::persist {

class RocksDbInfoLog final : public rocksdb::Logger {
 public:
  // `quiet`: nothing reaches glog (the read-only checks at open, whose
  // findings Spindle reports itself).
  RocksDbInfoLog(std::string store_path, bool quiet);

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override;
  void Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) override;

  // Lines logged at WARN and above so far.
  std::vector<std::string> Warnings() const EXCLUDES(mu_);

 private:
  const std::string store_path_;
  const bool quiet_;
  mutable Mutex mu_;
  std::vector<std::string> warnings_ GUARDED_BY(mu_);
};

}  // namespace spindle::persist
