// `spindle scheduler --rm HOST:PORT`: one ParSync scheduler in its own
// process, a member of the RM's cell-state service over Thrift
// (scheduler_pool/remote/README.md). It runs the pool's Scheduler, unchanged,
// fed by remote syncs and the apps the service pins to it; it joins again
// when its lease is lost, and leaves on SIGINT/SIGTERM.
#pragma once

#include "base/flags/command_line.h"

namespace spindle {

const CommandSpec& SchedulerCommand();
int SchedulerMain(const CommandLine& flags);

}  // namespace spindle
