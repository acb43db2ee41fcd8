// `spindle replay compare`: two staging-cell runs of the same trace (e.g.
// one with `--rm` against the operator's Java RM, one against Spindle) side
// by side per tenant (replay/report/tenant_compare.h): the table on stdout,
// and with --out DIR compare.txt and compare.csv (the aligned time series).
#pragma once

#include "base/flags/command_line.h"

namespace spindle::replay {

const CommandSpec& ReplayCompareCommand();

// 0, 1 when a report cannot be read, 2 for bad flags.
int ReplayCompareMain(const CommandLine& flags);

}  // namespace spindle::replay
