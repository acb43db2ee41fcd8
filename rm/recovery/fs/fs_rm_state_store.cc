#include "rm/recovery/fs/fs_rm_state_store.h"

#include <glog/logging.h>

#include <climits>
#include <cstring>
#include <thread>
#include <utility>

#include "rm/recovery/fs/batch_journal.h"
#include "rm/recovery/rm_state.h"
#include "rm/recovery/store_record_names.h"

namespace spindle::rm {

using persist::ClusterField;
using persist::StoreBatch;
using namespace fsstore;  // NOLINT(google-build-using-namespace): the layout's names

FsRmStateStore::FsRmStateStore(FsStoreOptions options)
    : options_(std::move(options)), layout_(options_.directory), files_(options_.sync_writes) {}

FsRmStateStore::~FsRmStateStore() { (void)Close(); }

template <typename Op>
auto FsRmStateStore::WithRetries(Op op) -> decltype(op()) {
  mu_.AssertHeld();
  for (int retry = 0;; ++retry) {
    auto result = op();
    const Status& status = [&]() -> const Status& {
      if constexpr (std::is_same_v<decltype(result), Status>) {
        return result;
      } else {
        return result.status();
      }
    }();
    if (status.ok() || status.code() != Status::Code::kIoError || retry >= options_.num_retries) {
      return result;
    }
    LOG(INFO) << "FileSystem state store: " << status.ToString() << "; retry " << retry + 1
              << " of " << options_.num_retries;
    std::this_thread::sleep_for(options_.retry_interval);
  }
}

Status FsRmStateStore::CreateStructure() {
  for (const std::string& dir : layout_.Directories(options_.hadoop3)) {
    RETURN_NOT_OK(files_.MakeDirectory(dir));
  }
  return Status::OK();
}

Status FsRmStateStore::CleanAllLeftovers() {
  std::vector<std::string> dirs = layout_.Directories(options_.hadoop3);
  for (const std::string& parent :
       {layout_.app_root(), layout_.SpindleKeys(), layout_.SpindleAppRecords()}) {
    ASSIGN_OR_RETURN(std::vector<std::string> names, files_.List(parent));
    for (const std::string& name : names) {
      if (files_.IsDirectory(parent + "/" + name)) dirs.push_back(parent + "/" + name);
    }
  }
  for (const std::string& dir : dirs) {
    if (dir == layout_.directory()) continue;  // not the store's: the URI's directory
    RETURN_NOT_OK(files_.CleanLeftovers(dir));
  }
  return Status::OK();
}

Result<std::string> FsRmStateStore::EpochNodeBytes() {
  ASSIGN_OR_RETURN(std::optional<std::string> bytes, files_.Read(layout_.epoch_file()));
  return bytes.value_or("");
}

Status FsRmStateStore::ReplayJournal() {
  ASSIGN_OR_RETURN(std::optional<std::string> bytes, files_.Read(layout_.journal_file()));
  if (!bytes) return Status::OK();
  auto entry = DecodeJournal(*bytes);
  if (!entry.ok()) return entry.status().WithContext(layout_.journal_file() + ": ");
  ASSIGN_OR_RETURN(const std::string epoch, EpochNodeBytes());
  // The batch may itself have set the epoch before the crash.
  std::optional<std::string> epoch_after;
  for (const StoreBatch::Op& op : entry->batch.ops()) {
    if (op.kind == StoreBatch::Kind::kCluster && op.field == ClusterField::kEpoch) {
      epoch_after = zkstore::EncodeEpochNode(op.number);
    }
  }
  if (epoch != entry->epoch_node && epoch != epoch_after) {
    LOG(WARNING) << "FileSystem state store: dropping the batch journal " << layout_.journal_file()
                 << " of an earlier run: another ResourceManager has started on the store since";
  } else {
    LOG(WARNING) << "FileSystem state store: applying again the " << entry->batch.size()
                 << " operations of the interrupted batch in " << layout_.journal_file();
    RETURN_NOT_OK(WriteRecords(entry->batch));
  }
  RETURN_NOT_OK(files_.SyncDirectories());
  RETURN_NOT_OK(files_.Delete(layout_.journal_file()));
  return files_.SyncDirectories();
}

Status FsRmStateStore::CheckVersion() {
  ASSIGN_OR_RETURN(std::optional<std::string> bytes, files_.Read(layout_.version_file()));
  if (bytes) {
    auto loaded = zkstore::DecodeVersion(*bytes);
    if (!loaded.ok()) return loaded.status().WithContext(layout_.version_file() + ": ");
    if (*loaded == options_.version) return Status::OK();
    RETURN_NOT_OK(zkstore::CheckVersionCompatible(*loaded, options_.version));
  }
  RETURN_NOT_OK(files_.Put(layout_.version_file(), zkstore::EncodeVersion(options_.version)));
  return files_.SyncDirectories();
}

Status FsRmStateStore::OpenLocked() {
  RETURN_NOT_OK(CreateStructure());
  RETURN_NOT_OK(CleanAllLeftovers());
  RETURN_NOT_OK(ReplayJournal());
  return CheckVersion();
}

Status FsRmStateStore::Open() {
  MutexLock lock(&mu_);
  if (open_) return Status::OK();
  Status opened = WithRetries([&] {
    mu_.AssertHeld();
    return OpenLocked();
  });
  if (!opened.ok()) return opened;
  open_ = true;
  LOG(INFO) << "FileSystem state store open at " << layout_.root();
  if (options_.ha_enabled) {
    LOG(WARNING) << "FileSystem state store with yarn.resourcemanager.ha.enabled: this store has "
                    "no fencing (as Hadoop's FileSystemRMStateStore), so nothing stops two active "
                    "ResourceManagers from both writing it; ZKRMStateStore fences";
  }
  return Status::OK();
}

Status FsRmStateStore::Close() {
  MutexLock lock(&mu_);
  open_ = false;
  return Status::OK();
}

Result<persist::LoadedState> FsRmStateStore::LoadLocked() {
  RETURN_NOT_OK(CleanAllLeftovers());
  persist::LoadedState state;
  auto read = [&](const std::string& path) -> Result<std::string> {
    mu_.AssertHeld();
    ASSIGN_OR_RETURN(std::optional<std::string> bytes, files_.Read(path));
    if (!bytes) return Status::IoError(path + " disappeared while the store was read");
    return std::move(*bytes);
  };
  auto corrupt = [](const std::string& path, const Status& s) {
    return s.WithContext(path + ": ");
  };

  // EpochNode.
  ASSIGN_OR_RETURN(std::optional<std::string> epoch, files_.Read(layout_.epoch_file()));
  if (epoch) {
    auto value = zkstore::DecodeEpochNode(*epoch);
    if (!value.ok()) return corrupt(layout_.epoch_file(), value.status());
    state.cluster[ClusterField::kEpoch] = *value;
  }
  // RMAppRoot/<app>/<app | attempt>; other names are skipped, as Java's
  // loader logs and skips them.
  ASSIGN_OR_RETURN(std::vector<std::string> apps, files_.List(layout_.app_root()));
  for (const std::string& app : apps) {
    const std::string dir = layout_.app_root() + "/" + app;
    if (!files_.IsDirectory(dir)) continue;
    ASSIGN_OR_RETURN(std::vector<std::string> names, files_.List(dir));
    for (const std::string& name : names) {
      const std::string path = dir + "/" + name;
      if (name.starts_with(zkstore::kAppIdPrefix)) {
        ASSIGN_OR_RETURN(state.applications[name], read(path));
      } else if (name.starts_with(zkstore::kAttemptIdPrefix)) {
        ASSIGN_OR_RETURN(state.attempts[app][name], read(path));
      } else {
        LOG(INFO) << "FileSystem state store: unknown file " << path;
      }
    }
  }
  // RMDTSecretManagerRoot.
  ASSIGN_OR_RETURN(std::vector<std::string> dt_names, files_.List(layout_.dt_root()));
  for (const std::string& name : dt_names) {
    const std::string path = layout_.dt_root() + "/" + name;
    if (name.starts_with(kDtSequenceNumberPrefix)) {
      // Java parses the number after the '_' (a Java RM that restarted
      // without deleting its predecessor's file leaves two: the highest is
      // the latest).
      auto number =
          ParseStoredNumber(std::string_view(name).substr(std::strlen(kDtSequenceNumberPrefix)));
      if (!number || *number < INT32_MIN || *number > INT32_MAX) {
        return Status::Corruption(path + ": not a delegation token sequence number file");
      }
      auto [it, inserted] = state.cluster.emplace(ClusterField::kDelegationTokenSequence, *number);
      if (!inserted) it->second = std::max(it->second, *number);
    } else if (name.starts_with(store_names::kDelegationKeyPrefix)) {
      auto id = ParseStoredNumber(
          std::string_view(name).substr(std::strlen(store_names::kDelegationKeyPrefix)));
      if (!id) return Status::Corruption(path + ": not a delegation key file name");
      std::string& key = state.master_keys[{kDelegationKeysFamily, *id}];
      ASSIGN_OR_RETURN(key, read(path));
    } else if (name.starts_with(store_names::kDelegationTokenPrefix)) {
      auto sequence = ParseStoredNumber(
          std::string_view(name).substr(std::strlen(store_names::kDelegationTokenPrefix)));
      if (!sequence) return Status::Corruption(path + ": not a delegation token file name");
      std::string& token = state.master_keys[{kDelegationTokensFamily, *sequence}];
      ASSIGN_OR_RETURN(token, read(path));
    } else {
      LOG(WARNING) << "FileSystem state store: unknown file " << path;
    }
  }
  // AMRMTokenSecretManagerRoot/AMRMTokenSecretManagerNode.
  ASSIGN_OR_RETURN(std::optional<std::string> amrm, files_.Read(layout_.amrm_file()));
  if (amrm) state.master_keys[{AmrmKeyFamily(), 0}] = std::move(*amrm);

  // SpindleRoot.
  auto bad = [](const std::string& path) {
    return Status::Corruption("unexpected Spindle store file " + path);
  };
  ASSIGN_OR_RETURN(std::vector<std::string> fields, files_.List(layout_.SpindleCluster()));
  for (const std::string& name : fields) {
    const std::string path = layout_.SpindleCluster() + "/" + name;
    auto field = ClusterFieldNamed(name);
    if (!field) return bad(path);
    ASSIGN_OR_RETURN(std::string bytes, read(path));
    auto value = zkstore::DecodeInt64(bytes);
    if (!value.ok()) return corrupt(path, value.status());
    state.cluster[*field] = *value;
  }
  ASSIGN_OR_RETURN(std::vector<std::string> nodes, files_.List(layout_.SpindleNodes()));
  for (const std::string& name : nodes) {
    const std::string path = layout_.SpindleNodes() + "/" + name;
    auto id = RecordName(name);
    if (!id) return bad(path);
    ASSIGN_OR_RETURN(state.nodes[*id], read(path));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> families, files_.List(layout_.SpindleKeys()));
  for (const std::string& family_name : families) {
    const std::string dir = layout_.SpindleKeys() + "/" + family_name;
    auto family = RecordName(family_name);
    if (!family) return bad(dir);
    ASSIGN_OR_RETURN(std::vector<std::string> ids, files_.List(dir));
    for (const std::string& id_name : ids) {
      auto id = ParseStoredNumber(id_name);
      if (!id) return bad(dir + "/" + id_name);
      std::string& key = state.master_keys[{*family, *id}];
      ASSIGN_OR_RETURN(key, read(dir + "/" + id_name));
    }
  }
  ASSIGN_OR_RETURN(std::vector<std::string> record_apps, files_.List(layout_.SpindleAppRecords()));
  for (const std::string& app_name : record_apps) {
    const std::string dir = layout_.SpindleAppRecords() + "/" + app_name;
    auto app = RecordName(app_name);
    if (!app) return bad(dir);
    ASSIGN_OR_RETURN(std::vector<std::string> records, files_.List(dir));
    for (const std::string& record_name : records) {
      auto record = RecordName(record_name);
      if (!record) return bad(dir + "/" + record_name);
      ASSIGN_OR_RETURN(state.attempts[*app][*record], read(dir + "/" + record_name));
    }
  }
  return state;
}

Result<persist::LoadedState> FsRmStateStore::Load() {
  MutexLock lock(&mu_);
  if (!open_) return Status::Unavailable("the FileSystem state store is not open");
  return WithRetries([&] {
    mu_.AssertHeld();
    return LoadLocked();
  });
}

Status FsRmStateStore::WriteSequenceNumber(int64_t number) {
  if (number < INT32_MIN || number > INT32_MAX) {
    return Status::InvalidArgument("delegation token sequence number " + std::to_string(number) +
                                   " does not fit an int");
  }
  const std::string wanted = layout_.SequenceNumberFile(number);
  // Java's createNewFile: an empty file (and its header-only checksum).
  if (!files_.Exists(wanted)) RETURN_NOT_OK(files_.Write(wanted, ""));
  ASSIGN_OR_RETURN(std::vector<std::string> names, files_.List(layout_.dt_root()));
  for (const std::string& name : names) {
    const std::string path = layout_.dt_root() + "/" + name;
    if (name.starts_with(kDtSequenceNumberPrefix) && path != wanted) {
      RETURN_NOT_OK(files_.Delete(path));
    }
  }
  return Status::OK();
}

Status FsRmStateStore::WriteCluster(const StoreBatch::Op& op) {
  switch (op.field) {
    case ClusterField::kEpoch:
      return files_.Put(layout_.epoch_file(), zkstore::EncodeEpochNode(op.number));
    case ClusterField::kDelegationTokenSequence:
      return WriteSequenceNumber(op.number);
    default:
      return files_.Put(layout_.SpindleCluster() + "/" + persist::ClusterFieldName(op.field),
                        zkstore::EncodeInt64(op.number));
  }
}

Status FsRmStateStore::WriteMasterKey(const StoreBatch::Op& op) {
  const bool put = op.type == StoreBatch::OpType::kPut;
  std::string path;
  if (op.id == AmrmKeyFamily() && op.number == 0) {
    path = layout_.amrm_file();
  } else if (op.id == kDelegationKeysFamily) {
    path = layout_.DelegationKeyFile(op.number);
  } else if (op.id == kDelegationTokensFamily) {
    path = layout_.TokenFile(op.number);
  } else {
    const std::string dir = layout_.SpindleKeys() + "/" + FileName(op.id);
    if (put) RETURN_NOT_OK(files_.MakeDirectory(dir));
    path = dir + "/" + std::to_string(op.number);
  }
  return put ? files_.Put(path, op.value) : files_.Delete(path);
}

Status FsRmStateStore::WriteRecord(const StoreBatch::Op& op) {
  using Kind = StoreBatch::Kind;
  const bool put = op.type == StoreBatch::OpType::kPut;
  switch (op.kind) {
    case Kind::kApplication: {
      if (put) {
        RETURN_NOT_OK(files_.MakeDirectory(layout_.AppDir(op.id)));
        return files_.Put(layout_.AppFile(op.id), op.value);
      }
      // Java removes the application's directory, attempts included.
      RETURN_NOT_OK(files_.DeleteTree(layout_.AppDir(op.id)));
      return files_.DeleteTree(layout_.SpindleAppRecords() + "/" + FileName(op.id));
    }
    case Kind::kAttempt: {
      const std::string spindle_dir = layout_.SpindleAppRecords() + "/" + FileName(op.id);
      const std::string spindle_path = spindle_dir + "/" + FileName(op.sub_id);
      const bool in_hadoop_tree = IsHadoopAttemptId(op.sub_id);
      if (!put) {
        if (in_hadoop_tree) RETURN_NOT_OK(files_.Delete(layout_.AttemptFile(op.id, op.sub_id)));
        return files_.Delete(spindle_path);
      }
      // A Java RM's loader fails on an attempt whose application it has
      // not read: an attempt stored before its application waits in
      // SpindleRoot.
      if (in_hadoop_tree && files_.Exists(layout_.AppFile(op.id))) {
        RETURN_NOT_OK(files_.Put(layout_.AttemptFile(op.id, op.sub_id), op.value));
        return files_.Delete(spindle_path);
      }
      RETURN_NOT_OK(files_.MakeDirectory(spindle_dir));
      return files_.Put(spindle_path, op.value);
    }
    case Kind::kMasterKey:
      return WriteMasterKey(op);
    case Kind::kCluster:
      return WriteCluster(op);
    case Kind::kNode: {
      const std::string path = layout_.SpindleNodes() + "/" + FileName(op.id);
      return put ? files_.Put(path, op.value) : files_.Delete(path);
    }
  }
  return Status::InvalidArgument("unknown store operation");
}

Status FsRmStateStore::WriteRecords(const StoreBatch& batch) {
  for (const StoreBatch::Op& op : batch.ops()) RETURN_NOT_OK(WriteRecord(op));
  return Status::OK();
}

Status FsRmStateStore::ApplyLocked(const StoreBatch& batch) {
  // One operation needs no journal: each file is replaced atomically.
  if (batch.size() == 1) {
    RETURN_NOT_OK(WriteRecords(batch));
    return files_.SyncDirectories();
  }
  ASSIGN_OR_RETURN(const std::string epoch, EpochNodeBytes());
  RETURN_NOT_OK(files_.Write(layout_.journal_file(), EncodeJournal(batch, epoch)));
  RETURN_NOT_OK(files_.SyncDirectories());
  RETURN_NOT_OK(WriteRecords(batch));
  RETURN_NOT_OK(files_.SyncDirectories());
  // A journal that outlives its batch is harmless: applied again, it
  // changes nothing, and the next batch's replaces it.
  return files_.Delete(layout_.journal_file());
}

Status FsRmStateStore::Apply(const StoreBatch& batch) {
  RETURN_NOT_OK(batch.Validate());
  if (batch.empty()) return Status::OK();
  MutexLock lock(&mu_);
  if (!open_) return Status::Unavailable("the FileSystem state store is not open");
  for (const StoreBatch::Op& op : batch.ops()) {
    if (op.kind == StoreBatch::Kind::kCluster &&
        op.field == ClusterField::kDelegationTokenSequence &&
        (op.number < INT32_MIN || op.number > INT32_MAX)) {
      return Status::InvalidArgument("delegation token sequence number " +
                                     std::to_string(op.number) + " does not fit an int");
    }
  }
  files_.set_sync(options_.sync_writes && batch.sync());
  Status applied = WithRetries([&] {
    mu_.AssertHeld();
    return ApplyLocked(batch);
  });
  files_.set_sync(options_.sync_writes);
  return applied;
}

Status FsRmStateStore::Format() {
  MutexLock lock(&mu_);
  return WithRetries([&]() -> Status {
    mu_.AssertHeld();
    RETURN_NOT_OK(files_.DeleteTree(layout_.root()));
    RETURN_NOT_OK(files_.DeleteTree(layout_.spindle_root()));
    RETURN_NOT_OK(files_.SyncDirectories());
    if (!open_) return Status::OK();
    return OpenLocked();
  });
}

}  // namespace spindle::rm
