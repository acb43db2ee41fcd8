// The fidelity figure as text and JSON: one row per check, scenario |
// check | expected (Hadoop's semantics, with the line) | Spindle (the wind
// tunnel) | match, and, for each staging-cell run asked for (`--cell-run
// java,spindle`: a Java RM's and a Spindle RM's, say), that run's value and
// match beside, in the order asked.
//
// Thread-safety: functions over values.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "replay/fidelity/fidelity_result.h"
#include "replay/fidelity/fidelity_scenario.h"

namespace spindle::replay {

// One cell run's column: its name (the folder under --cell-dir) and what
// it saw; `run` unset when that run has no report.json for the scenario
// (its cells are left blank).
struct FidelityCellColumn {
  std::string name;
  std::optional<FidelityRun> run;
};

struct FidelityRow {
  const FidelityScenario* scenario = nullptr;
  FidelityRun tunnel;
  std::vector<FidelityCellColumn> cells;  // read from cells' report.json
};

// The terminal table, then a line per scenario that did not match (its
// rejections and problems), then the count of scenarios that matched.
std::string FidelityTableText(const std::vector<FidelityRow>& rows);

// {"scenarios": [{"name", "summary", "hadoop_tests", "derivation", "line",
//   "match", "checks": [{"at_s", "subject", "metric", "expected",
//   "spindle", "match", "cells": {NAME: {"value", "match"}}}],
//   "rejections", "problems", "cells": {NAME: {"source", "rejections",
//   "problems"}}}], "matched", "scenarios_run"}; unread values are null, a
//   cell run without a report for the scenario is absent.
std::string FidelityJson(const std::vector<FidelityRow>& rows);

}  // namespace spindle::replay
