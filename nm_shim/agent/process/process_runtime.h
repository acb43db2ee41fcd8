// The real container runtime of `spindle nm`: each container runs as a child
// process of the agent, as Hadoop's DefaultContainerExecutor runs it (same OS
// user as the agent; the container's `user` names its directories and USER).
//
// A launch goes: check the user name and resource names, create the
// directories (container_paths.h), localise the resources (localizer.h),
// write container_tokens, launch_container.sh and its wrapper
// (launch_script.h), then start the wrapper in a new session (setsid) with the
// work dir as cwd. A supervisor thread reaps it by pid, checks the tree's
// physical memory every monitor interval (memory_monitor.h), and delivers
// SIGTERM then SIGKILL to the whole tree (process_tree.h) on Kill(). The
// wrapper starts with the agent's own environment, as DefaultContainerExecutor's
// children start with the Java NM's; launch_container.sh exports the
// container's variables over it. Files per container: launch_container.sh and
// container_tokens in the work dir; the wrapper, <container>.pid and
// <container>.pid.exitcode in the private dir; prelaunch.out/prelaunch.err
// (the scripts' own output) and stdout/stderr (the command's, unless it
// redirects them) in the log dir.
//
// Exit statuses (ContainerExit.exit_status):
//   * the launch command's exit code; 128 + N if it died of signal N (the
//     shell's convention, which Hadoop's wrapper script records);
//   * Kill()'s exit_status for a container killed through Kill() (also when
//     it was killed before it ever ran), kExitKilledExceededPmem (-104) for a
//     tree over its memory_mb, kExitKilledByResourceManager for Shutdown();
//   * kExitInvalid (-1000) for a container that never ran: bad user or
//     resource name, missing or changed resource, unsupported URL scheme,
//     unpack or I/O failure; the Java NM reports localisation failures so.
// When the launch command exits, whatever it left running in its tree gets
// SIGTERM, then SIGKILL after sigkill_delay_ms, before on_exit is called, so
// a finished container leaves no processes behind.
//
// Launch() during Shutdown() reports the container at once with kExitAborted;
// Launch() after Shutdown() returned is a caller error, logged and ignored.
//
// Thread-safety: all ContainerRuntime methods are thread-safe and return
// without waiting for containers, except Shutdown(). Listener callbacks run on
// the runtime's own threads (launcher threads for on_running and for
// containers that never ran, the supervisor thread otherwise), never under the
// runtime's lock, so they may call back into the runtime; they must not call
// Shutdown() or destroy the runtime.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/result.h"
#include "nm_shim/agent/container_runtime.h"

namespace spindle::nm {

struct ProcessRuntimeOptions {
  // The node's identity and root directories. local_dirs and log_dirs must be
  // non-empty absolute paths; they are created if missing.
  // yarn.nodemanager.local-dirs, yarn.nodemanager.log-dirs and friends.
  NodeEnvironment node;
  // Grace between SIGTERM and SIGKILL when a container is killed.
  // Default: 250. yarn.nodemanager.sleep-delay-before-sigkill.ms
  int64_t sigkill_delay_ms = 250;
  // How often each container's process tree is measured.
  // Default: 3000. yarn.nodemanager.container-monitor.interval-ms
  int64_t monitor_interval_ms = 3000;
  // Kill containers whose tree's resident memory exceeds memory_mb.
  // Default: true. yarn.nodemanager.pmem-check-enabled
  bool pmem_check_enabled = true;
  // Quoted in the memory diagnostic only (there is no virtual memory check).
  // Default: 2.1. yarn.nodemanager.vmem-pmem-ratio
  double vmem_pmem_ratio = 2.1;
  // Runs the launch script and the launch command (Hadoop hard-codes /bin/bash).
  // Default: "/bin/bash".
  std::string shell = "/bin/bash";
  // Containers localised and started at the same time.
  // Default: 4. yarn.nodemanager.localizer.fetch.thread-count
  int launcher_threads = 4;
  // How much of the end of the container's stderr files a failure's
  // diagnostics quote. Default: 4096. yarn.nodemanager.container.stderr.tail.bytes
  int64_t stderr_tail_bytes = 4096;
};

// Checks the options (InvalidArgument naming the bad one), creates the root
// dirs and starts the runtime's threads. Both listener callbacks are required.
Result<std::unique_ptr<ContainerRuntime>> NewProcessRuntime(ProcessRuntimeOptions options,
                                                            ContainerListener listener);

}  // namespace spindle::nm
