// The RM's configuration as Hadoop reads it from $HADOOP_CONF_DIR: read at
// start and again by the admin refreshes (refreshQueues, refreshNodes,
// refreshAdminAcls), which re-read the files.
//
// Thread-safety: a pure function (reads files).
#pragma once

#include <string>

#include "base/result.h"
#include "rm/config/configuration.h"

namespace spindle::rm {

// Loads core-site.xml, yarn-site.xml and capacity-scheduler.xml from `dir`
// (each optional, in that order; an empty directory is fine; without a
// capacity-scheduler.xml nor yarn.scheduler.capacity.* keys elsewhere, the
// one Hadoop ships applies: queue "default" with all of root's capacity).
// A `dir` that does not exist (IoError), is not a directory
// (InvalidArgument) or cannot be read (IoError) fails with a message naming
// it.
Result<Configuration> LoadConfigurationDirectory(const std::string& dir);

}  // namespace spindle::rm
