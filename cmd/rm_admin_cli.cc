#include "cmd/rm_admin_cli.h"

#include <glog/logging.h>

#include <cctype>
#include <chrono>
#include <istream>
#include <optional>
#include <ostream>
#include <set>
#include <string_view>

#include "am_protocol/admin_service/ha_service.h"
#include "am_protocol/rm_proxy/ha_service_client.h"
#include "rm/config/ha_config.h"
#include "wire/ipc/rpc_client.h"

namespace spindle {

namespace {

namespace c = hadoop::common;
using am_protocol::HaRequestSource;
using am_protocol::HaServiceClient;

// Java's `return -1` from Tool.run, as the process exit status.
constexpr int kFailed = 255;

constexpr char kForceActive[] = "forceactive";
constexpr char kForceManual[] = "forcemanual";
constexpr char kAdminAddress[] = "yarn.resourcemanager.admin.address";
constexpr char kCheckTimeoutKey[] = "ha.failover-controller.cli-check.rpc-timeout.ms";
// HAAdmin.isOtherTargetNodeActive's getProxy(conf, 5000).
constexpr std::chrono::milliseconds kOtherNodeTimeout{5000};

// HAAdmin.USAGE, in its (ImmutableMap insertion) order.
struct Usage {
  const char* command;
  const char* args;  // nullptr: none
  const char* help;
};
constexpr Usage kUsage[] = {
    {"-transitionToActive", "[--forceactive] <serviceId>",
     "Transitions the service into Active state"},
    {"-transitionToStandby", "<serviceId>", "Transitions the service into Standby state"},
    {"-getServiceState", "<serviceId>", "Returns the state of the service"},
    {"-getAllServiceState", nullptr, "Returns the state of all the services"},
    {"-checkHealth", "<serviceId>",
     "Requests that the service perform a health check.\nThe HAAdmin tool will exit with a "
     "non-zero exit code\nif the check fails."},
    {"-help", "<command>", "Displays help on the specified command"},
};

const Usage* FindUsage(std::string_view command) {
  for (const Usage& u : kUsage) {
    if (command == u.command) return &u;
  }
  return nullptr;
}

// RMAdminCLI.ADMIN_USAGE's commands: real `yarn rmadmin` commands that this
// rmadmin does not offer (the RM serves them on its admin port).
constexpr const char* kAdminCommands[] = {"-refreshQueues",
                                          "-refreshNodes",
                                          "-refreshNodesResources",
                                          "-refreshSuperUserGroupsConfiguration",
                                          "-refreshUserToGroupsMappings",
                                          "-refreshAdminAcls",
                                          "-refreshServiceAcl",
                                          "-getGroups",
                                          "-addToClusterNodeLabels",
                                          "-removeFromClusterNodeLabels",
                                          "-replaceLabelsOnNode",
                                          "-directlyAccessNodeLabelStore",
                                          "-refreshClusterMaxPriority",
                                          "-updateNodeResource"};

bool IsAdminCommand(std::string_view command) {
  for (const char* a : kAdminCommands) {
    if (command == a) return true;
  }
  return false;
}

// The message an IOException carries in Java: the RM's own text for a
// remote exception (RemoteException.getMessage), else the client's.
std::string MessageOf(const Status& s) { return s.message(); }

std::unique_ptr<ipc::RpcClient> ClientWithTimeout(std::chrono::milliseconds timeout) {
  ipc::RpcClientOptions options;
  if (timeout.count() > 0) {
    options.call_timeout = timeout;
    options.connect_timeout = timeout;
  }
  return std::make_unique<ipc::RpcClient>(options);
}

}  // namespace

// A command's words as commons-cli's GnuParser splits them: the options it
// takes (given as -name or --name), the other words, "--" ending options.
struct RmAdminCli::Parsed {
  std::string command;
  std::set<std::string> options;
  std::vector<std::string> args;
};

RmAdminCli::RmAdminCli(rm::Configuration conf, std::string user, RmAdminStreams io)
    : conf_(std::move(conf)), user_(std::move(user)), io_(io) {}

void RmAdminCli::PrintCommandUsage(const std::string& cmd) {
  const Usage* u = FindUsage(cmd);
  if (u == nullptr) return;
  *io_.err << "Usage: rmadmin [" << cmd << (u->args != nullptr ? std::string(" ") + u->args : "")
           << "]\n";
}

void RmAdminCli::PrintRmAdminUsage(const std::string& cmd) {
  std::string text;
  if (const Usage* one = FindUsage(cmd); one != nullptr && cmd != "-help") {
    text = "Usage: yarn rmadmin [" + cmd +
           (one->args != nullptr ? std::string(" ") + one->args : "") + "]\n" + cmd +
           " can only be used when RM HA is enabled";
  } else {
    Result<bool> ha = conf_.GetBool("yarn.resourcemanager.ha.enabled", false);
    text = "Usage: yarn rmadmin\n";
    if (ha.ok() && *ha) {
      for (const Usage& u : kUsage) {
        if (std::string_view(u.command) == "-help") continue;
        text += std::string("   ") + u.command +
                (u.args != nullptr ? std::string(" ") + u.args : "") + "\n";
      }
    }
    text += "   -help [cmd]\n";
  }
  *io_.err << text << "\n";
}

int RmAdminCli::Help(const std::vector<std::string>& args) {
  if (args.size() > 1) {
    PrintRmAdminUsage(args[1]);
    return 0;
  }
  Result<bool> ha = conf_.GetBool("yarn.resourcemanager.ha.enabled", false);
  const bool ha_on = ha.ok() && *ha;
  std::string summary =
      "rmadmin is the command to execute YARN administrative commands.\nThe full syntax is: "
      "\n\nyarn rmadmin";
  std::string details;
  if (ha_on) {
    for (const Usage& u : kUsage) {
      if (std::string_view(u.command) == "-help") continue;
      const std::string with_args =
          std::string(u.command) + (u.args != nullptr ? std::string(" ") + u.args : "");
      summary += " [" + with_args + "]";
      details += "   " + with_args + ": " + u.help + "\n";
    }
  }
  summary += " [-help [cmd]]\n";
  details +=
      "   -help [cmd]: Displays help for the given command or all commands if none is "
      "specified.";
  *io_.out << summary << "\n" << details << "\n\n";
  return 0;
}

int RmAdminCli::Run(const std::vector<std::string>& args) {
  Result<bool> ha = conf_.GetBool("yarn.resourcemanager.ha.enabled", false);
  if (!ha.ok()) {
    *io_.err << "rmadmin: " << ha.status().message() << "\n";
    return kFailed;
  }
  if (args.empty()) {
    PrintRmAdminUsage("");
    return kFailed;
  }
  const std::string& cmd = args[0];
  if (cmd == "-help") return Help(args);
  if (FindUsage(cmd) != nullptr) {
    if (*ha) return RunHaCommand(args);
    *io_.out << "Cannot run " << cmd << " when ResourceManager HA is not enabled\n";
    return kFailed;
  }
  if (IsAdminCommand(cmd)) {
    *io_.err << cmd.substr(1)
             << ": not offered by spindle rmadmin (only the HA commands are); use Hadoop's "
                "`yarn rmadmin`, the RM serves it\n";
    return kFailed;
  }
  *io_.err << (cmd.empty() ? cmd : cmd.substr(1)) << ": Unknown command\n";
  PrintRmAdminUsage("");
  return kFailed;
}

int RmAdminCli::RunHaCommand(const std::vector<std::string>& args) {
  Parsed command;
  command.command = args[0];
  std::set<std::string> accepted;
  if (command.command == "-transitionToActive") accepted = {kForceActive, kForceManual};
  if (command.command == "-transitionToStandby") accepted = {kForceManual};
  bool options_ended = false;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (!options_ended && word == "--") {
      options_ended = true;
      continue;
    }
    if (!options_ended && word.size() > 1 && word[0] == '-') {
      const std::string name = word.substr(word.rfind("--", 0) == 0 ? 2 : 1);
      if (accepted.count(name) == 0) {
        // GnuParser's UnrecognizedOptionException.
        *io_.err << command.command.substr(1) << ": incorrect arguments\n";
        PrintCommandUsage(command.command);
        return kFailed;
      }
      command.options.insert(name);
      continue;
    }
    command.args.push_back(word);
  }
  if (command.options.count(kForceManual) != 0) {
    if (!ConfirmForceManual()) {
      *io_.err << "Aborted\n";  // Java's LOG.error, on the console
      return kFailed;
    }
    forced_ = true;
  }
  if (command.command == "-transitionToActive") return Transition(command, TransitionTo::kActive);
  if (command.command == "-transitionToStandby") {
    return Transition(command, TransitionTo::kStandby);
  }
  if (command.command == "-getServiceState") return GetServiceState(command);
  if (command.command == "-getAllServiceState") return GetAllServiceState();
  return CheckHealth(command);
}

bool RmAdminCli::ConfirmForceManual() {
  while (true) {
    *io_.err << "You have specified the --" << kForceManual
             << " flag. This flag is dangerous, as it can induce a split-brain scenario that "
                "WILL CORRUPT your HDFS namespace, possibly irrecoverably.\n\nIt is recommended "
                "not to use this flag, but instead to shut down the cluster and disable "
                "automatic failover if you prefer to manually manage your HA state.\n\nYou may "
                "abort safely by answering 'n' or hitting ^C now.\n\nAre you sure you want to "
                "continue? (Y or N) "
             << std::flush;
    std::string response;
    if (!std::getline(*io_.in, response)) return false;  // end of input: abort
    if (!response.empty() && response.back() == '\r') response.pop_back();
    std::string lower;
    for (char ch : response)
      lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (lower == "y" || lower == "yes") return true;
    if (lower == "n" || lower == "no") return false;
    *io_.err << "Invalid input: " << response << "\n";
  }
}

namespace {

// RMAdminCLI.resolveTarget: the rm-id's admin address, or the text Java
// throws (an IllegalArgumentException for an unknown id, which HAAdmin.run
// prints as "Illegal argument: ..."; a YarnRuntimeException otherwise).
struct Target {
  rm::SocketAddress admin;
  std::string illegal_argument;  // set: an unknown rm-id
  std::string missing;           // set: no usable address configured
};

Target ResolveTarget(const rm::Configuration& conf, const std::string& rm_id) {
  Target target;
  const std::vector<std::string> ids = conf.GetTrimmedStrings("yarn.resourcemanager.ha.rm-ids");
  bool known = false;
  for (const std::string& id : ids) known = known || id == rm_id;
  if (!known) {
    target.illegal_argument = rm_id + " is not a valid serviceId. It should be one of ";
    for (const std::string& id : ids) target.illegal_argument += id + " ";
    return target;
  }
  Result<std::string> text = rm::RmAddressOf(conf, kAdminAddress, rm_id);
  std::optional<rm::SocketAddress> address;
  if (text.ok()) address = rm::ParseSocketAddress(*text);
  if (!address.has_value()) {
    target.missing =
        "Could not connect to " + rm_id + "; the configuration for it might be missing";
    return target;
  }
  target.admin = *address;
  return target;
}

std::chrono::milliseconds CheckTimeout(const rm::Configuration& conf) {
  Result<int64_t> ms = conf.GetInt(kCheckTimeoutKey, 20000);
  return std::chrono::milliseconds(ms.ok() ? *ms : 20000);
}

}  // namespace

namespace {

// The exit status when `target` is unresolved (its message printed), else
// nullopt. Java's exception there leaves HAAdmin.run (-1 with "Illegal
// argument: ...") or, a YarnRuntimeException, the JVM (status 1).
std::optional<int> Unresolved(const Target& target, std::ostream& err) {
  if (!target.illegal_argument.empty()) {
    err << "Illegal argument: " << target.illegal_argument << "\n";
    return kFailed;
  }
  if (!target.missing.empty()) {
    err << "Exception in thread \"main\" org.apache.hadoop.yarn.exceptions.YarnRuntimeException: "
        << target.missing << "\n";
    return 1;
  }
  return std::nullopt;
}

// String.format("%-50s %-10s", address, state).
std::string AllStatesRow(const std::string& address, const std::string& state) {
  std::string row = address;
  if (row.size() < 50) row.append(50 - row.size(), ' ');
  row += " " + state;
  if (state.size() < 10) row.append(10 - state.size(), ' ');
  return row;
}

}  // namespace

bool RmAdminCli::ManualStateManagementOk(const std::string& rm_id) {
  // RMHAServiceTarget.isAutoFailoverEnabled: HAUtil.isAutomaticFailoverEnabled.
  Result<bool> automatic =
      conf_.GetBool("yarn.resourcemanager.ha.automatic-failover.enabled", true);
  if (!automatic.ok() || !*automatic) return true;
  if (!forced_) {
    *io_.err << "Automatic failover is enabled for " << rm_id
             << "\nRefusing to manually manage HA state, since it may cause\na split-brain "
                "scenario or other incorrect state.\nIf you are very sure you know what you are "
                "doing, please \nspecify the --"
             << kForceManual << " flag.\n";
    return false;
  }
  LOG(WARNING) << "Proceeding with manual HA state management even though\nautomatic failover "
                  "is enabled for "
               << rm_id;
  return true;
}

bool RmAdminCli::OtherNodeActive(const std::string& rm_id) {
  auto client = ClientWithTimeout(kOtherNodeTimeout);
  for (const std::string& other : conf_.GetTrimmedStrings("yarn.resourcemanager.ha.rm-ids")) {
    if (other == rm_id) continue;
    if (!ManualStateManagementOk(other)) return true;
    const Target target = ResolveTarget(conf_, other);
    Status failed;
    if (!target.illegal_argument.empty() || !target.missing.empty()) {
      failed = Status::InvalidArgument(target.missing.empty() ? target.illegal_argument
                                                              : target.missing);
    } else {
      auto status = HaServiceClient(client.get(), user_).GetServiceStatus(target.admin);
      if (status.ok() && status->state() == c::ACTIVE) {
        *io_.err << "transitionToActive: Node " << other << " is already active\n";
        PrintCommandUsage("-transitionToActive");
        return true;
      }
      if (!status.ok()) failed = status.status();
    }
    if (!failed.ok()) {
      *io_.err << "Unexpected error occurred  " << MessageOf(failed) << "\n";
      PrintCommandUsage("-transitionToActive");
      return true;
    }
  }
  return false;
}

int RmAdminCli::Transition(const Parsed& command, TransitionTo to) {
  const bool active = to == TransitionTo::kActive;
  const std::string name = active ? "transitionToActive" : "transitionToStandby";
  if (command.args.size() != 1) {
    *io_.err << name << ": incorrect number of arguments\n";
    PrintCommandUsage("-" + name);
    return kFailed;
  }
  const std::string& rm_id = command.args[0];
  if (active && command.options.count(kForceActive) == 0 && OtherNodeActive(rm_id)) {
    return kFailed;
  }
  const Target target = ResolveTarget(conf_, rm_id);
  if (auto exit = Unresolved(target, *io_.err); exit.has_value()) return *exit;
  if (!ManualStateManagementOk(rm_id)) return kFailed;
  // HAAdmin's getProxy(conf, 0): no timeout of its own.
  auto client = ClientWithTimeout(std::chrono::milliseconds(0));
  const HaServiceClient ha(client.get(), user_);
  const HaRequestSource source = forced_ ? HaRequestSource::kUserForced : HaRequestSource::kUser;
  const Status s = active ? ha.TransitionToActive(target.admin, source)
                          : ha.TransitionToStandby(target.admin, source);
  if (!s.ok()) {
    *io_.err << "Operation failed: " << MessageOf(s) << "\n";
    return kFailed;
  }
  return 0;
}

int RmAdminCli::GetServiceState(const Parsed& command) {
  if (command.args.size() != 1) {
    *io_.err << "getServiceState: incorrect number of arguments\n";
    PrintCommandUsage("-getServiceState");
    return kFailed;
  }
  const Target target = ResolveTarget(conf_, command.args[0]);
  if (auto exit = Unresolved(target, *io_.err); exit.has_value()) return *exit;
  auto client = ClientWithTimeout(CheckTimeout(conf_));
  auto status = HaServiceClient(client.get(), user_).GetServiceStatus(target.admin);
  if (!status.ok()) {
    *io_.err << "Operation failed: " << MessageOf(status.status()) << "\n";
    return kFailed;
  }
  *io_.out << am_protocol::HaStateJavaName(status->state()) << "\n";
  return 0;
}

int RmAdminCli::GetAllServiceState() {
  const std::vector<std::string> ids = conf_.GetTrimmedStrings("yarn.resourcemanager.ha.rm-ids");
  if (ids.empty()) {
    *io_.err << "Failed to get service IDs\n";
    return kFailed;
  }
  auto client = ClientWithTimeout(CheckTimeout(conf_));
  for (const std::string& rm_id : ids) {
    const Target target = ResolveTarget(conf_, rm_id);
    if (auto exit = Unresolved(target, *io_.err); exit.has_value()) return *exit;
    auto status = HaServiceClient(client.get(), user_).GetServiceStatus(target.admin);
    const std::string state = status.ok() ? am_protocol::HaStateJavaName(status->state())
                                          : "Failed to connect: " + MessageOf(status.status());
    *io_.out << AllStatesRow(target.admin.ToString(), state) << "\n";
  }
  return 0;
}

int RmAdminCli::CheckHealth(const Parsed& command) {
  if (command.args.size() != 1) {
    *io_.err << "checkHealth: incorrect number of arguments\n";
    PrintCommandUsage("-checkHealth");
    return kFailed;
  }
  const Target target = ResolveTarget(conf_, command.args[0]);
  if (auto exit = Unresolved(target, *io_.err); exit.has_value()) return *exit;
  auto client = ClientWithTimeout(CheckTimeout(conf_));
  Status s = HaServiceClient(client.get(), user_).MonitorHealth(target.admin);
  if (s.ok()) return 0;
  if (s.java_class() == am_protocol::ha_exceptions::kHealthCheckFailed) {
    *io_.err << "Health check failed: " << MessageOf(s) << "\n";
  } else {
    *io_.err << "Operation failed: " << MessageOf(s) << "\n";
  }
  return kFailed;
}

}  // namespace spindle
