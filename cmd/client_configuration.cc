#include "cmd/client_configuration.h"

#include <unistd.h>

#include <cstdlib>

namespace spindle {

Result<rm::Configuration> LoadClientConfiguration(std::string conf_dir) {
  for (const char* env : {"HADOOP_CONF_DIR", "YARN_CONF_DIR"}) {
    if (!conf_dir.empty()) break;
    if (const char* value = std::getenv(env); value != nullptr) conf_dir = value;
  }
  rm::Configuration conf;
  if (conf_dir.empty()) return conf;
  for (const char* name : {"core-site.xml", "yarn-site.xml"}) {
    const std::string path = conf_dir + "/" + name;
    if (access(path.c_str(), R_OK) != 0) continue;
    RETURN_NOT_OK(conf.AddResourceFile(path));
  }
  return conf;
}

}  // namespace spindle
