// `spindle rmadmin`: the HA commands of Hadoop's `yarn rmadmin` (RmAdminCli,
// cmd/rm_admin_cli.h) on a Hadoop configuration directory. Its words are
// Hadoop's (`spindle rmadmin -transitionToActive --forcemanual rm1`), so it
// takes them whole (RmAdminMain) rather than through Spindle's --flag parser;
// only --conf DIR, first, is Spindle's.
#pragma once

#include <string>
#include <vector>

#include "base/flags/command_line.h"

namespace spindle {

// The table `spindle rmadmin --help` prints.
const CommandSpec& RmAdminCommand();
// [--conf DIR] <yarn rmadmin words>; returns the exit status (Java's -1 is 255).
int RmAdminMain(const std::vector<std::string>& args);

}  // namespace spindle
