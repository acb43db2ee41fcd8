// DirSnapshot: every regular file's bytes under a directory, by path, to
// prove that a store Spindle refused was left exactly as it was.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace spindle::persist {

inline std::map<std::string, std::string> DirSnapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    files[entry.path().string()] = buf.str();
  }
  return files;
}

}  // namespace spindle::persist
