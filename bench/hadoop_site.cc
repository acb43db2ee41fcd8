#include "bench/hadoop_site.h"

#include <filesystem>
#include <fstream>

namespace spindle::bench {

Status WriteSite(const std::string& dir, const std::map<std::string, std::string>& properties) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream out(dir + "/yarn-site.xml");
  out << "<?xml version=\"1.0\"?>\n<configuration>\n";
  for (const auto& [name, value] : properties) {
    out << "  <property><name>" << name << "</name><value>" << value << "</value></property>\n";
  }
  out << "</configuration>\n";
  out.close();
  if (!out) return Status::IoError("cannot write " + dir + "/yarn-site.xml");
  return Status::OK();
}

}  // namespace spindle::bench
