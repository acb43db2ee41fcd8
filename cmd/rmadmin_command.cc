#include "cmd/rmadmin_command.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "base/process_user.h"
#include "cmd/rm_admin_cli.h"
#include "rm/config/configuration.h"

namespace spindle {

namespace {

// The client's configuration as a Java CLI finds it on its classpath:
// core-site.xml then yarn-site.xml of --conf DIR, else $HADOOP_CONF_DIR,
// else $YARN_CONF_DIR (each file if present).
Result<rm::Configuration> LoadClientConfiguration(std::string dir) {
  for (const char* env : {"HADOOP_CONF_DIR", "YARN_CONF_DIR"}) {
    if (!dir.empty()) break;
    if (const char* value = std::getenv(env); value != nullptr) dir = value;
  }
  rm::Configuration conf;
  if (dir.empty()) return conf;
  for (const char* name : {"core-site.xml", "yarn-site.xml"}) {
    const std::string path = dir + "/" + name;
    if (access(path.c_str(), R_OK) != 0) continue;
    RETURN_NOT_OK(conf.AddResourceFile(path));
  }
  return conf;
}

}  // namespace

const CommandSpec& RmAdminCommand() {
  static const CommandSpec kSpec{
      "rmadmin",
      "yarn rmadmin's HA commands: an RM's state, manual failover, health check",
      {FlagSpec::String("conf", "DIR", "",
                        "Hadoop configuration directory (core-site.xml, yarn-site.xml); give it "
                        "first")
           .ComputedDefault("$HADOOP_CONF_DIR, else $YARN_CONF_DIR")},
      "commands (Hadoop's words and output): -getServiceState <serviceId>, "
      "-getAllServiceState, -transitionToActive [--forceactive] [--forcemanual] <serviceId>, "
      "-transitionToStandby [--forcemanual] <serviceId>, -checkHealth <serviceId>, -help [cmd]. "
      "With automatic failover on, transitions need --forcemanual (confirmed on stdin). exit "
      "status: 0 ok, 255 failed or refused (Java's -1), 2 a bad --conf"};
  return kSpec;
}

int RmAdminMain(const std::vector<std::string>& args) {
  constexpr char kName[] = "rmadmin";
  std::string dir;
  size_t first = 0;
  if (!args.empty() && args[0].rfind("--conf=", 0) == 0) {
    dir = args[0].substr(7);
    first = 1;
  } else if (!args.empty() && args[0] == "--conf") {
    if (args.size() < 2) {
      return ReportUsageError(kName, Status::InvalidArgument("--conf needs a value (DIR)"));
    }
    dir = args[1];
    first = 2;
  }
  auto conf = LoadClientConfiguration(dir);
  if (!conf.ok()) return ReportFailure(kName, conf.status());
  RmAdminCli cli(std::move(conf).value(), LoginUserName(), {&std::cout, &std::cerr, &std::cin});
  const int status = cli.Run(std::vector<std::string>(args.begin() + first, args.end()));
  std::cout.flush();
  return status;
}

}  // namespace spindle
