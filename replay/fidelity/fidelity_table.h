// The fidelity figure as text and JSON: one row per check, scenario |
// check | expected (Hadoop's semantics, with the line) | Spindle (the wind
// tunnel) | match, and, when a staging cell's report was read for it (a Java
// RM's, say), that run's value and match beside.
//
// Thread-safety: functions over values.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "replay/fidelity/fidelity_result.h"
#include "replay/fidelity/fidelity_scenario.h"

namespace spindle::replay {

struct FidelityRow {
  const FidelityScenario* scenario = nullptr;
  FidelityRun tunnel;
  std::optional<FidelityRun> cell;  // read from a cell's report.json
};

// The terminal table, then a line per scenario that did not match (its
// rejections and problems), then the count of scenarios that matched.
std::string FidelityTableText(const std::vector<FidelityRow>& rows);

// {"scenarios": [{"name", "summary", "hadoop_tests", "derivation", "line",
//   "match", "checks": [{"at_s", "subject", "metric", "expected",
//   "spindle", "match", "cell", "cell_match"}], "rejections", "problems",
//   "cell_source"}], "matched", "scenarios_run"}; unread values are null.
std::string FidelityJson(const std::vector<FidelityRow>& rows);

}  // namespace spindle::replay
