// `spindle bench wire`: the RM-agnostic load generator (BENCHMARKS.md,
// "wire"; bench/wire/wire_driver.h). Flags, each with its default in
// bench/wire/wire_options.h:
//   --rm HOST:PORT,HOST:PORT,HOST:PORT (client, scheduler, tracker) or HOST
//   --rm-pid PID --binary PATH
//   --nodes 2000 --tracker-connections 1 --node-memory-mb 65536 --node-vcores 64 --heartbeat-ms 100
//   --apps 40 --containers-per-app 2000 --container-ms 1000 --memory-mb 128
//   --vcores 1 --am-memory-mb 256 --allocate-ms 100 --seconds 20
//   --warmup-seconds 3 --unmanaged --timeout 120 --queue default --user U
//   --work-dir DIR --json FILE
// Exit status 0 with a consistent run, 1 if the run failed or its
// bookkeeping did not add up (the table is printed either way), 2 for bad
// flags.
#pragma once

#include "base/flags/command_line.h"
#include "bench/wire/wire_options.h"

namespace spindle::bench {

// The options the flags name (InvalidArgument for unknown or malformed ones).
Result<wire::WireOptions> WireOptionsFromFlags(const CommandLine& flags);

// `spindle bench wire`'s flag table and entry point.
const CommandSpec& WireBenchCommand();
int WireBenchMain(const CommandLine& flags);

}  // namespace spindle::bench
