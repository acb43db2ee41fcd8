// ReadAlibaba2018Machines: Alibaba cluster-trace-v2018 machine_meta.csv (no
// header: machine_id, time_stamp, failure_domain_1, failure_domain_2,
// cpu_num, mem_size, status) as the replayed cluster's nodes. A machine has
// a record per change; its latest (by time_stamp, the later line on a tie)
// gives its shape: cpu_num vcores, mem_size (normalised 0..100) x
// ReadOptions::node_memory_mb / 100 MB, rack "/<failure_domain_1>"
// ("/default-rack" if empty). Every machine is returned, whatever its
// status, in the order of its first record. Errors name file, line and
// field; with skip_bad a bad record is skipped and counted in *stats. The
// file is small (one machine per ~10 records), so it is read whole.
//
// Thread-safety: a plain function.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "replay/trace/trace_reader.h"

namespace spindle::replay {

// `stats` (may be null) gets lines, skipped and examples.
Result<std::vector<TraceNode>> ReadAlibaba2018Machines(const std::string& path,
                                                       const ReadOptions& read,
                                                       ReadStats* stats = nullptr);

}  // namespace spindle::replay
