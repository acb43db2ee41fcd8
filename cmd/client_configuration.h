// The configuration of Spindle's client commands (`spindle shell`, its AM,
// `spindle rmadmin`) as YarnConfiguration finds it on a Java client's or
// AM's classpath: core-site.xml then yarn-site.xml (each if present) of the
// given directory, else of $HADOOP_CONF_DIR, else of $YARN_CONF_DIR; none:
// Hadoop's defaults.
#pragma once

#include <string>

#include "base/result.h"
#include "rm/config/configuration.h"

namespace spindle {

// `conf_dir` empty: the environment decides. Errors: a file that cannot be
// parsed.
Result<rm::Configuration> LoadClientConfiguration(std::string conf_dir);

}  // namespace spindle
