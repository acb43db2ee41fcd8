#include "cmd/doctor_command.h"

#include <cstdlib>
#include <iostream>

#include "cmd/doctor.h"
#include "cmd/version.h"

namespace spindle {

const CommandSpec& DoctorCommand() {
  static const CommandSpec kSpec{
      "doctor",
      "what Spindle does with every key of a Hadoop conf dir, before a swap",
      {FlagSpec::String("conf", "DIR", "",
                        "the Hadoop configuration directory (core-site.xml, yarn-site.xml, "
                        "capacity-scheduler.xml, mapred-site.xml)")
           .ComputedDefault("$HADOOP_CONF_DIR"),
       FlagSpec::Switch("json", "print the report as JSON"),
       FlagSpec::String("hadoop-version", "LINE", "",
                        "the Hadoop line whose defaults Spindle's are compared with (2.6, 2.7, "
                        "3.3)")
           .ComputedDefault(std::string("the configuration's ") + kHadoopLineKey + ", else " +
                            DefaultHadoopLine())},
      "exit status: 0 ready, 1 warnings, 2 blockers (or a usage error)"};
  return kSpec;
}

int DoctorCommandMain(const CommandLine& flags) {
  DoctorOptions options;
  const char* env = std::getenv("HADOOP_CONF_DIR");
  options.conf_dir = flags.GetString("conf", env != nullptr ? env : "");
  options.json = flags.GetBool("json");
  options.hadoop_version = flags.GetString("hadoop-version");
  return DoctorMain(options, std::cout, std::cerr);
}

}  // namespace spindle
