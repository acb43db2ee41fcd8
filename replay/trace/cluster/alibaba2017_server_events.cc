#include "replay/trace/cluster/alibaba2017_server_events.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "replay/trace/csv_file.h"

namespace spindle::replay {

namespace {

constexpr int kFields = 7;

enum class Kind : uint8_t { kAdd, kError, kRemove };

struct Record {
  int64_t at_s = 0;
  std::string machine;
  Kind kind = Kind::kAdd;
  std::string why;
  std::optional<int64_t> cpus;
  std::optional<double> memory;
};

Status Parse(const CsvRow& row, ReadStats* stats, Record* r) {
  RETURN_NOT_OK(row.ExpectFields(kFields));
  ASSIGN_OR_RETURN(r->at_s, row.Int(1, "timestamp"));
  ASSIGN_OR_RETURN(const std::string_view machine, row.Text(2, "machine id"));
  r->machine = std::string(machine);
  ASSIGN_OR_RETURN(const std::string_view type, row.Text(3, "event type"));
  if (type == "add") {
    r->kind = Kind::kAdd;
  } else if (type == "softerror" || type == "harderror") {
    r->kind = Kind::kError;
    r->why = std::string(type) + (row.empty(4) ? "" : ": " + std::string(row.field(4)));
  } else if (type == "remove") {
    r->kind = Kind::kRemove;
    r->why = "removed";
  } else {
    return row.Error(3, "event type",
                     "'" + std::string(type) + "' is not add, remove, softerror or harderror");
  }
  ASSIGN_OR_RETURN(r->cpus, row.OptionalInt(5, "number of cpus"));
  ASSIGN_OR_RETURN(r->memory, row.OptionalDouble(6, "normalized memory"));
  if (r->memory && (*r->memory < 0 || *r->memory > 1)) {
    return row.Error(6, "normalized memory", "not within 0..1");
  }
  if (r->cpus && (*r->cpus < 0 || *r->cpus > INT32_MAX)) {
    return row.Error(5, "number of cpus", "out of range");
  }
  if (r->at_s < 0) {
    CountReason(&stats->adjusted,
                "server_event.csv: timestamp before the trace window (negative): clamped to 0");
    r->at_s = 0;
  }
  return Status::OK();
}

}  // namespace

Result<ClusterTimeline> ReadAlibaba2017ServerEvents(const std::string& path,
                                                    const ReadOptions& read, ReadStats* stats) {
  ReadStats local;
  ReadStats* s = stats != nullptr ? stats : &local;
  if (read.node_memory_mb <= 0) {
    return Status::InvalidArgument("ReadOptions::node_memory_mb: must be > 0");
  }
  std::vector<Record> records;
  const Status read_status =
      ForEachCsvRow(path, read, s, "server_event.csv: header line (column names): passed over",
                    [&](const CsvRow& row) {
                      Record r;
                      RETURN_NOT_OK(Parse(row, s, &r));
                      records.push_back(std::move(r));
                      return Status::OK();
                    });
  RETURN_NOT_OK(read_status);
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.at_s < b.at_s; });
  ClusterTimeline out;
  std::unordered_map<std::string, size_t> index;
  std::vector<uint8_t> available;
  for (const Record& r : records) {
    auto it = index.find(r.machine);
    if (it == index.end()) {
      if (r.kind != Kind::kAdd) {
        CountReason(&s->adjusted, "server_event.csv: events of machines never added: ignored");
        continue;
      }
      if (!r.cpus || *r.cpus < 1 || !r.memory || *r.memory <= 0) {
        CountReason(&s->adjusted,
                    "server_event.csv: machines whose add event gives no capacity: left out");
        continue;
      }
      TraceNode node;
      node.host = r.machine;
      node.vcores = static_cast<int32_t>(*r.cpus);
      node.memory_mb =
          std::max<int64_t>(1, std::llround(*r.memory * static_cast<double>(read.node_memory_mb)));
      const size_t at = out.nodes.size();
      index.emplace(r.machine, at);
      out.nodes.push_back(std::move(node));
      available.push_back(1);
      if (r.at_s > 0) {
        // Not in the cluster before its addition.
        out.events.push_back(TraceNodeEvent{0, at, false, "not yet added"});
        out.events.push_back(TraceNodeEvent{r.at_s * 1000, at, true, "added"});
      }
      continue;
    }
    const bool now_available = r.kind == Kind::kAdd;
    if (available[it->second] == static_cast<uint8_t>(now_available)) continue;
    available[it->second] = static_cast<uint8_t>(now_available);
    out.events.push_back(
        TraceNodeEvent{r.at_s * 1000, it->second, now_available, now_available ? "added" : r.why});
  }
  // The "not yet added" events at 0 go first, whatever else happened at 0.
  std::stable_sort(
      out.events.begin(), out.events.end(),
      [](const TraceNodeEvent& a, const TraceNodeEvent& b) { return a.at_ms < b.at_ms; });
  return out;
}

}  // namespace spindle::replay
