// AcknowledgedMark: the sequence number of the newest write the store has
// acknowledged as durable, kept in a small file of its own (kFileName) in the
// store directory, so that a restart can tell whether RocksDB recovered
// everything it acknowledged.
//
// Why a file of our own: RocksDB recovers its write-ahead log (WAL) up to the
// first damaged or missing record and cannot tell a torn record that was
// never acknowledged (a crash in the middle of a write) from acknowledged
// records cut off by a truncated or overwritten log; its own WAL tracking in
// the MANIFEST covers closed logs only, not the live one. The mark is that
// missing fact: a store whose recovered sequence is below it has lost
// acknowledged writes and is refused; one at or above it has lost at most a
// tail nobody was told about.
//
// The file is 24 bytes: a magic, the sequence (little-endian) and a
// checksum of both. It is rewritten in place (one sector, so a write is not
// torn) and synced before Advance() returns.
//
// Thread-safety: Advance() is thread-safe; concurrent callers share one
// write and sync (group commit). Read() is a pure function of the disk.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/mutex.h"
#include "base/result.h"
#include "base/status.h"

namespace spindle::persist {

class AcknowledgedMark {
 public:
  static constexpr std::string_view kFileName = "ACKNOWLEDGED";

  // The mark of the store in `dir`: nullopt when there is no mark file (a
  // store written before marks existed, or a new one); Corruption naming the
  // file when it is garbled; IoError when it cannot be read.
  static Result<std::optional<uint64_t>> Read(const std::string& dir);

  // Opens the mark of `dir` for advancing, creating it holding `initial`
  // (synced, with the directory) when absent.
  static Result<std::unique_ptr<AcknowledgedMark>> Open(const std::string& dir, uint64_t initial);

  ~AcknowledgedMark();
  AcknowledgedMark(const AcknowledgedMark&) = delete;
  AcknowledgedMark& operator=(const AcknowledgedMark&) = delete;

  // Returns once the mark on disk is at least `sequence`. IoError naming the
  // file if it cannot be written or synced (the mark then stays where it
  // was, and a later call tries again).
  Status Advance(uint64_t sequence) EXCLUDES(mu_);

  static std::string PathIn(const std::string& dir);

 private:
  AcknowledgedMark(std::string path, int fd, uint64_t durable)
      : path_(std::move(path)), fd_(fd), durable_(durable), wanted_(durable) {}
  Status WriteAndSync(uint64_t sequence) const;

  const std::string path_;
  const int fd_;
  Mutex mu_;
  CondVar written_;  // signalled when a write ends
  uint64_t durable_ GUARDED_BY(mu_);
  uint64_t wanted_ GUARDED_BY(mu_);
  bool writing_ GUARDED_BY(mu_) = false;
};

}  // namespace spindle::persist
