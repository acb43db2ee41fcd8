// The fidelity figure's scenarios: each written from Hadoop's own
// CapacityScheduler test cases (named in the scenario), with the steady
// state Hadoop's LeafQueue / UsersManager / ParentQueue / ordering policies
// give it, worked out in fidelity_scenarios.cc from the Java source of
// release-2.6.0, rel/release-2.7.7 and rel/release-3.3.0.
//
// Thread-safety: the catalogue is built once and read-only.
#pragma once

#include <string>
#include <vector>

#include "replay/fidelity/fidelity_scenario.h"

namespace spindle::replay {

// Every scenario, in the figure's order.
const std::vector<FidelityScenario>& FidelityScenarios();

// The scenario called `name`; nullptr if none.
const FidelityScenario* FindFidelityScenario(const std::string& name);

}  // namespace spindle::replay
