#include "rm/nodes/topology_table.h"

#include <glog/logging.h>

#include <fstream>
#include <sstream>
#include <vector>

namespace spindle::rm {

std::map<std::string, std::string> ParseTopologyTable(const std::string& text,
                                                      const std::string& source) {
  std::map<std::string, std::string> racks;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::vector<std::string> columns;
    for (std::string w; words >> w;) columns.push_back(w);
    if (columns.empty()) continue;
    if (columns.size() != 2) {
      LOG(WARNING) << source << ":" << number << ": line does not have two columns; ignoring it";
      continue;
    }
    std::string rack = columns[1];
    while (rack.size() > 1 && rack.back() == '/') rack.pop_back();
    if (rack.empty() || rack[0] != '/') {
      LOG(WARNING) << source << ":" << number << ": rack '" << columns[1]
                   << "' does not start with '/'; ignoring the line";
      continue;
    }
    racks[columns[0]] = rack;
  }
  return racks;
}

Result<std::map<std::string, std::string>> TopologyTableFromConfiguration(
    const Configuration& conf) {
  const std::string impl = conf.GetTrimmed(kTopologyImplKey).value_or("");
  if (impl != kTableMappingClass) {
    if (conf.GetTrimmed("net.topology.script.file.name").has_value()) {
      LOG(WARNING) << "net.topology.script.file.name is not supported (set " << kTopologyImplKey
                   << " to " << kTableMappingClass << " and " << kTopologyTableKey
                   << " instead); every node is on " << kDefaultRack;
    }
    return std::map<std::string, std::string>();
  }
  const auto path = conf.GetTrimmed(kTopologyTableKey);
  if (!path.has_value() || path->empty()) {
    LOG(WARNING) << kTopologyTableKey << " is not set; every node is on " << kDefaultRack;
    return std::map<std::string, std::string>();
  }
  std::ifstream in(*path);
  if (!in) {
    return Status::IoError(conf.SourceOf(kTopologyTableKey) + ": " + kTopologyTableKey + " = '" +
                           *path + "': cannot read the topology table");
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto racks = ParseTopologyTable(text.str(), *path);
  LOG(INFO) << "topology table " << *path << ": " << racks.size() << " host(s)";
  return racks;
}

}  // namespace spindle::rm
