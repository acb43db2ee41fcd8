#include "persist/store_directory.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "persist/acknowledged_mark.h"

namespace spindle::persist {

namespace fs = std::filesystem;

namespace {
bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

Result<StoreDirectory> InspectStoreDirectory(const std::string& path) {
  StoreDirectory dir;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return Status::IoError("state store path " + path + ": " + ec.message());
  }
  if (!fs::exists(st)) return dir;
  if (!fs::is_directory(st)) {
    return Status::InvalidArgument("state store path " + path + " is not a directory");
  }
  dir.exists = true;
  fs::directory_iterator it(path, ec);
  if (ec) return Status::IoError("cannot list the state store " + path + ": " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return Status::IoError("cannot list the state store " + path + ": " + ec.message());
    const std::string name = it->path().filename().string();
    if (name == "CURRENT") {
      dir.has_current = true;
      continue;
    }
    const bool manifest = name.rfind("MANIFEST-", 0) == 0;
    const bool wal = EndsWith(name, ".log");
    if (!manifest && !wal && !EndsWith(name, ".sst") && name != AcknowledgedMark::kFileName) {
      continue;
    }
    dir.data_files.push_back(name);
    std::error_code size_ec;
    const uint64_t size = it->is_regular_file(size_ec) ? it->file_size(size_ec) : 0;
    if (wal) {
      dir.wal_files.push_back(name);
      dir.wal_bytes += size;
    }
    if (manifest) dir.manifest_bytes += size;
  }
  std::sort(dir.data_files.begin(), dir.data_files.end());
  std::sort(dir.wal_files.begin(), dir.wal_files.end());
  return dir;
}

std::string DamagedStoreRemedy(bool untouched) {
  return std::string("Spindle refuses to start on less than the store acknowledged") +
         (untouched ? ", and has changed nothing in it" : "") +
         ": either restore the directory from a copy (taken while the RM was stopped), or run "
         "`spindle rm --format-state-store` to discard every record and start empty";
}

}  // namespace spindle::persist
