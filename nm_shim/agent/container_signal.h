// The signals the RM forwards from signalToContainer (NodeHeartbeatResponse
// containers_to_signal, Hadoop 2.8+), as the Java NodeManager turns them into
// POSIX signals (ContainerLaunch.translateCommandToSignal, Hadoop 3.3) and
// sends them to the container's process group, as DefaultContainerExecutor
// signals a setsid-started container:
//   OUTPUT_THREAD_DUMP -> SIGQUIT (a JVM prints its thread dump to stdout)
//   GRACEFUL_SHUTDOWN  -> SIGTERM
//   FORCEFUL_SHUTDOWN  -> SIGKILL
// The container is not marked killed: whatever the signal causes comes back
// as the process's own exit, as in Java.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <vector>

#include "rm/records/yarn_ids.h"
#include "yarn_server_common_service_protos.pb.h"

namespace spindle::nm {

struct SignalRequest {
  rm::ContainerId container;
  int signal_number = 0;
};

// The POSIX signal for `command`; nullopt for a value this NM does not know.
std::optional<int> SignalNumberFor(hadoop::yarn::SignalContainerCommandProto command);

// The heartbeat response's containers_to_signal, decoded.
std::vector<SignalRequest> SignalsToDeliver(const hadoop::yarn::NodeHeartbeatResponseProto& r);

}  // namespace spindle::nm
