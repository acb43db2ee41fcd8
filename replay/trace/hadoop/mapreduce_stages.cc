#include "replay/trace/hadoop/mapreduce_stages.h"

#include <string>
#include <utility>

namespace spindle::replay::hadoop {

void MapReduceStages::Add(MapReduceKind kind, int32_t priority, TraceTask task) {
  std::vector<TraceStage>& stages = kind == MapReduceKind::kMap ? maps_ : reduces_;
  for (TraceStage& s : stages) {
    if (s.priority == priority) {
      s.tasks.push_back(std::move(task));
      return;
    }
  }
  TraceStage s;
  s.priority = priority;
  s.tasks.push_back(std::move(task));
  stages.push_back(std::move(s));
}

std::vector<TraceStage> MapReduceStages::Take() {
  auto name = [](std::vector<TraceStage>* stages, const char* base) {
    for (TraceStage& s : *stages) {
      s.name = stages->size() == 1 ? std::string(base)
                                   : std::string(base) + "_p" + std::to_string(s.priority);
    }
  };
  name(&maps_, "map");
  name(&reduces_, "reduce");
  std::vector<TraceStage> out = std::move(maps_);
  std::vector<int32_t> map_indices;
  for (size_t i = 0; i < out.size(); ++i) map_indices.push_back(static_cast<int32_t>(i));
  for (TraceStage& r : reduces_) {
    r.parents = map_indices;
    out.push_back(std::move(r));
  }
  maps_.clear();
  reduces_.clear();
  return out;
}

}  // namespace spindle::replay::hadoop
