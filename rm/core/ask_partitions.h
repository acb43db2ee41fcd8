// AskPartitions: the node-label partition of each row of one allocate call,
// with Hadoop's checks (3.3 DefaultAMSProcessor.allocate, then
// RMServerUtils.normalizeAndValidateRequests ->
// SchedulerUtils.normalizeAndValidateRequest; 2.7.7
// ApplicationMasterService.allocate is the same):
//  - an ANY row sent without an expression takes the application's (its
//    submission context's nodeLabelExpression), and if that is unset too,
//    its queue's default-node-label-expression
//    (normalizeNodeLabelExpressionInRequest);
//  - then, row by row, label_expression.h's checks: labels disabled, an
//    expression on a host or rack row, "&&", a label the queue may not use,
//    a label the cluster lacks (InvalidLabelResourceRequestException with
//    Hadoop's texts).
// The ANY row's partition is then the partition of its whole key (the
// caller hands partitions() to rm::AskTable::Update).
// Not modelled: 2.6.0's rules (the context's expression copied onto every
// row, host rows with labels accepted); every line gets 2.7/3.3's.
//
// Thread-safety: one object per call, used by one thread.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "rm/core/label_expression.h"
#include "rm/nodes/node_labels.h"
#include "rm/queues/queue_manager.h"
#include "rm/scheduling/ask_table.h"
#include "scheduler_pool/scheduler_pool.h"

namespace spindle::rm {

class AskPartitions {
 public:
  // For an application of `queue` (a leaf's name, as Submission::queue)
  // whose context named `app_expression`. A queue the tree no longer has
  // (removed by a refresh) gives no default and no checks: expressions are
  // taken as sent, as Hadoop does without the queue's QueueInfo.
  AskPartitions(const QueueManager& queues, const std::string& queue,
                std::optional<std::string> app_expression, const NodeLabels& labels,
                pool::SchedulerPool& pool);

  // The check Hadoop makes on a row before its capability checks.
  Status CheckEnabled(const ResourceRequest& request) const;
  // Resolves the next row of the call (rows are added in call order);
  // errors as ResolveRequestLabel.
  Status Add(const ResourceRequest& request);
  // One pool label per row added (the default partition for host and rack
  // rows).
  std::span<const pool::LabelId> partitions() const { return partitions_; }

 private:
  LabelRequest RequestOf(const ResourceRequest& request) const;

  const std::shared_ptr<const QueueTree> tree_;
  const CsQueue* const queue_;  // in tree_; null if gone
  const std::optional<std::string> app_expression_;
  const NodeLabels& labels_;
  pool::SchedulerPool& pool_;
  std::vector<pool::LabelId> partitions_;
};

}  // namespace spindle::rm
