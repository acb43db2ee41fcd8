// RmAdminCli: the HA half of `yarn rmadmin` (Hadoop 3.3's RMAdminCLI, whose
// HA commands are HAAdmin's), as `spindle rmadmin` runs it:
//
//   -getServiceState <serviceId>
//   -getAllServiceState
//   -transitionToActive [--forceactive] [--forcemanual] <serviceId>
//   -transitionToStandby [--forcemanual] <serviceId>
//   -checkHealth <serviceId>
//   -help [cmd]
//
// each spoken as HAServiceProtocol (HaServiceClient) to the admin address of
// an rm-id of yarn.resourcemanager.ha.rm-ids, with Hadoop's output text and
// exit statuses (read in 3.3.0: HAAdmin.java, RMAdminCLI.java run() and
// resolveTarget(), RMHAServiceTarget, ToolRunner.confirmPrompt):
//  - no words: the usage on stderr, -1 (exit status 255);
//  - an HA command with yarn.resourcemanager.ha.enabled false: "Cannot run
//    <cmd> when ResourceManager HA is not enabled" on stdout, -1;
//  - a serviceId not among the rm-ids: "Illegal argument: <id> is not a valid
//    serviceId. It should be one of <ids> ", -1;
//  - the RM's refusal or an unreachable RM: "Operation failed: <message>",
//    -1 (HAAdmin.run's IOException branch); -checkHealth's
//    HealthCheckFailedException: "Health check failed: <message>", -1;
//  - manual transitions (HAAdmin.checkManualStateManagementOK, line 244 of
//    3.3.0's HAAdmin.java): with automatic failover on
//    (yarn.resourcemanager.ha.automatic-failover.enabled, default true)
//    they are refused on the client side unless --forcemanual is given,
//    which first asks for confirmation on stdin ("y"/"yes" go on, "n"/"no"
//    abort with -1) and then sends REQUEST_BY_USER_FORCED, which the RM
//    accepts with a warning (its AdminService.checkHaStateChange);
//  - -transitionToActive without --forceactive first asks every other rm-id
//    for its state (5 s timeout) and refuses if one is active ("Node <id>
//    is already active") or cannot be asked ("Unexpected error occurred
//    <message>");
//  - -getAllServiceState: "%-50s %-10s" of <host>:<port> and the state, or
//    "Failed to connect: <message>", for every rm-id; always 0.
// Where Spindle's text differs, on purpose: "Automatic failover is enabled
// for <rm-id>" names the rm-id where Java prints the target object's
// identity (RMHAServiceTarget@<hash>); Hadoop's generic options block
// (-conf, -D, -fs, -jt, ...) is not printed, since spindle rmadmin does not
// take them; end of input at the --forcemanual prompt aborts, where Java
// would ask again for ever; and yarn rmadmin's other commands (-refreshQueues
// and the like) are answered as not offered here.
//
// Thread contract: one Run per object at a time; the streams are the
// caller's and must outlive the call.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "rm/config/configuration.h"

namespace spindle {

struct RmAdminStreams {
  std::ostream* out;  // System.out
  std::ostream* err;  // System.err
  std::istream* in;   // System.in (the --forcemanual confirmation)
};

class RmAdminCli {
 public:
  // `conf`: the client's configuration (core-site.xml, yarn-site.xml);
  // `user`: who the calls go out as.
  RmAdminCli(rm::Configuration conf, std::string user, RmAdminStreams io);

  // `args` are the words after `rmadmin`; returns the process exit status
  // (Java's -1 is 255).
  int Run(const std::vector<std::string>& args);

 private:
  struct Parsed;
  int RunHaCommand(const std::vector<std::string>& args);
  enum class TransitionTo { kActive, kStandby };
  int Transition(const Parsed& command, TransitionTo to);
  int GetServiceState(const Parsed& command);
  int GetAllServiceState();
  int CheckHealth(const Parsed& command);
  int Help(const std::vector<std::string>& args);

  // checkManualStateManagementOK: false (message printed) when refused.
  bool ManualStateManagementOk(const std::string& rm_id);
  // isOtherTargetNodeActive: true (message printed) when the transition
  // must not go on.
  bool OtherNodeActive(const std::string& rm_id);
  // ToolRunner.confirmPrompt for --forcemanual.
  bool ConfirmForceManual();
  // HAAdmin.printUsage(errOut, cmd): "Usage: rmadmin [<cmd> <args>]".
  void PrintCommandUsage(const std::string& cmd);
  // RMAdminCLI.printUsage(cmd): the one command, or all of them.
  void PrintRmAdminUsage(const std::string& cmd);

  const rm::Configuration conf_;
  const std::string user_;
  const RmAdminStreams io_;
  bool forced_ = false;  // REQUEST_BY_USER_FORCED once --forcemanual is confirmed
};

}  // namespace spindle
