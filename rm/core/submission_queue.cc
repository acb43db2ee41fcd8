#include "rm/core/submission_queue.h"

#include "rm/yarn_exceptions.h"

namespace spindle::rm {

Status ResolveSubmissionQueue(const QueueTree& tree, const std::vector<std::string>& groups,
                              const SubmissionAclRule& rule, Submission* submission) {
  const CsQueue* leaf = tree.FindLeaf(submission->queue);
  if (leaf == nullptr) return Status::OK();
  if (!tree.CanSubmit(*leaf, submission->user, groups)) {
    if (rule.line == HadoopLine::k3_3) {
      if (rule.acl_enabled) {
        return Status::Remote(yarn::kAccessControl,
                              "User " + submission->user + " does not have permission to submit " +
                                  submission->id.ToString() + " to queue " + submission->queue);
      }
    } else {
      submission->rejection = std::string(yarn::kAccessControl) + ": User " + submission->user +
                              " cannot submit applications to queue " + leaf->path;
    }
  }
  submission->queue = QueueTree::PoolQueueName(*leaf);
  submission->queue_limits =
      QueueLimits{leaf->path, leaf->maximum_applications, leaf->maximum_applications_per_user};
  return Status::OK();
}

}  // namespace spindle::rm
