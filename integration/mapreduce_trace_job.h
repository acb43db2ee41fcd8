// A MapReduce-shaped trace job for the staging-cell tests: a map stage of
// 1 GiB/1-vcore tasks (3 s, plus 0.5 s per index so they finish apart) and a
// reduce stage of 2 GiB/1-vcore tasks (4 s) that waits for every map.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "replay/trace/trace.h"

namespace spindle::replay {

// `map_hosts`, when not empty, gives map i the preferred node
// map_hosts[i % size]; reduces prefer nothing, as MapReduce's do.
inline TraceJob MapReduceTraceJob(const std::string& id, int64_t arrival_ms,
                                  const std::string& queue, const std::string& user, int maps,
                                  int reduces, const std::vector<std::string>& map_hosts = {}) {
  TraceJob job;
  job.id = id;
  job.arrival_ms = arrival_ms;
  job.queue = queue;
  job.user = user;
  TraceStage map;
  map.name = "map";
  map.priority = 20;
  for (int i = 0; i < maps; ++i) {
    TraceTask t;
    t.memory_mb = 1024;
    t.vcores = 1;
    t.duration_ms = 3000 + 500 * i;
    if (!map_hosts.empty())
      t.preferred_nodes = {map_hosts[static_cast<size_t>(i) % map_hosts.size()]};
    map.tasks.push_back(t);
  }
  TraceStage reduce;
  reduce.name = "reduce";
  reduce.priority = 10;
  reduce.parents = {0};
  for (int i = 0; i < reduces; ++i) {
    TraceTask t;
    t.memory_mb = 2048;
    t.vcores = 1;
    t.duration_ms = 4000;
    reduce.tasks.push_back(t);
  }
  job.stages = {map, reduce};
  return job;
}

}  // namespace spindle::replay
