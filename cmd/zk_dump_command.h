// `spindle zk-dump` and `spindle zk-restore`: a ZooKeeper subtree to a dump
// file and back (persist/zk/zk_tree_dump.h has the format). How the golden
// trees of a Java RM's ZKRMStateStore under tests/ were captured, and how
// one is put back into a ZooKeeper by hand (a Spindle RM, or a Java one,
// then started on it).
#pragma once

#include "base/flags/command_line.h"

namespace spindle {

const CommandSpec& ZkDumpCommand();
int ZkDumpMain(const CommandLine& flags);

const CommandSpec& ZkRestoreCommand();
int ZkRestoreMain(const CommandLine& flags);

}  // namespace spindle
