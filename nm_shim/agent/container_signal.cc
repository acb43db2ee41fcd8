#include "nm_shim/agent/container_signal.h"

#include <glog/logging.h>

#include <csignal>

#include "rm/security/yarn_id_protos.h"

namespace spindle::nm {

namespace y = hadoop::yarn;

std::optional<int> SignalNumberFor(y::SignalContainerCommandProto command) {
  switch (command) {
    case y::OUTPUT_THREAD_DUMP:
      return SIGQUIT;
    case y::GRACEFUL_SHUTDOWN:
      return SIGTERM;
    case y::FORCEFUL_SHUTDOWN:
      return SIGKILL;
  }
  return std::nullopt;
}

std::vector<SignalRequest> SignalsToDeliver(const y::NodeHeartbeatResponseProto& r) {
  std::vector<SignalRequest> out;
  for (const auto& request : r.containers_to_signal()) {
    const std::optional<int> signal = SignalNumberFor(request.command());
    if (!signal.has_value()) {
      LOG(INFO) << "ignore signal command " << static_cast<int>(request.command());
      continue;
    }
    out.push_back({rm::FromProto(request.container_id()), *signal});
  }
  return out;
}

}  // namespace spindle::nm
