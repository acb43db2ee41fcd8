// PreemptionMessage in plain values: what an allocate answer tells an AM the
// RM is about to take back (rm/core/preemption_monitor.h decides).
#pragma once

#include <vector>

#include "rm/records/yarn_ids.h"
#include "rm/scheduling/ask_table.h"

namespace spindle::rm {

// AllocateResponse's PreemptionMessage, as the CapacityScheduler fills it on
// every line (FiCaSchedulerApp.getAllocation, ApplicationMasterService /
// 3.3 DefaultAMSProcessor.generatePreemptionMessage): the negotiable
// contract, naming the containers the RM will take back, and one resource
// request (priority -1, "*", the minimum allocation x the number of them
// that covers those containers) the AM may satisfy instead. The
// CapacityScheduler never sends a strict contract (its Allocation passes
// null for it; only the FairScheduler fills one), so neither does Spindle.
struct PreemptionMessage {
  std::vector<ContainerId> contract_containers;
  std::vector<ResourceRequest> contract_requests;
};

}  // namespace spindle::rm
