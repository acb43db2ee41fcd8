#include "persist/rocksdb_state_store.h"

#include <glog/logging.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/utilities/table_properties_collectors.h>
#include <rocksdb/write_batch.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <charconv>
#include <cstdarg>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "persist/acknowledged_mark.h"
#include "persist/keys.h"
#include "persist/rocksdb_info_log.h"
#include "persist/store_directory.h"

namespace spindle::persist {

namespace fs = std::filesystem;

namespace {

// How often a store whose writes fail asks RocksDB to resume.
constexpr auto kResumeInterval = std::chrono::seconds(5);

// Names of the column families, indexed like RocksDbStateStore::Family.
const std::string& FamilyName(size_t i) {
  static const std::string* const kNames =
      new std::string[]{rocksdb::kDefaultColumnFamilyName, std::string(kApplicationsFamily),
                        std::string(kAttemptsFamily),      std::string(kMasterKeysFamily),
                        std::string(kClusterFamily),       std::string(kNodesFamily)};
  return kNames[i];
}

// "<what> in state store <path>: <rocksdb message>", with a code that keeps
// corruption distinguishable from I/O trouble.
Status FromRocks(const rocksdb::Status& s, std::string_view what, const std::string& path,
                 std::string_view suffix = {}) {
  const std::string msg =
      std::string(what) + " in state store " + path + ": " + s.ToString() + std::string(suffix);
  if (s.IsCorruption()) return Status::Corruption(msg);
  if (s.IsIOError()) return Status::IoError(msg);
  if (s.IsNotFound()) return Status::NotFound(msg);
  if (s.IsInvalidArgument()) return Status::InvalidArgument(msg);
  if (s.IsNotSupported()) return Status::NotSupported(msg);
  if (s.IsBusy() || s.IsTimedOut() || s.IsTryAgain()) return Status::Unavailable(msg);
  return Status::Internal(msg);
}

// Owns a database and its handles for the length of a scope (the read-only
// check at open).
struct ScopedDb {
  rocksdb::DB* db = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  ~ScopedDb() {
    if (db == nullptr) return;
    for (auto* h : handles) db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    db->Close().PermitUncheckedError();
    delete db;
  }
};

bool ParseVersion(std::string_view text, int* version) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *version);
  return ec == std::errc() && ptr == end && *version > 0;
}

}  // namespace

RocksDbStateStore::RocksDbStateStore(StateStoreOptions options) : options_(std::move(options)) {}

RocksDbStateStore::~RocksDbStateStore() {
  MutexLock lock(&mu_);
  CloseLocked();
}

Status RocksDbStateStore::Open() {
  MutexLock lock(&mu_);
  return OpenLocked(options_.create_if_missing);
}

Status RocksDbStateStore::Close() {
  MutexLock lock(&mu_);
  CloseLocked();
  return Status::OK();
}

Result<RocksDbStateStore::Pinned> RocksDbStateStore::Pin() {
  MutexLock lock(&mu_);
  if (db_ == nullptr || closing_) {
    return Status::Unavailable("state store " + options_.path + " is not open");
  }
  ++in_flight_;
  Pinned pinned;
  pinned.db = db_.get();
  for (size_t i = 0; i < kNumFamilies; ++i) pinned.handles[i] = handles_[i];
  pinned.mark = mark_.get();
  return pinned;
}

void RocksDbStateStore::Unpin() {
  MutexLock lock(&mu_);
  CHECK_GT(in_flight_, 0);
  if (--in_flight_ == 0) idle_.SignalAll();
}

void RocksDbStateStore::CloseLocked() {
  if (db_ == nullptr) return;
  // Calls that pinned the database finish first; new ones are refused, so
  // the wait ends.
  closing_ = true;
  while (in_flight_ > 0) idle_.Wait(&mu_);
  closing_ = false;
  if (db_ == nullptr) return;  // a concurrent Close() got there first
  for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  handles_.clear();
  // Every write is already in the log, so an error closing leaves the data
  // as recoverable as a crash would: warn, and go on.
  const rocksdb::Status s = db_->Close();
  if (!s.ok()) LOG(WARNING) << "closing state store " << options_.path << ": " << s.ToString();
  db_.reset();
  mark_.reset();
  write_failing_ = false;
}

namespace {

// Holds RocksDB's LOCK file of a store for the length of the checks at
// open, so that a store in use by another process (or another store object
// of this one) is reported as such, not as damaged. A store without a LOCK
// file has never been opened, and nobody holds it; none is created.
class ScopedStoreLock {
 public:
  ~ScopedStoreLock() {
    if (lock_ != nullptr) rocksdb::Env::Default()->UnlockFile(lock_).PermitUncheckedError();
  }
  Status Acquire(const std::string& path) {
    const std::string lock_file = path + "/LOCK";
    std::error_code ec;
    if (!fs::exists(lock_file, ec)) return Status::OK();
    const rocksdb::Status s = rocksdb::Env::Default()->LockFile(lock_file, &lock_);
    if (!s.ok()) {
      lock_ = nullptr;
      return Status::Unavailable("state store " + path +
                                 " is in use by another ResourceManager (or another store in this "
                                 "process): " +
                                 s.ToString());
    }
    return Status::OK();
  }

 private:
  rocksdb::FileLock* lock_ = nullptr;
};

// The options of the read-only opens that check a store before it is opened
// for writing: they replay the write-ahead log into memory only, and log
// into `log` (nothing is written to the directory).
rocksdb::DBOptions CheckOptions(const std::shared_ptr<RocksDbInfoLog>& log,
                                rocksdb::WALRecoveryMode mode) {
  rocksdb::DBOptions o;
  o.info_log = log;
  o.paranoid_checks = true;
  o.track_and_verify_wals_in_manifest = true;
  o.wal_recovery_mode = mode;
  return o;
}

// The lines RocksDB logged about damage it found, for a refusal message.
std::string DamageLines(const RocksDbInfoLog& log) {
  std::string lines;
  for (const std::string& line : log.Warnings()) {
    if (line.find("dropping") == std::string::npos && line.find("orruption") == std::string::npos &&
        line.find("rror") == std::string::npos) {
      continue;
    }
    lines += (lines.empty() ? "" : "; ") + line;
    if (lines.size() > 1000) break;
  }
  return lines;
}

}  // namespace

Status RocksDbStateStore::CheckAcknowledgedLocked(const StoreDirectory& dir, uint64_t recovered,
                                                  const std::vector<std::string>& families) {
  const std::string& path = options_.path;
  const Result<std::optional<uint64_t>> read = AcknowledgedMark::Read(path);
  if (!read.ok()) {
    const std::string msg = "state store " + path + ": " + read.status().message() +
                            "; what it acknowledged cannot be told. " + DamagedStoreRemedy();
    return read.status().code() == Status::Code::kCorruption ? Status::Corruption(msg)
                                                             : Status::IoError(msg);
  }
  const std::optional<uint64_t> mark = *read;
  // A store written before marks existed: nothing to compare with.
  if (!mark.has_value() || recovered >= *mark) return Status::OK();
  // Lost acknowledged writes. A strict replay names the damaged log and what
  // is wrong with it (RocksDB says so only in its log).
  std::string detail;
  auto log = std::make_shared<RocksDbInfoLog>(path, /*quiet=*/true);
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : families)
    descriptors.emplace_back(name, rocksdb::ColumnFamilyOptions());
  ScopedDb strict;
  const rocksdb::Status s = rocksdb::DB::OpenForReadOnly(
      CheckOptions(log, rocksdb::WALRecoveryMode::kAbsoluteConsistency), path, descriptors,
      &strict.handles, &strict.db);
  if (!s.ok()) {
    const std::string lines = DamageLines(*log);
    detail = "the write-ahead log is damaged: " + (lines.empty() ? s.ToString() : lines);
  } else if (dir.wal_files.empty()) {
    detail = "no write-ahead log (*.log) is left in the directory: it was deleted";
  } else {
    std::string files;
    for (const auto& f : dir.wal_files) files += (files.empty() ? "" : ", ") + path + "/" + f;
    detail =
        "the write-ahead log (" + files + ") ends early: it was cut short or a log was deleted";
  }
  return Status::Corruption("state store " + path +
                            " has lost writes it acknowledged: it holds "
                            "writes up to sequence number " +
                            std::to_string(recovered) + " but acknowledged up to " +
                            std::to_string(*mark) + " (" + AcknowledgedMark::PathIn(path) + "); " +
                            detail + ". " + DamagedStoreRemedy());
}

Result<bool> RocksDbStateStore::CheckExistingLocked(const StoreDirectory& dir) {
  const std::string& path = options_.path;
  ScopedStoreLock lock;
  RETURN_NOT_OK(lock.Acquire(path));
  std::vector<std::string> names;
  auto log = std::make_shared<RocksDbInfoLog>(path, /*quiet=*/true);
  const rocksdb::DBOptions db_options =
      CheckOptions(log, rocksdb::WALRecoveryMode::kPointInTimeRecovery);
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(db_options, path, &names);
  if (!s.ok()) {
    return FromRocks(s, "listing column families", path, ". " + DamagedStoreRemedy());
  }
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    bool known = false;
    for (size_t i = 0; i < kNumFamilies; ++i) known = known || name == FamilyName(i);
    if (!known) {
      return Status::NotSupported("state store " + path + " has column family '" + name +
                                  "', unknown to format version " + std::to_string(kFormatVersion) +
                                  "; refusing to open it (data left untouched)");
    }
    descriptors.emplace_back(name, rocksdb::ColumnFamilyOptions());
  }
  // Read-only: the check must not change anything (not even replay the log
  // into a new table file) in a store we may be about to refuse. The replay
  // stops at the first damaged record; what it reaches is compared with the
  // acknowledged mark.
  ScopedDb ro;
  s = rocksdb::DB::OpenForReadOnly(db_options, path, descriptors, &ro.handles, &ro.db);
  if (!s.ok()) {
    const std::string lines = DamageLines(*log);
    return FromRocks(s, "opening", path,
                     (lines.empty() ? "" : " (" + lines + ")") + ". " + DamagedStoreRemedy());
  }
  RETURN_NOT_OK(CheckAcknowledgedLocked(dir, ro.db->GetLatestSequenceNumber(), names));
  size_t default_index = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == rocksdb::kDefaultColumnFamilyName) default_index = i;
  }
  std::string value;
  s = ro.db->Get(rocksdb::ReadOptions(), ro.handles[default_index],
                 rocksdb::Slice(kFormatVersionKey.data(), kFormatVersionKey.size()), &value);
  if (s.IsNotFound()) {
    for (auto* h : ro.handles) {
      std::unique_ptr<rocksdb::Iterator> it(ro.db->NewIterator(rocksdb::ReadOptions(), h));
      it->SeekToFirst();
      if (!it->status().ok()) return FromRocks(it->status(), "reading", path);
      if (it->Valid()) {
        return Status::Corruption("state store " + path +
                                  " holds records but no format version key; refusing to open "
                                  "it (data left untouched; format the store to discard it)");
      }
    }
    return true;  // created, then cut short before the version was written
  }
  if (!s.ok()) return FromRocks(s, "reading the format version", path);
  int version = 0;
  if (!ParseVersion(value, &version)) {
    return Status::Corruption("state store " + path + " has a garbled format version (" +
                              std::to_string(value.size()) +
                              " bytes); refusing to open it (data left untouched)");
  }
  if (version != kFormatVersion) {
    return Status::NotSupported(
        "state store " + path + " has format version " + std::to_string(version) + ", " +
        (version > kFormatVersion ? "newer than" : "older than") + " version " +
        std::to_string(kFormatVersion) +
        " that this Spindle reads; refusing to open it (data left untouched)");
  }
  return false;
}

Status RocksDbStateStore::CheckFreeSpace(const StoreDirectory& dir) const {
  struct statvfs st {};
  if (::statvfs(options_.path.c_str(), &st) != 0) return Status::OK();  // cannot tell: try
  // Root may also use the blocks the filesystem reserves for it.
  const uint64_t free_blocks = ::geteuid() == 0 ? st.f_bfree : st.f_bavail;
  const uint64_t free_bytes = uint64_t{free_blocks} * st.f_frsize;
  // Opening replays the write-ahead log into table files, rewrites the
  // MANIFEST and writes an OPTIONS file; the margin covers the latter and the
  // first writes of the RM.
  const uint64_t needed = dir.wal_bytes + dir.manifest_bytes + (uint64_t{1} << 20);
  if (free_bytes >= needed) return Status::OK();
  return Status::IoError("state store " + options_.path + ": no space left on its filesystem (" +
                         std::to_string(free_bytes) + " bytes free, opening it needs about " +
                         std::to_string(needed) +
                         "); nothing was changed: free some space and start again");
}

Status RocksDbStateStore::OpenLocked(bool create) {
  if (db_ != nullptr) return Status::OK();
  RETURN_NOT_OK(options_.Validate());
  const std::string& path = options_.path;
  ASSIGN_OR_RETURN(const StoreDirectory dir, InspectStoreDirectory(path));
  if (!dir.has_current && !dir.data_files.empty()) {
    // RocksDB would take this for a new database and delete the old files.
    std::string files;
    for (size_t i = 0; i < dir.data_files.size() && i < 8; ++i) {
      files += (i == 0 ? "" : ", ") + dir.data_files[i];
    }
    if (dir.data_files.size() > 8) files += ", ...";
    return Status::Corruption("state store " + path + ": file " + path +
                              "/CURRENT is missing (it names the store's MANIFEST), but the "
                              "directory holds a store's files (" +
                              files + "), so its records cannot be found. " + DamagedStoreRemedy());
  }
  if (!dir.has_current && !create) {
    return Status::NotFound("no state store at " + path + " and create_if_missing is off");
  }
  if (!dir.exists) {
    std::error_code ec;
    fs::create_directory(path, ec);
    if (ec)
      return Status::IoError("cannot create the state store directory " + path + ": " +
                             ec.message());
  }
  bool initialise = !dir.has_current;
  if (dir.has_current) {
    RETURN_NOT_OK(CheckFreeSpace(dir));
    ASSIGN_OR_RETURN(initialise, CheckExistingLocked(dir));
  }

  rocksdb::DBOptions db_options;
  // Only a directory without a store may be given a new one (see above).
  db_options.create_if_missing = !dir.has_current;
  db_options.create_missing_column_families = true;
  db_options.paranoid_checks = true;
  db_options.track_and_verify_wals_in_manifest = true;
  // The checks above proved that everything acknowledged is recovered; a
  // damaged tail beyond it was never acknowledged and is dropped.
  db_options.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  db_options.info_log = std::make_shared<RocksDbInfoLog>(path, /*quiet=*/false);
  db_options.max_total_wal_size = options_.max_wal_bytes;

  rocksdb::ColumnFamilyOptions cf_options;
  cf_options.write_buffer_size = options_.write_buffer_bytes;
  cf_options.level_compaction_dynamic_level_bytes = true;
  cf_options.table_properties_collector_factories.push_back(
      rocksdb::NewCompactOnDeletionCollectorFactory(options_.deletion_compaction_window,
                                                    options_.deletion_compaction_trigger));
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (size_t i = 0; i < kNumFamilies; ++i) descriptors.emplace_back(FamilyName(i), cf_options);

  rocksdb::DB* raw = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  const rocksdb::Status s = rocksdb::DB::Open(db_options, path, descriptors, &handles, &raw);
  if (!s.ok()) return FromRocks(s, "opening", path);
  CHECK_EQ(handles.size(), static_cast<size_t>(kNumFamilies));
  db_.reset(raw);
  handles_ = std::move(handles);

  if (initialise) {
    rocksdb::WriteOptions wo;
    wo.sync = true;  // the version must be durable before any record is
    const std::string version = std::to_string(kFormatVersion);
    const rocksdb::Status ws =
        db_->Put(wo, handles_[kDefault],
                 rocksdb::Slice(kFormatVersionKey.data(), kFormatVersionKey.size()), version);
    if (!ws.ok()) {
      CloseLocked();
      return FromRocks(ws, "writing the format version", path);
    }
  }
  // The read-only check and this recovery read the same files under the
  // same lock, so this holds; it is checked again so that the store never
  // runs on less than it acknowledged even if they differed.
  if (dir.has_current) {
    auto acknowledged = AcknowledgedMark::Read(path);
    if (acknowledged.ok() && acknowledged->has_value() &&
        db_->GetLatestSequenceNumber() < **acknowledged) {
      const uint64_t recovered = db_->GetLatestSequenceNumber();
      CloseLocked();
      return Status::Corruption("state store " + path + " recovered writes up to sequence number " +
                                std::to_string(recovered) + " but acknowledged up to " +
                                std::to_string(**acknowledged) + ". " +
                                DamagedStoreRemedy(/*untouched=*/false));
    }
  }
  // A store without a mark (new, or written before marks existed) gets one
  // at what it holds now.
  auto mark = AcknowledgedMark::Open(path, db_->GetLatestSequenceNumber());
  if (!mark.ok()) {
    CloseLocked();
    return mark.status().WithContext("state store " + path);
  }
  mark_ = std::move(mark).value();
  if (initialise) {
    LOG(INFO) << "initialised state store " << path << " (format version " << kFormatVersion << ")";
  } else {
    LOG(INFO) << "opened state store " << path;
  }
  return Status::OK();
}

Result<LoadedState> RocksDbStateStore::Load() {
  ASSIGN_OR_RETURN(const Pinned pinned, Pin());
  // A RocksDB snapshot makes the state one point in time while writers go on.
  const rocksdb::Snapshot* snapshot = pinned.db->GetSnapshot();
  Result<LoadedState> result = LoadFrom(pinned, snapshot);
  pinned.db->ReleaseSnapshot(snapshot);
  Unpin();
  return result;
}

Result<LoadedState> RocksDbStateStore::LoadFrom(const Pinned& pinned,
                                                const rocksdb::Snapshot* snapshot) const {
  const std::string& path = options_.path;
  LoadedState state;
  rocksdb::ReadOptions ro;
  ro.snapshot = snapshot;
  ro.verify_checksums = true;
  ro.fill_cache = false;  // a full scan at startup would only evict
  for (size_t f = kApplications; f < kNumFamilies; ++f) {
    std::unique_ptr<rocksdb::Iterator> it(pinned.db->NewIterator(ro, pinned.handles[f]));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key(it->key().data(), it->key().size());
      std::string value = it->value().ToString();
      switch (static_cast<Family>(f)) {
        case kApplications:
          state.applications.emplace(key, std::move(value));
          break;
        case kAttempts: {
          auto parts = ParseAttemptKey(key);
          if (!parts.ok()) return parts.status().WithContext("state store " + path + ": ");
          state.attempts[parts->app_id].emplace(std::move(parts->attempt_id), std::move(value));
          break;
        }
        case kMasterKeys: {
          auto parts = ParseMasterKeyKey(key);
          if (!parts.ok()) return parts.status().WithContext("state store " + path + ": ");
          state.master_keys.emplace(std::make_pair(std::move(parts->family), parts->key_id),
                                    std::move(value));
          break;
        }
        case kCluster: {
          bool known = false;
          for (ClusterField field :
               {ClusterField::kClusterTimestamp, ClusterField::kAppIdCounter, ClusterField::kEpoch,
                ClusterField::kQueueConfigVersion, ClusterField::kDelegationTokenSequence}) {
            if (key != ClusterFieldName(field)) continue;
            auto v = DecodeInt64(value);
            if (!v.ok()) {
              return v.status().WithContext("state store " + path + ": cluster field " +
                                            std::string(key) + ": ");
            }
            state.cluster[field] = *v;
            known = true;
          }
          if (!known) {
            return Status::Corruption("state store " + path + ": unknown cluster field '" +
                                      std::string(key) + "'");
          }
          break;
        }
        case kNodes:
          state.nodes.emplace(key, std::move(value));
          break;
        default:
          LOG(FATAL) << "unreachable column family " << f;
      }
    }
    if (!it->status().ok()) {
      return FromRocks(it->status(), std::string("reading ") + FamilyName(f), path);
    }
  }
  return state;
}

Status RocksDbStateStore::Apply(const StoreBatch& batch) {
  RETURN_NOT_OK(batch.Validate());
  if (batch.empty()) return Status::OK();
  ASSIGN_OR_RETURN(const Pinned pinned, Pin());
  MaybeResume(pinned);
  const Status status = ApplyTo(pinned, batch);
  NoteWriteResult(status);
  Unpin();
  return status;
}

void RocksDbStateStore::MaybeResume(const Pinned& pinned) {
  {
    MutexLock lock(&mu_);
    if (!write_failing_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_resume_ < kResumeInterval) return;
    last_resume_ = now;
  }
  // OK at once when RocksDB has no error (it may have recovered by itself);
  // Busy while its own recovery runs.
  const rocksdb::Status s = pinned.db->Resume();
  if (!s.ok()) VLOG(1) << "state store " << options_.path << " not resumed: " << s.ToString();
}

void RocksDbStateStore::NoteWriteResult(const Status& status) {
  MutexLock lock(&mu_);
  if (status.ok()) {
    // The RM says so itself (rm/recovery/store_failure_guard.h).
    if (write_failing_) VLOG(1) << "state store " << options_.path << " accepts writes again";
    write_failing_ = false;
    return;
  }
  if (status.code() == Status::Code::kInvalidArgument || write_failing_) return;
  write_failing_ = true;
  last_resume_ = std::chrono::steady_clock::now();
}

Status RocksDbStateStore::ApplyTo(const Pinned& pinned, const StoreBatch& batch) const {
  using Kind = StoreBatch::Kind;
  using OpType = StoreBatch::OpType;
  // One RocksDB WriteBatch per logical update: it reaches the log as one
  // record, so a crash keeps all of it or none.
  rocksdb::WriteBatch wb;
  rocksdb::Status s;
  for (const StoreBatch::Op& op : batch.ops()) {
    switch (op.kind) {
      case Kind::kApplication:
        if (op.type == OpType::kPut) {
          s = wb.Put(pinned.handles[kApplications], op.id, op.value);
        } else {
          s = wb.Delete(pinned.handles[kApplications], op.id);
          // A range tombstone covers attempts written by any earlier batch
          // without reading them first.
          if (s.ok()) {
            s = wb.DeleteRange(pinned.handles[kAttempts], AttemptRangeBegin(op.id),
                               AttemptRangeEnd(op.id));
          }
        }
        break;
      case Kind::kAttempt:
        if (op.type == OpType::kPut) {
          s = wb.Put(pinned.handles[kAttempts], AttemptKey(op.id, op.sub_id), op.value);
        } else {
          s = wb.Delete(pinned.handles[kAttempts], AttemptKey(op.id, op.sub_id));
        }
        break;
      case Kind::kMasterKey:
        if (op.type == OpType::kPut) {
          s = wb.Put(pinned.handles[kMasterKeys], MasterKeyKey(op.id, op.number), op.value);
        } else {
          s = wb.Delete(pinned.handles[kMasterKeys], MasterKeyKey(op.id, op.number));
        }
        break;
      case Kind::kCluster:
        s = wb.Put(pinned.handles[kCluster], ClusterFieldName(op.field), EncodeInt64(op.number));
        break;
      case Kind::kNode:
        if (op.type == OpType::kPut) {
          s = wb.Put(pinned.handles[kNodes], op.id, op.value);
        } else {
          s = wb.Delete(pinned.handles[kNodes], op.id);
        }
        break;
    }
    if (!s.ok()) return FromRocks(s, "building a write batch", options_.path);
  }
  rocksdb::WriteOptions wo;
  wo.sync = options_.sync_writes && batch.sync();
  s = pinned.db->Write(wo, &wb);
  if (!s.ok()) return FromRocks(s, "writing", options_.path);
  if (!wo.sync) return Status::OK();
  // The write is acknowledged once the mark covers it. Write() leaves the
  // batch's first sequence number in its header (the WriteBatch format:
  // fixed64 sequence, fixed32 count, records); each record takes one.
  const rocksdb::Slice data = wb.Data();
  CHECK_GE(data.size(), 12u);
  uint64_t first = 0;
  for (int i = 0; i < 8; ++i) first |= uint64_t{static_cast<unsigned char>(data[i])} << (8 * i);
  CHECK_GT(first, 0u) << "RocksDB did not number the batch";
  return pinned.mark->Advance(first + wb.Count() - 1).WithContext("state store " + options_.path);
}

Status RocksDbStateStore::Format() {
  MutexLock lock(&mu_);
  const bool was_open = db_ != nullptr;
  CloseLocked();
  const std::string& path = options_.path;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st)) {
      return Status::InvalidArgument("state store path " + path + " is not a directory");
    }
    // DestroyDB removes the database's own files whatever its format; files
    // it does not know (none of ours) stay.
    rocksdb::Options destroy_options;
    destroy_options.info_log = std::make_shared<RocksDbInfoLog>(path, /*quiet=*/false);
    const rocksdb::Status s = rocksdb::DestroyDB(path, destroy_options);
    if (!s.ok()) return FromRocks(s, "formatting", path);
    // DestroyDB leaves files it does not know; the mark belongs to the
    // discarded records.
    std::error_code rm_ec;
    fs::remove(AcknowledgedMark::PathIn(path), rm_ec);
    if (rm_ec) {
      return Status::IoError("formatting state store " + path + ": cannot remove " +
                             AcknowledgedMark::PathIn(path) + ": " + rm_ec.message());
    }
  }
  LOG(WARNING) << "formatted state store " << path << ": all records deleted";
  RETURN_NOT_OK(OpenLocked(/*create=*/true));
  if (!was_open) CloseLocked();
  return Status::OK();
}

}  // namespace spindle::persist
