#include "persist/rocksdb_state_store.h"

#include <glog/logging.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/utilities/table_properties_collectors.h>
#include <rocksdb/write_batch.h>

#include <charconv>
#include <cstdarg>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "persist/keys.h"

namespace spindle::persist {

namespace fs = std::filesystem;

namespace {

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
Status FromRocks(const rocksdb::Status& s, std::string_view what, const std::string& path) {
  const std::string msg = std::string(what) + " in state store " + path + ": " + s.ToString();
  if (s.IsCorruption()) return Status::Corruption(msg);
  if (s.IsIOError()) return Status::IoError(msg);
  if (s.IsNotFound()) return Status::NotFound(msg);
  if (s.IsInvalidArgument()) return Status::InvalidArgument(msg);
  if (s.IsNotSupported()) return Status::NotSupported(msg);
  if (s.IsBusy() || s.IsTimedOut() || s.IsTryAgain()) return Status::Unavailable(msg);
  return Status::Internal(msg);
}

// Discards RocksDB's informational log. The read-only check at open uses it:
// opening a LOG file would rotate the previous one, and a store we refuse
// must be left exactly as it was.
class DiscardLogger : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char* /*format*/, va_list /*ap*/) override {}
};

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
}

Result<bool> RocksDbStateStore::CheckExistingLocked() {
  const std::string& path = options_.path;
  std::vector<std::string> names;
  rocksdb::DBOptions db_options;
  db_options.info_log = std::make_shared<DiscardLogger>();
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(db_options, path, &names);
  if (!s.ok()) return FromRocks(s, "listing column families", path);
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
  // into a new table file) in a store we may be about to refuse.
  ScopedDb ro;
  s = rocksdb::DB::OpenForReadOnly(db_options, path, descriptors, &ro.handles, &ro.db);
  if (!s.ok()) return FromRocks(s, "opening read-only", path);
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

Status RocksDbStateStore::OpenLocked(bool create) {
  if (db_ != nullptr) return Status::OK();
  RETURN_NOT_OK(options_.Validate());
  const std::string& path = options_.path;

  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return Status::IoError("state store path " + path + ": " + ec.message());
  }
  const bool exists = fs::exists(st);
  if (exists && !fs::is_directory(st)) {
    return Status::InvalidArgument("state store path " + path + " is not a directory");
  }
  const bool has_db = exists && fs::exists(fs::path(path) / "CURRENT", ec);
  if (!has_db && !create) {
    return Status::NotFound("no state store at " + path + " and create_if_missing is off");
  }
  bool initialise = !has_db;
  if (has_db) {
    ASSIGN_OR_RETURN(initialise, CheckExistingLocked());
  }

  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  db_options.paranoid_checks = true;
  db_options.max_total_wal_size = options_.max_wal_bytes;
  db_options.keep_log_file_num = options_.max_info_log_files;
  db_options.max_log_file_size = size_t{4} << 20;

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
  const Status status = ApplyTo(pinned, batch);
  Unpin();
  return status;
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
  return Status::OK();
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
    const rocksdb::Status s = rocksdb::DestroyDB(path, rocksdb::Options());
    if (!s.ok()) return FromRocks(s, "formatting", path);
  }
  LOG(WARNING) << "formatted state store " << path << ": all records deleted";
  RETURN_NOT_OK(OpenLocked(/*create=*/true));
  if (!was_open) CloseLocked();
  return Status::OK();
}

}  // namespace spindle::persist
