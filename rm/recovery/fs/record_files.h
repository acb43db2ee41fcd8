// RecordFiles: Hadoop FileSystemRMStateStore's file protocol on a local
// directory (the same in 2.6, 2.7 and 3.3), with the checksum files of
// Hadoop's LocalFileSystem (hadoop_checksum_file.h):
//
//   Write   writeFile: the data goes to "<name>.tmp" (and its .crc), which
//           is then renamed to <name> (data first, then the .crc, as
//           ChecksumFileSystem.rename). A crash leaves <name> untouched or
//           complete; a leftover .tmp is a partial record.
//   Update  updateFile, for a record that exists: Write "<name>.new", delete
//           <name>, rename "<name>.new" to <name>. A crash leaves the old
//           record, or a complete ".new" that replaces it on recovery.
//   Delete  the checksum file, then the file (ChecksumFileSystem.delete).
//
// CleanLeftovers does what a Java RM's load does in each directory it reads
// (checkAndResumeUpdateOperation, checkAndRemovePartialRecord): finish each
// pending ".new", delete each ".tmp"; it also deletes checksum files whose
// file is gone (a crash between the two renames or deletes leaves one; a
// Java RM ignores them). Spindle runs it in every directory of the store,
// including FSRMStateRoot itself, where Java does not (an EpochNode.new left
// there would make a Java RM start at epoch 0 again).
//
// Files are created 0600 and directories 0700 (they hold secrets; a Java RM
// running as the same user reads them). With `sync`, every file is fsynced
// before its rename, and SyncDirectories() fsyncs each directory changed
// since its last call.
//
// Errors: IoError naming the path and the system's reason; Corruption for a
// record that does not match its checksum file.
//
// Thread-safety: not thread-safe (the store serialises its calls).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/status.h"

namespace spindle::rm::fsstore {

class RecordFiles {
 public:
  explicit RecordFiles(bool sync) : sync_(sync) {}

  // Whether what follows is synced (a batch that need not be: see
  // persist::StoreBatch::set_sync).
  void set_sync(bool sync) { sync_ = sync; }

  Status Write(const std::string& path, std::string_view bytes);
  Status Update(const std::string& path, std::string_view bytes);
  // Update if the record exists, Write otherwise (as the Java RM's store
  // and update calls).
  Status Put(const std::string& path, std::string_view bytes);
  // OK when there was nothing to delete.
  Status Delete(const std::string& path);
  // A directory and everything in it; OK if absent.
  Status DeleteTree(const std::string& dir);
  // With missing parents; OK if it exists.
  Status MakeDirectory(const std::string& dir);

  bool Exists(const std::string& path) const;
  bool IsDirectory(const std::string& path) const;
  // The record, checked against its checksum file when there is one;
  // nullopt if absent.
  Result<std::optional<std::string>> Read(const std::string& path) const;
  // The names in `dir` other than checksum files, sorted; empty if `dir`
  // does not exist.
  Result<std::vector<std::string>> List(const std::string& dir) const;

  Status CleanLeftovers(const std::string& dir);

  // fsyncs the directories changed since the last call (with `sync`).
  Status SyncDirectories();

 private:
  Status WriteData(const std::string& path, std::string_view bytes);
  Status Rename(const std::string& from, const std::string& to);
  // Renames a record and its checksum file (dropping a stale checksum of
  // `to` when `from` has none).
  Status RenameRecord(const std::string& from, const std::string& to);
  Status Unlink(const std::string& path);
  void Touched(const std::string& path);

  bool sync_;
  std::set<std::string> changed_dirs_;
};

// "<dir>/<name>" -> "<dir>", "<name>".
std::string DirectoryOf(const std::string& path);
std::string BaseNameOf(const std::string& path);

}  // namespace spindle::rm::fsstore
