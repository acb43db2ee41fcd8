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
#include "rm/config/hadoop_line.h"
#include "rm/queues/queue_tree.h"

namespace spindle::rm {

// Where and whether the queue's submit ACL is checked, which differs by line.
struct SubmissionAclRule {
  // spindle.compat.hadoop-version.
  HadoopLine line = kDefaultHadoopLine;
  // yarn.acl.enable. Default: false.
  bool acl_enabled = false;
};

// When `submission->queue` names a leaf of `tree` (by leaf name or full
// path), the queue becomes the leaf's pool queue and the submission carries
// the leaf's application limits. The submit ACL (SUBMIT_APPLICATIONS or
// ADMINISTER_QUEUE, here or on an ancestor) is checked as the line does:
//  - 3.3 (RMAppManager.createAndPopulateNewRMApp): only with yarn.acl.enable,
//    refused at once with org.apache.hadoop.security.AccessControlException
//    "User U does not have permission to submit APPID to queue Q" (Q as the
//    client wrote it); its LeafQueue checks no ACL;
//  - 2.6/2.7 (LeafQueue.submitApplication, whatever yarn.acl.enable says):
//    accepted, then rejected by the scheduler: `submission->rejection` says
//    "User U cannot submit applications to queue PATH" and the application
//    ends FAILED with the exception's toString as diagnostics.
// A STOPPED (or DRAINING) leaf is never refused here: on every line the
// scheduler rejects the application (ApplicationManager, "Queue PATH is
// STOPPED. Cannot accept submission of application: APPID"). An unknown or
// non-leaf queue is left as written, so that the application ends FAILED
// with the ApplicationManager's diagnostics (as Hadoop's CapacityScheduler
// rejects it).
Status ResolveSubmissionQueue(const QueueTree& tree, const std::vector<std::string>& groups,
                              const SubmissionAclRule& rule, Submission* submission);

}  // namespace spindle::rm
