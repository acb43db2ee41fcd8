// WriteTextFile: writes a report to `path` (replacing it). IoError naming
// the path if it cannot be written.
#pragma once

#include <fstream>
#include <string>

#include "base/status.h"

namespace spindle::replay {

inline Status WriteTextFile(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  if (!out) return Status::IoError("cannot write " + path);
  return Status::OK();
}

}  // namespace spindle::replay
