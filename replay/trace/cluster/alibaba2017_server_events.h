// ReadAlibaba2017ServerEvents: Alibaba cluster-trace-v2017's machine file,
// server_event.csv (no header: timestamp, machine id, event type, event
// detail, cpus, normalised memory, normalised disk), as the replayed
// cluster and its changes over the trace.
//
// trace_201708.md: every machine has an `add` event (at 0 for those added
// before the trace); `softerror` / `harderror` make a machine unavailable
// (new work is not placed on it; work already there may go on). The
// published file also has `remove`. So:
//  - a machine's first `add` with capacity makes it a node: cpus vcores
//    (not normalised), memory round(normalised memory x
//    ReadOptions::node_memory_mb), rack "/default-rack"; added after 0,
//    it is unavailable until then;
//  - softerror / harderror / remove: unavailable from then on (removal is
//    modelled as unavailability: its running tasks finish);
//  - a later `add` of a known machine: available again.
// Only changes of state become events, in time order. Counted in
// *stats (adjusted) and left out: an `add` without capacity of a machine not
// yet known (cannot be sized), events of machines never added; a negative
// timestamp is clamped to 0. An unknown event type or a bad number is an
// error naming file, line and field (skip_bad: the row is skipped and
// counted). The file is small (~1,300 machines), so it is read whole.
//
// Thread-safety: a plain function.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

struct ClusterTimeline {
  std::vector<TraceNode> nodes;
  std::vector<TraceNodeEvent> events;  // by at_ms, then file order
};

// `stats` (may be null) gets lines, skipped, examples and adjusted.
Result<ClusterTimeline> ReadAlibaba2017ServerEvents(const std::string& path,
                                                    const ReadOptions& read,
                                                    ReadStats* stats = nullptr);

}  // namespace spindle::replay
