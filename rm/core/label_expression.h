// The node-label rules of one resource request (Hadoop 3.3
// SchedulerUtils.normalizeAndValidateRequest): which partition it asks for,
// and whether its queue and the cluster allow it. Errors are
// org.apache.hadoop.yarn.exceptions.InvalidLabelResourceRequestException
// with Hadoop's texts.
//
// Thread-safety: pure functions (NodeLabels is thread-safe).
#pragma once

#include <optional>
#include <string>

#include "base/result.h"
#include "rm/nodes/node_labels.h"
#include "rm/queues/queue_config.h"

namespace spindle::rm {

struct LabelRequest {
  // "*" (ResourceRequest.ANY), a rack or a host.
  std::string resource_name = "*";
  // The request's node label expression; unset: none given.
  std::optional<std::string> expression;
};

// The partition the request is placed in ("" the default one): its
// expression, else for an ANY request its queue's
// default-node-label-expression, trimmed; after the checks, in order:
// labels disabled and an expression given ("Invalid resource request, node
// label not enabled but request contains label expression"); an expression
// on a non-ANY request; "&&" (one label per request); a label the queue may
// not use (accessible-node-labels, "*" any); a label the cluster lacks.
Result<std::string> ResolveRequestLabel(const LabelRequest& request, const CsQueue& queue,
                                        const NodeLabels& labels);

// validateResourceRequest's first check alone (labels disabled and an
// expression given), which Hadoop makes before the capability checks.
Status CheckLabelsEnabled(const LabelRequest& request, const NodeLabels& labels);

// The partition of a request taken back from the store
// (normalizeAndValidateRequest with isRecovery: the queue's default applies
// to an ANY request without an expression, and nothing is checked, so a
// recovered application is never refused for its labels). `queue` may be
// null (no default).
std::string RecoveredRequestLabel(const LabelRequest& request, const CsQueue* queue);

}  // namespace spindle::rm
