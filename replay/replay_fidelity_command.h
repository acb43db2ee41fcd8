// `spindle replay fidelity`: the fidelity figure. Each scenario written from
// a Hadoop CapacityScheduler test case (replay/fidelity/) runs through the
// wind tunnel on the virtual clock, against Spindle's RM core and pool, and
// its steady state is compared with Hadoop's (per queue / user / app memory
// within one container, active and pending apps, refusals): a table
// scenario | check | expected | Spindle | match, and JSON with --json.
// --write-cell DIR writes each scenario's capacity-scheduler.xml, nodes and
// trace for `spindle replay --mode cell [--rm ...]` (prints the commands);
// --cell-dir DIR reads those runs' reports back into the table beside.
#pragma once

#include "base/flags/command_line.h"

namespace spindle::replay {

const CommandSpec& ReplayFidelityCommand();

// 0 when every scenario run matches, 1 when one does not (or a run fails),
// 2 for bad flags.
int ReplayFidelityMain(const CommandLine& flags);

}  // namespace spindle::replay
