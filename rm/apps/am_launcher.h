// AmLauncher: what the RM core needs from the wire to start and stop an AM
// container (WIRE.md 5.4). rm declares it; nm_shim/am_launcher implements it
// with startContainers/stopContainers on the node's ContainerManagementProtocol.
#pragma once

#include <functional>
#include <string>

#include "base/status.h"
#include "rm/records/yarn_ids.h"
#include "scheduler_pool/resources.h"

namespace spindle::rm {

struct AmLaunch {
  ApplicationAttemptId attempt;
  ContainerId container;
  NodeId node;
  std::string user;
  // The submitted ApplicationSubmissionContextProto bytes: the launcher takes
  // am_container_spec from it and adds what the RM adds (tokens, environment).
  std::string submission_context;
  int64_t submit_time_ms = 0;
  // The AM container's (normalised) resource, for its container token.
  pool::Resource resource;
  int32_t max_attempts = 1;
};

class AmLauncher {
 public:
  virtual ~AmLauncher() = default;
  // Starts the AM container; `done` runs exactly once, on any thread, with
  // OK or the reason the launch failed (which fails the attempt).
  virtual void Launch(const AmLaunch& launch, std::function<void(Status)> done) = 0;
  // Stops the AM container after its attempt ended; errors are only logged.
  virtual void Cleanup(const AmLaunch& launch) = 0;
};

}  // namespace spindle::rm
