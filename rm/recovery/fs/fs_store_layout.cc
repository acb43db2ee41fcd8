#include "rm/recovery/fs/fs_store_layout.h"

#include "rm/recovery/zk/zk_store_layout.h"

namespace spindle::rm::fsstore {

namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string WithoutTrailingSlashes(std::string directory) {
  while (directory.size() > 1 && directory.back() == '/') directory.pop_back();
  return directory;
}

}  // namespace

std::string FileName(std::string_view text) {
  std::string name = zkstore::EscapeName(text);
  if (EndsWith(name, kTmpSuffix) || EndsWith(name, kNewSuffix)) {
    name.replace(name.size() - 4, 1, "%2E");
  }
  return name;
}

std::optional<std::string> RecordName(std::string_view name) { return zkstore::UnescapeName(name); }

FsStoreLayout::FsStoreLayout(std::string directory)
    : directory_(WithoutTrailingSlashes(std::move(directory))),
      root_((directory_ == "/" ? "" : directory_) + "/" + kRootName),
      spindle_root_((directory_ == "/" ? "" : directory_) + "/" + store_names::kSpindleRootName) {}

std::string FsStoreLayout::AppDir(std::string_view app_id) const {
  return app_root() + "/" + std::string(app_id);
}

std::string FsStoreLayout::AppFile(std::string_view app_id) const {
  return AppDir(app_id) + "/" + std::string(app_id);
}

std::string FsStoreLayout::AttemptFile(std::string_view app_id, std::string_view attempt_id) const {
  return AppDir(app_id) + "/" + std::string(attempt_id);
}

std::string FsStoreLayout::DelegationKeyFile(int64_t key_id) const {
  return dt_root() + "/" + store_names::kDelegationKeyPrefix + std::to_string(key_id);
}

std::string FsStoreLayout::TokenFile(int64_t sequence_number) const {
  return dt_root() + "/" + store_names::kDelegationTokenPrefix + std::to_string(sequence_number);
}

std::string FsStoreLayout::SequenceNumberFile(int64_t sequence_number) const {
  return dt_root() + "/" + kDtSequenceNumberPrefix + std::to_string(sequence_number);
}

std::vector<std::string> FsStoreLayout::Directories(bool hadoop3) const {
  std::vector<std::string> dirs = {directory_, root_, dt_root(), app_root(), amrm_root()};
  if (hadoop3) {
    dirs.push_back(root_ + "/" + store_names::kReservationRoot);
    dirs.push_back(root_ + "/" + store_names::kProxyCaRoot);
  }
  for (std::string dir :
       {spindle_root_, SpindleCluster(), SpindleKeys(), SpindleAppRecords(), SpindleNodes()}) {
    dirs.push_back(std::move(dir));
  }
  return dirs;
}

}  // namespace spindle::rm::fsstore
