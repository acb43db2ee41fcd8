// `spindle doctor`'s flag table and its entry point on a parsed command line
// (the report itself is cmd/doctor.h).
#pragma once

#include "base/flags/command_line.h"

namespace spindle {

const CommandSpec& DoctorCommand();
// Exit status: 0 ready, 1 warnings, 2 blockers or a usage error (DoctorMain's).
int DoctorCommandMain(const CommandLine& flags);

}  // namespace spindle
