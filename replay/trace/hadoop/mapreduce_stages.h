// MapReduceStages: groups a MapReduce job's tasks into TraceStages the way
// SLS's MRAMSimulator runs them: maps are asked for at once; reduces only
// after every map has finished (it has no slow start). Tasks of one kind
// that the trace gives different priorities go to separate stages (one
// YARN request priority per stage): "map" when the maps share one priority,
// else "map_p<priority>" per priority, in order of first appearance; the
// same for reduces. Every reduce stage waits for every map stage.
//
// Thread-safety: none; a value.
#pragma once

#include <cstdint>
#include <vector>

#include "replay/trace/trace.h"

namespace spindle::replay::hadoop {

enum class MapReduceKind { kMap, kReduce };

// MapReduce's request priorities (MRAMSimulator, RMContainerAllocator):
// lower is served first.
inline constexpr int32_t kMapPriority = 20;
inline constexpr int32_t kReducePriority = 10;

class MapReduceStages {
 public:
  void Add(MapReduceKind kind, int32_t priority, TraceTask task);
  bool empty() const { return maps_.empty() && reduces_.empty(); }
  // The stages: map stages first, then reduce stages with the map stages as
  // parents. Leaves this object empty.
  std::vector<TraceStage> Take();

 private:
  std::vector<TraceStage> maps_;
  std::vector<TraceStage> reduces_;
};

}  // namespace spindle::replay::hadoop
