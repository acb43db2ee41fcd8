// The queue checks every submission passes before the application manager
// sees it, whoever submits (the client wire's submitApplication, REST, the
// wind tunnel): one place, so that they never disagree.
//
// Thread-safety: a free function over values.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "rm/apps/rm_app.h"
#include "rm/queues/queue_tree.h"

namespace spindle::rm {

// When `submission->queue` names a leaf of `tree` (by leaf name or full
// path): a STOPPED leaf, or a user (in `groups`) without submit rights on
// it, is refused with org.apache.hadoop.security.AccessControlException
// and the text the wire has always answered; otherwise the queue becomes the
// leaf's pool queue and the submission carries the leaf's application
// limits. An unknown or non-leaf queue is left as written, so that the
// application ends FAILED with the ApplicationManager's diagnostics (as
// Hadoop's RMAppManager rejects it).
Status ResolveSubmissionQueue(const QueueTree& tree, const std::vector<std::string>& groups,
                              Submission* submission);

}  // namespace spindle::rm
