// What a fidelity run saw, check by check, and whether it matches Hadoop's
// expectation: memory within one container (the scenario's container_mb),
// counts exactly. The wind tunnel (fidelity_tunnel.h) and a staging cell's
// report (fidelity_cell_files.h) both produce a FidelityRun; fidelity_table.h
// prints them.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "replay/fidelity/fidelity_scenario.h"

namespace spindle::replay {

struct FidelityObservation {
  FidelityCheck check;
  // What the run read; unset when it could not (the run stopped earlier, or
  // the RM reports no such figure: a Java 2.x RM's pending apps).
  std::optional<int64_t> observed;
};

struct FidelityRun {
  std::string scenario;
  std::string line;    // "3.3"
  std::string source;  // "wind tunnel (virtual clock)", "cell report <file>"
  std::vector<FidelityObservation> observations;
  // What the RM said refusing jobs ("alice-3: AccessControlException: ...").
  std::vector<std::string> rejections;
  // Why the run may not be trusted (a stall, a broken invariant, ...).
  std::vector<std::string> problems;
};

// Memory within `container_mb`, counts equal; false when nothing was read.
bool Matches(const FidelityObservation& o, int64_t container_mb);

// Every observation matches and the run had no problem.
bool AllMatch(const FidelityRun& run, int64_t container_mb);

}  // namespace spindle::replay
