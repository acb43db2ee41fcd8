#include "replay/trace/cluster/alibaba2018_machines.h"

#include <cmath>
#include <unordered_map>

#include "replay/trace/csv_file.h"

namespace spindle::replay {

namespace {

struct Record {
  TraceNode node;
  int64_t time = 0;
};

Status ParseRecord(const CsvRow& row, const ReadOptions& read, Record* r) {
  RETURN_NOT_OK(row.ExpectFields(7));
  ASSIGN_OR_RETURN(const std::string_view id, row.Text(1, "machine_id"));
  ASSIGN_OR_RETURN(r->time, row.Int(2, "time_stamp"));
  ASSIGN_OR_RETURN(const int64_t cpus, row.Int(5, "cpu_num"));
  if (cpus < 1 || cpus > INT32_MAX) return row.Error(5, "cpu_num", "must be >= 1");
  ASSIGN_OR_RETURN(const double mem, row.Double(6, "mem_size"));
  if (mem <= 0 || mem > 100) return row.Error(6, "mem_size", "not within (0, 100]");
  r->node.host = std::string(id);
  r->node.rack = row.empty(3) ? "/default-rack" : "/" + std::string(row.field(3));
  r->node.vcores = static_cast<int32_t>(cpus);
  r->node.memory_mb =
      std::max<int64_t>(1, std::llround(mem / 100.0 * static_cast<double>(read.node_memory_mb)));
  return Status::OK();
}

}  // namespace

Result<std::vector<TraceNode>> ReadAlibaba2018Machines(const std::string& path,
                                                       const ReadOptions& read, ReadStats* stats) {
  ReadStats local;
  ReadStats* s = stats != nullptr ? stats : &local;
  if (read.node_memory_mb <= 0) {
    return Status::InvalidArgument("ReadOptions::node_memory_mb: must be > 0");
  }
  std::vector<Record> machines;
  std::unordered_map<std::string, size_t> index;
  // machine_meta.csv is published without a header line.
  const Status read_status =
      ForEachCsvRow(path, read, s, /*header_reason=*/"", [&](const CsvRow& row) {
        Record r;
        RETURN_NOT_OK(ParseRecord(row, read, &r));
        auto [it, inserted] = index.emplace(r.node.host, machines.size());
        if (inserted) {
          machines.push_back(std::move(r));
        } else if (r.time >= machines[it->second].time) {
          machines[it->second] = std::move(r);
        }
        return Status::OK();
      });
  RETURN_NOT_OK(read_status);
  std::vector<TraceNode> nodes;
  nodes.reserve(machines.size());
  for (Record& r : machines) nodes.push_back(std::move(r.node));
  return nodes;
}

}  // namespace spindle::replay
