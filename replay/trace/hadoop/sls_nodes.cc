#include "replay/trace/hadoop/sls_nodes.h"

#include <glog/logging.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "base/json/json_stream.h"
#include "replay/trace/hadoop/json_fields.h"
#include "replay/trace/hadoop/network_path.h"

namespace spindle::replay::hadoop {

namespace {

// Collects nodes, refusing a host seen under another rack (or, for node
// files, seen at all).
class NodeSet {
 public:
  explicit NodeSet(bool duplicates_ok) : duplicates_ok_(duplicates_ok) {}

  // `error` builds the message for a conflict.
  Status Add(TraceNode node, const std::function<Status(const std::string&)>& error) {
    auto it = index_.find(node.host);
    if (it != index_.end()) {
      const TraceNode& old = nodes_[it->second];
      if (!duplicates_ok_) return error("host " + node.host + " is listed twice");
      if (old.rack != node.rack) {
        return error("host " + node.host + " is under rack " + node.rack + " and rack " + old.rack);
      }
      return Status::OK();
    }
    index_.emplace(node.host, nodes_.size());
    nodes_.push_back(std::move(node));
    return Status::OK();
  }
  std::vector<TraceNode> Take() { return std::move(nodes_); }

 private:
  const bool duplicates_ok_;
  std::vector<TraceNode> nodes_;
  std::unordered_map<std::string, size_t> index_;
};

TraceNode DefaultNode(const SlsNodeDefaults& d) {
  TraceNode n;
  n.memory_mb = d.memory_mb;
  n.vcores = d.vcores;
  return n;
}

Status AddPath(NodeSet* set, const JsonFields& f, std::string_view key, const std::string& path,
               const SlsNodeDefaults& defaults) {
  Result<NetworkPath> split = SplitNetworkPath(path);
  if (!split.ok()) return f.Error(key, split.status().message());
  TraceNode node = DefaultNode(defaults);
  node.host = split->host;
  node.rack = split->rack;
  return set->Add(std::move(node), [&](const std::string& what) { return f.Error(key, what); });
}

Result<std::unique_ptr<JsonStream>> OpenObjects(const std::string& path) {
  return JsonStream::Open(path);
}

Status NotObject(const JsonStream& s, const JsonValue& v) {
  return Status::InvalidArgument(s.name() + ":" + std::to_string(v.line()) +
                                 ": a record must be a JSON object, got " + DescribeJson(v));
}

}  // namespace

Result<std::vector<TraceNode>> ReadSlsNodes(const std::string& path,
                                            const SlsNodeDefaults& defaults) {
  ASSIGN_OR_RETURN(std::unique_ptr<JsonStream> stream, OpenObjects(path));
  NodeSet set(/*duplicates_ok=*/false);
  JsonValue record;
  while (true) {
    ASSIGN_OR_RETURN(bool got, stream->Next(&record));
    if (!got) break;
    if (!record.is_object()) return NotObject(*stream, record);
    const JsonFields f(stream->name(), record);
    ASSIGN_OR_RETURN(std::string rack, f.String("rack"));
    if (rack.empty() || rack == "/") return f.Error("rack", "empty rack name");
    ASSIGN_OR_RETURN(const JsonValue* nodes, f.Array("nodes"));
    for (size_t i = 0; i < nodes->elements().size(); ++i) {
      const JsonValue& n = nodes->elements()[i];
      if (!n.is_object())
        return f.Error("nodes", "element " + std::to_string(i) + " is not an object");
      const JsonFields nf = f.Nested(n, "nodes[" + std::to_string(i) + "]");
      if (n.members().empty()) {
        // Hadoop's own sample nodes.json ends a rack with "{}"; SLS turns it
        // into a node named "null". It names no node: skip it, loudly.
        LOG(WARNING) << stream->name() << ":" << n.line() << ": empty entry nodes[" << i
                     << "] of rack " << rack << " names no node; skipped";
        continue;
      }
      TraceNode node = DefaultNode(defaults);
      ASSIGN_OR_RETURN(node.host, nf.String("node"));
      if (node.host.empty() || node.host.find('/') != std::string::npos) {
        return nf.Error("node", "'" + node.host + "' is not a host name");
      }
      node.rack = RootedRack(rack);
      ASSIGN_OR_RETURN(std::optional<int64_t> mem, nf.OptionalInt("memory-mb"));
      if (mem) {
        if (*mem <= 0) return nf.Error("memory-mb", "must be > 0");
        node.memory_mb = *mem;
      }
      ASSIGN_OR_RETURN(std::optional<int64_t> vcores, nf.OptionalInt("vcores"));
      if (vcores) {
        if (*vcores <= 0 || *vcores > INT32_MAX) return nf.Error("vcores", "must be in 1..2^31-1");
        node.vcores = static_cast<int32_t>(*vcores);
      }
      RETURN_NOT_OK(set.Add(std::move(node),
                            [&](const std::string& what) { return nf.Error("node", what); }));
    }
  }
  return set.Take();
}

namespace {

// Every host a trace's records name, each record (a JSON object) handed to
// `each` with the node set to add to: the record loop both traces share.
Result<std::vector<TraceNode>> CollectHosts(
    const std::string& path, const std::function<Status(const JsonFields&, NodeSet*)>& each) {
  ASSIGN_OR_RETURN(std::unique_ptr<JsonStream> stream, OpenObjects(path));
  NodeSet set(/*duplicates_ok=*/true);
  JsonValue record;
  while (true) {
    ASSIGN_OR_RETURN(bool got, stream->Next(&record));
    if (!got) break;
    if (!record.is_object()) return NotObject(*stream, record);
    RETURN_NOT_OK(each(JsonFields(stream->name(), record), &set));
  }
  return set.Take();
}

}  // namespace

Result<std::vector<TraceNode>> NodesFromSlsTrace(const std::string& path,
                                                 const SlsNodeDefaults& defaults) {
  return CollectHosts(path, [&](const JsonFields& f, NodeSet* set) -> Status {
    ASSIGN_OR_RETURN(const JsonValue* tasks, f.OptionalArray("job.tasks"));
    for (size_t i = 0; tasks != nullptr && i < tasks->elements().size(); ++i) {
      const JsonValue& t = tasks->elements()[i];
      if (!t.is_object()) continue;  // the trace reader reports it
      const JsonFields tf = f.Nested(t, "job.tasks[" + std::to_string(i) + "]");
      ASSIGN_OR_RETURN(std::optional<std::string> host, tf.OptionalString("container.host"));
      if (host) RETURN_NOT_OK(AddPath(set, tf, "container.host", *host, defaults));
    }
    return Status::OK();
  });
}

Result<std::vector<TraceNode>> NodesFromRumenTrace(const std::string& path,
                                                   const SlsNodeDefaults& defaults) {
  return CollectHosts(path, [&](const JsonFields& f, NodeSet* set) -> Status {
    for (const char* key : {"mapTasks", "reduceTasks"}) {
      ASSIGN_OR_RETURN(const JsonValue* tasks, f.OptionalArray(key));
      for (size_t i = 0; tasks != nullptr && i < tasks->elements().size(); ++i) {
        const JsonValue& t = tasks->elements()[i];
        if (!t.is_object()) continue;
        const JsonFields tf = f.Nested(t, std::string(key) + "[" + std::to_string(i) + "]");
        ASSIGN_OR_RETURN(const JsonValue* locations, tf.OptionalArray("preferredLocations"));
        for (size_t j = 0; locations != nullptr && j < locations->elements().size(); ++j) {
          const JsonValue* layers = locations->elements()[j].Find("layers");
          if (layers == nullptr || !layers->is_array()) continue;
          std::string p;
          bool strings = true;
          for (const JsonValue& l : layers->elements()) {
            strings = strings && l.is_string();
            p += "/" + l.text();
          }
          if (strings) RETURN_NOT_OK(AddPath(set, tf, "preferredLocations", p, defaults));
        }
        ASSIGN_OR_RETURN(const JsonValue* attempts, tf.OptionalArray("attempts"));
        for (size_t j = 0; attempts != nullptr && j < attempts->elements().size(); ++j) {
          const JsonValue& a = attempts->elements()[j];
          if (!a.is_object()) continue;
          const JsonFields af = tf.Nested(a, "attempts[" + std::to_string(j) + "]");
          ASSIGN_OR_RETURN(std::optional<std::string> host, af.OptionalString("hostName"));
          if (host) RETURN_NOT_OK(AddPath(set, af, "hostName", *host, defaults));
        }
      }
    }
    return Status::OK();
  });
}

std::vector<TraceNode> GenerateSlsNodes(int64_t num_nodes, int64_t num_racks,
                                        const SlsNodeDefaults& defaults) {
  std::vector<TraceNode> out;
  if (num_nodes < 1) return out;
  num_racks = std::clamp<int64_t>(num_racks, 1, num_nodes);
  for (int64_t i = 0; i < num_nodes; ++i) {
    TraceNode n = DefaultNode(defaults);
    n.host = "node" + std::to_string(i);
    n.rack = "/rack" + std::to_string(i % num_racks);
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace spindle::replay::hadoop
