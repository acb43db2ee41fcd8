#include "rm/config/configuration_directory.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>

#include "rm/config/hadoop_line.h"

namespace spindle::rm {

namespace {

// A --conf (or $HADOOP_CONF_DIR) that is missing, a file or unreadable is an
// operator's mistake to report, not a reason to start on defaults.
Status CheckConfigurationDirectory(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    return Status::IoError(
        "configuration directory " + dir + ": " +
        (errno == ENOENT ? std::string("no such directory") : std::string(std::strerror(errno))));
  }
  if (!S_ISDIR(st.st_mode)) {
    return Status::InvalidArgument("configuration directory " + dir +
                                   ": not a directory (name the directory that holds "
                                   "yarn-site.xml, not a file)");
  }
  // Readable, as the files in it are looked up by name.
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) {
    return Status::IoError("configuration directory " + dir +
                           ": cannot be read: " + std::strerror(errno));
  }
  ::closedir(listing);
  return Status::OK();
}

}  // namespace

Result<Configuration> LoadConfigurationDirectory(const std::string& dir) {
  RETURN_NOT_OK(CheckConfigurationDirectory(dir));
  Configuration conf;
  for (const char* file : {"core-site.xml", "yarn-site.xml", "capacity-scheduler.xml"}) {
    const std::string path = dir + "/" + file;
    if (std::ifstream(path).good()) {
      RETURN_NOT_OK(conf.AddResourceFile(path));
    } else if (std::string_view(file) == "capacity-scheduler.xml" &&
               conf.KeysWithPrefix("yarn.scheduler.capacity.").empty()) {
      // A Hadoop install always has one in etc/hadoop; without it (and
      // without queues in the other files) the queue tree is the one Hadoop
      // ships (one queue, "default").
      RETURN_NOT_OK(
          conf.AddResourceString(ShippedCapacitySchedulerXml(), kShippedCapacitySchedulerSource));
    }
  }
  return conf;
}

}  // namespace spindle::rm
