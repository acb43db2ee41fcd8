#include "rm/core/ask_partitions.h"

#include <utility>

namespace spindle::rm {

AskPartitions::AskPartitions(const QueueManager& queues, const std::string& queue,
                             std::optional<std::string> app_expression, const NodeLabels& labels,
                             pool::SchedulerPool& pool)
    : tree_(queues.Current()),
      queue_(tree_->FindLeaf(queue)),
      app_expression_(std::move(app_expression)),
      labels_(labels),
      pool_(pool) {}

LabelRequest AskPartitions::RequestOf(const ResourceRequest& request) const {
  LabelRequest out{request.resource_name, request.node_label_expression};
  // DefaultAMSProcessor.allocate: "set label expression for Resource
  // Requests if resourceName=ANY".
  if (!out.expression.has_value() && request.resource_name == kAnyResourceName) {
    out.expression = app_expression_;
  }
  return out;
}

Status AskPartitions::CheckEnabled(const ResourceRequest& request) const {
  return CheckLabelsEnabled(RequestOf(request), labels_);
}

Status AskPartitions::Add(const ResourceRequest& request) {
  const LabelRequest label_request = RequestOf(request);
  std::string partition;
  if (queue_ == nullptr) {
    partition = RecoveredRequestLabel(label_request, nullptr);
  } else {
    ASSIGN_OR_RETURN(partition, ResolveRequestLabel(label_request, *queue_, labels_));
  }
  // Only an ANY row's partition is used; host and rack rows follow it.
  const bool any = request.resource_name == kAnyResourceName;
  partitions_.push_back(any && !partition.empty() ? pool_.InternLabel(partition)
                                                  : pool::kDefaultLabel);
  return Status::OK();
}

}  // namespace spindle::rm
