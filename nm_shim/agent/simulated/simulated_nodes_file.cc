#include "nm_shim/agent/simulated/simulated_nodes_file.h"

#include <fstream>
#include <set>
#include <sstream>

namespace spindle::nm {
namespace {

bool ParsePositive(const std::string& text, int64_t max, int64_t* out) {
  if (text.empty() || text.size() > 18) return false;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (v <= 0 || v > max) return false;
  *out = v;
  return true;
}

}  // namespace

Result<std::vector<SimulatedNodeSpec>> ParseSimulatedNodes(const std::string& text,
                                                           const std::string& source) {
  std::vector<SimulatedNodeSpec> nodes;
  std::set<std::string> seen;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    line = line.substr(0, line.find('#'));
    for (char& c : line) {
      if (c == ',' || c == '\t' || c == '\r') c = ' ';
    }
    std::istringstream words(line);
    std::vector<std::string> fields;
    for (std::string w; words >> w;) fields.push_back(w);
    if (fields.empty()) continue;
    const std::string where = source + ":" + std::to_string(number) + ": ";
    if (fields.size() != 3) {
      return Status::InvalidArgument(where + "expected 'host memory-mb vcores', got '" + line +
                                     "'");
    }
    SimulatedNodeSpec node;
    node.host = fields[0];
    int64_t vcores = 0;
    if (!ParsePositive(fields[1], int64_t{1} << 40, &node.memory_mb)) {
      return Status::InvalidArgument(where + "memory-mb '" + fields[1] +
                                     "' is not a positive integer");
    }
    if (!ParsePositive(fields[2], 1'000'000, &vcores)) {
      return Status::InvalidArgument(where + "vcores '" + fields[2] +
                                     "' is not a positive integer");
    }
    node.vcores = static_cast<int32_t>(vcores);
    if (!seen.insert(node.host).second) {
      return Status::InvalidArgument(where + "host '" + node.host + "' is listed twice");
    }
    nodes.push_back(std::move(node));
  }
  if (nodes.empty()) return Status::InvalidArgument(source + ": no nodes");
  return nodes;
}

Result<std::vector<SimulatedNodeSpec>> ReadSimulatedNodesFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IoError("cannot read the nodes file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return ParseSimulatedNodes(text.str(), path);
}

}  // namespace spindle::nm
