// QueueManager: the RM's current queue tree, swapped whole on refreshQueues.
// Readers take a snapshot (Current()) and keep using it for the whole call,
// however many refreshes happen meanwhile.
//
// Thread contract: all methods are thread-safe.
#pragma once

#include <functional>
#include <memory>

#include "base/mutex.h"
#include "base/result.h"
#include "rm/config/configuration.h"
#include "rm/queues/queue_tree.h"

namespace spindle::rm {

class QueueManager {
 public:
  explicit QueueManager(QueueTree tree)
      : current_(std::make_shared<const QueueTree>(std::move(tree))) {}
  // Parses `conf` (capacity-scheduler.xml).
  static Result<std::unique_ptr<QueueManager>> Create(const Configuration& conf);

  std::shared_ptr<const QueueTree> Current() const {
    MutexLock lock(&mu_);
    return current_;
  }

  // refreshQueues: parses `conf`, checks the reload rules against the current
  // tree (QueueTree::Reload) and, only if both pass, makes the new tree
  // current and returns it. On error the current tree is unchanged. Callers
  // then push the new tree's ToQueueSpecs() to the scheduler pool.
  // `accept`, if given, may refuse the new tree for what only the running
  // RM knows (3.3: a DRAINING queue may not be set RUNNING); its error is
  // returned as is.
  Result<std::shared_ptr<const QueueTree>> Reload(
      const Configuration& conf,
      const std::function<Status(const QueueTree& next)>& accept = nullptr);

 private:
  mutable Mutex mu_;
  // Serialises reloads, so two concurrent refreshes are each checked against
  // the tree the other one left.
  Mutex reload_mu_;
  std::shared_ptr<const QueueTree> current_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
