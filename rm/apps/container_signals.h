// ContainerSignals: signals a client asked for (signalToContainer) that wait
// for the next heartbeat of the container's node, as Hadoop's RMNodeImpl
// keeps containersToSignal and hands them all to the next
// NodeHeartbeatResponse (Hadoop 2.8+).
//
// Thread contract: thread-safe (one mutex, never held while calling out).
#pragma once

#include <map>
#include <vector>

#include "base/mutex.h"
#include "rm/records/yarn_ids.h"

namespace spindle::rm {

// SignalContainerCommand (SignalContainerCommandProto numbers).
enum class SignalCommand : uint8_t {
  kOutputThreadDump = 1,
  kGracefulShutdown = 2,
  kForcefulShutdown = 3,
};

struct ContainerSignal {
  ContainerId container;
  SignalCommand command = SignalCommand::kOutputThreadDump;
};

class ContainerSignals {
 public:
  // For the next heartbeat of `node`.
  void Queue(const NodeId& node, const ContainerSignal& signal);
  // What waits for `node`, oldest first; the queue of `node` is then empty.
  std::vector<ContainerSignal> Take(const NodeId& node);
  // The node left: what waited for it is dropped (its containers are gone).
  void Forget(const NodeId& node);

 private:
  Mutex mu_;
  std::map<NodeId, std::vector<ContainerSignal>> pending_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
