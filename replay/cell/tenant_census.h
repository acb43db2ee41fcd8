// TenantCensus: what each tenant (queue, and user within a queue) holds at
// one moment, counted from the RM's application reports (getApplications,
// which every Hadoop line answers), so that the same figures come out of a
// Java RM and of Spindle: resources and containers in use, AMs running
// (RUNNING: registered) and applications pending (SUBMITTED or ACCEPTED:
// waiting for an AM, e.g. behind an AM limit). Preemptions are not in a
// 2.6 report; the AMs count them as they see them (PREEMPTED completions,
// PreemptionMessages) and the census adds their running totals.
//
// Thread-safety: functions over values.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "replay/report/replay_result.h"
#include "yarn_protos.pb.h"

namespace spindle::replay {

// (queue, user) -> what the AMs of that tenant saw preempted so far.
struct PreemptionCount {
  int64_t containers = 0;
  int64_t messages = 0;
};
using PreemptionCounts = std::map<std::pair<std::string, std::string>, PreemptionCount>;

// "root.a.b" -> "b": reports name the leaf (Hadoop 2.x) or, on some lines,
// the path; tenants are keyed by the leaf as the trace names them.
std::string LeafQueueName(const std::string& queue);

// The sample at `at_s`: one row per queue (user empty) followed by its
// users, in name order, for every tenant with an application not ended or
// with a preemption so far, and what each application not ended holds, by
// its name (the cell names an application after its job; applications of
// one name add up). Reports of ended applications count nowhere.
TenantSample CountTenants(double at_s,
                          const std::vector<hadoop::yarn::ApplicationReportProto>& apps,
                          const PreemptionCounts& preemptions);

}  // namespace spindle::replay
