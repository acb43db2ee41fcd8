// `spindle shell` and `spindle shell-am`: a DistributedShell of our own, the
// demo application of a Spindle cell. Both halves speak only Hadoop's wire
// protocols, so they run against Apache's RM and NodeManagers as well.
//
//  - `spindle shell` (the client) submits an application over
//    ApplicationClientProtocol whose AM is `spindle shell-am` (this same
//    binary), then follows its report until it ends. Exit 0 iff it SUCCEEDED.
//  - `spindle shell-am` runs in the AM container: it reads its AMRM token
//    from HADOOP_TOKEN_FILE_LOCATION, registers, asks for N containers,
//    starts the command in each over ContainerManagementProtocol with the
//    NM tokens it was given, waits for all to complete and unregisters
//    SUCCEEDED if every command exited 0, FAILED otherwise (cmd/shell_am.h,
//    which also says how it survives an RM restart).
// Both retry calls that cannot reach the RM per yarn.resourcemanager.connect.*
// (as Hadoop's RMProxy), read from --conf DIR, $HADOOP_CONF_DIR or
// $YARN_CONF_DIR (core-site.xml, yarn-site.xml).
#pragma once

#include "base/flags/command_line.h"

namespace spindle {

// The flag tables of `spindle shell` and `spindle shell-am`.
const CommandSpec& ShellCommand();
const CommandSpec& ShellAmCommand();
int ShellClientMain(const CommandLine& flags);
int ShellAmMain(const CommandLine& flags);

}  // namespace spindle
