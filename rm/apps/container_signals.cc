#include "rm/apps/container_signals.h"

namespace spindle::rm {

void ContainerSignals::Queue(const NodeId& node, const ContainerSignal& signal) {
  MutexLock lock(&mu_);
  pending_[node].push_back(signal);
}

std::vector<ContainerSignal> ContainerSignals::Take(const NodeId& node) {
  MutexLock lock(&mu_);
  auto it = pending_.find(node);
  if (it == pending_.end()) return {};
  std::vector<ContainerSignal> out = std::move(it->second);
  pending_.erase(it);
  return out;
}

void ContainerSignals::Forget(const NodeId& node) {
  MutexLock lock(&mu_);
  pending_.erase(node);
}

}  // namespace spindle::rm
