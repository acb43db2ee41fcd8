#include "cmd/nm_daemon.h"

#include <glog/logging.h>
#include <signal.h>

#include <cstdio>
#include <cstdlib>

#include "base/open_file_limit.h"
#include "cmd/rm_daemon.h"
#include "security/daemon_login.h"
#include "wire/ipc/sasl_qop.h"

namespace spindle {

const CommandSpec& NmCommand() {
  static const CommandSpec kSpec{
      "nm",
      "the node agent: runs containers for the RM (or simulates nodes)",
      {FlagSpec::String("conf", "DIR", "",
                        "Hadoop configuration directory (core-site.xml, "
                        "yarn-site.xml)")
           .ComputedDefault("$HADOOP_CONF_DIR, else the current directory"),
       FlagSpec::Int("simulate", 0,
                     "host N virtual nodes whose containers only hold their resources; 0 runs "
                     "real containers")
           .InRange(0, 1e7),
       FlagSpec::String("nodes-file", "FILE", "",
                        "host the virtual nodes this file lists, each with its own memory and "
                        "vcores"),
       FlagSpec::String("resource-tracker", "HOST:PORT", "",
                        "the RM's resource tracker; overrides "
                        "yarn.resourcemanager.resource-tracker.address")}};
  return kSpec;
}

Result<nm::NodeAgentOptions> NmOptionsFromFlags(const CommandLine& flags) {
  std::string dir = flags.GetString("conf", "");
  if (dir.empty()) {
    const char* env = std::getenv("HADOOP_CONF_DIR");
    dir = env != nullptr ? env : ".";
  }
  auto loaded = RmDaemon::LoadConfiguration(dir);
  // Not a usage error: the agent cannot run on what the operator named.
  if (!loaded.ok()) return Status::IoError(loaded.status().message());
  rm::Configuration conf = std::move(loaded).value();
  if (flags.Has("resource-tracker")) {
    conf.Set("yarn.resourcemanager.resource-tracker.address",
             flags.GetString("resource-tracker", ""));
  }
  // Hadoop 3.3 NodeManager.doSecureLogin: yarn.nodemanager.keytab and
  // principal, _HOST from this machine's name.
  ASSIGN_OR_RETURN(security::DaemonIdentity identity,
                   security::LoginDaemon(conf, security::kNodeManagerLoginKeys, ""));
  nm::NodeAgentOptions options;
  options.kerberos_login = std::move(identity.credentials);
  ASSIGN_OR_RETURN(options.rpc_protection,
                   ipc::ParseRpcProtection(conf.GetTrimmed(ipc::kRpcProtectionKey).value_or("")));
  ASSIGN_OR_RETURN(options.agent, nm::AgentOptionsFromConfiguration(conf));
  options.simulated_nodes = flags.GetInt("simulate");
  if (flags.Has("nodes-file")) {
    // NodeAgent::Create checks it against --simulate and takes its count.
    ASSIGN_OR_RETURN(options.simulated_specs,
                     nm::ReadSimulatedNodesFile(flags.GetString("nodes-file", "")));
  }
  return options;
}

int NmMain(const CommandLine& flags) {
  auto options = NmOptionsFromFlags(flags);
  if (!options.ok()) {
    std::fprintf(stderr, "spindle nm: %s\n", options.status().message().c_str());
    return kExitFailure;
  }
  // Before any server opens a socket; a failure is logged and is no reason not to start.
  RaiseOpenFileLimit("spindle nm").status().PermitUnchecked();
  const bool simulate = options->simulated_nodes > 0 || !options->simulated_specs.empty();
  nm::RuntimeFactory runtimes = simulate ? nm::SimulatedRuntimeFactory(options->agent)
                                         : nm::ProcessRuntimeFactory(options->agent);
  auto agent = nm::NodeAgent::Create(*options, std::move(runtimes));
  if (!agent.ok()) {
    std::fprintf(stderr, "spindle nm: %s\n", agent.status().message().c_str());
    return kExitFailure;
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  Status started = (*agent)->Start();
  if (!started.ok()) {
    std::fprintf(stderr, "spindle nm: %s\n", started.message().c_str());
    return 1;
  }
  const timespec tick{0, 200 * 1000 * 1000};
  while (true) {
    const int signal = sigtimedwait(&signals, nullptr, &tick);
    if (signal > 0) {
      LOG(INFO) << "NodeManager stopping on signal " << signal;
      (*agent)->Stop();
      return 0;
    }
    Status stopped = (*agent)->WaitUntilStopped(std::chrono::milliseconds(0));
    if (!stopped.IsTimedOut()) {
      (*agent)->Stop();
      if (!stopped.ok()) {
        std::fprintf(stderr, "spindle nm: %s\n", stopped.message().c_str());
        return 1;
      }
      return 0;
    }
  }
}

}  // namespace spindle
