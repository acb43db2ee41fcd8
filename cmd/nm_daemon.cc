#include "cmd/nm_daemon.h"

#include <glog/logging.h>
#include <signal.h>

#include <cstdio>
#include <cstdlib>

#include "cmd/rm_daemon.h"

namespace spindle {

Result<nm::NodeAgentOptions> NmOptionsFromFlags(const CommandLine& flags) {
  RETURN_NOT_OK(flags.CheckKnown({"conf", "simulate", "nodes-file", "resource-tracker"}));
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
  nm::NodeAgentOptions options;
  ASSIGN_OR_RETURN(options.agent, nm::AgentOptionsFromConfiguration(conf));
  ASSIGN_OR_RETURN(options.simulated_nodes, flags.GetInt("simulate", 0));
  if (options.simulated_nodes < 0) {
    return Status::InvalidArgument("--simulate " + std::to_string(options.simulated_nodes) +
                                   " must not be negative");
  }
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
    // A configuration that cannot be read is a runtime failure (1), as for
    // `spindle rm`; a bad flag or value is a usage error (2).
    return options.status().code() == Status::Code::kIoError ? 1 : 2;
  }
  const bool simulate = options->simulated_nodes > 0 || !options->simulated_specs.empty();
  nm::RuntimeFactory runtimes = simulate ? nm::SimulatedRuntimeFactory(options->agent)
                                         : nm::ProcessRuntimeFactory(options->agent);
  auto agent = nm::NodeAgent::Create(*options, std::move(runtimes));
  if (!agent.ok()) {
    std::fprintf(stderr, "spindle nm: %s\n", agent.status().message().c_str());
    return 2;
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
