#include "cmd/rmadmin_command.h"

#include <iostream>
#include <utility>

#include "base/process_user.h"
#include "cmd/client_configuration.h"
#include "cmd/rm_admin_cli.h"

namespace spindle {

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
  auto conf = LoadClientConfiguration(std::move(dir));
  if (!conf.ok()) return ReportFailure(kName, conf.status());
  RmAdminCli cli(std::move(conf).value(), LoginUserName(), {&std::cout, &std::cerr, &std::cin});
  const int status = cli.Run(std::vector<std::string>(args.begin() + first, args.end()));
  std::cout.flush();
  return status;
}

}  // namespace spindle
