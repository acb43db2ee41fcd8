#include "rm/core/submission_queue.h"

#include "rm/yarn_exceptions.h"

namespace spindle::rm {

Status ResolveSubmissionQueue(const QueueTree& tree, const std::vector<std::string>& groups,
                              Submission* submission) {
  const CsQueue* leaf = tree.FindLeaf(submission->queue);
  if (leaf == nullptr) return Status::OK();
  if (leaf->state != QueueState::kRunning) {
    return Status::Remote(
        yarn::kAccessControl,
        "Queue " + leaf->path +
            " is STOPPED. Cannot accept submission of application: " + submission->id.ToString());
  }
  if (!tree.CanSubmit(*leaf, submission->user, groups)) {
    return Status::Remote(
        yarn::kAccessControl,
        "User " + submission->user + " cannot submit applications to queue " + leaf->path);
  }
  submission->queue = QueueTree::PoolQueueName(*leaf);
  submission->queue_limits =
      QueueLimits{leaf->path, leaf->maximum_applications, leaf->maximum_applications_per_user};
  return Status::OK();
}

}  // namespace spindle::rm
