#include "rm/queues/queue_manager.h"

#include <glog/logging.h>

namespace spindle::rm {

Result<std::unique_ptr<QueueManager>> QueueManager::Create(const Configuration& conf) {
  ASSIGN_OR_RETURN(QueueTree tree, QueueTree::Parse(conf));
  return std::make_unique<QueueManager>(std::move(tree));
}

Result<std::shared_ptr<const QueueTree>> QueueManager::Reload(
    const Configuration& conf, const std::function<Status(const QueueTree& next)>& accept) {
  MutexLock reload(&reload_mu_);
  std::shared_ptr<const QueueTree> current = Current();
  auto next = QueueTree::Reload(*current, conf);
  if (!next.ok()) {
    LOG(WARNING) << "refreshQueues refused: " << next.status().message();
    return next.status();
  }
  if (accept) {
    if (Status accepted = accept(*next); !accepted.ok()) {
      LOG(WARNING) << "refreshQueues refused: " << accepted.message();
      return accepted;
    }
  }
  auto shared = std::make_shared<const QueueTree>(std::move(next).value());
  {
    MutexLock lock(&mu_);
    current_ = shared;
  }
  LOG(INFO) << "queues refreshed: " << shared->queues().size() << " queues, "
            << shared->Leaves().size() << " leaves";
  return shared;
}

}  // namespace spindle::rm
