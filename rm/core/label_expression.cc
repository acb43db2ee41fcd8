#include "rm/core/label_expression.h"

#include <algorithm>

#include "rm/yarn_exceptions.h"

namespace spindle::rm {

namespace {

Status InvalidLabel(const std::string& message) {
  return Status::Remote(yarn::kInvalidLabelResourceRequest, message);
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ",") + name;
  return out;
}

}  // namespace

Status CheckLabelsEnabled(const LabelRequest& request, const NodeLabels& labels) {
  // normalizeAndValidateRequest's first check (labels off).
  if (!labels.enabled() && request.expression.has_value() && !request.expression->empty()) {
    return InvalidLabel(
        "Invalid resource request, node label not enabled but request contains label "
        "expression");
  }
  return Status::OK();
}

std::string RecoveredRequestLabel(const LabelRequest& request, const CsQueue* queue) {
  if (request.expression.has_value()) return TrimLabel(*request.expression);
  if (queue != nullptr && request.resource_name == "*") {
    return TrimLabel(queue->default_node_label_expression);
  }
  return kNoLabel;
}

Result<std::string> ResolveRequestLabel(const LabelRequest& request, const CsQueue& queue,
                                        const NodeLabels& labels) {
  const bool any = request.resource_name == "*";
  RETURN_NOT_OK(CheckLabelsEnabled(request, labels));
  // normalizeNodeLabelExpressionInRequest.
  std::string expression;
  if (request.expression.has_value()) {
    expression = *request.expression;
  } else if (any) {
    expression = queue.default_node_label_expression;
  }
  const bool blank = TrimLabel(expression).empty();
  if (!any && !blank) {
    return InvalidLabel("Invalid resource request, queue=" + queue.name +
                        " specified node label expression in a resource request has resource "
                        "name = " +
                        request.resource_name);
  }
  if (expression.find("&&") != std::string::npos) {
    return InvalidLabel("Invalid resource request, queue=" + queue.name +
                        " specified more than one node label in a node label expression, node "
                        "label expression = " +
                        expression);
  }
  if (blank) return std::string(kNoLabel);
  const std::string label = TrimLabel(expression);
  const auto& accessible = queue.accessible_node_labels;
  const bool may = std::find(accessible.begin(), accessible.end(), label) != accessible.end() ||
                   std::find(accessible.begin(), accessible.end(), kAnyLabel) != accessible.end();
  if (!may) {
    return InvalidLabel("Invalid resource request, queue=" + queue.name +
                        " doesn't have permission to access all labels in resource request. "
                        "labelExpression of resource request=" +
                        expression + ". Queue labels=" + Join(accessible));
  }
  // checkQueueLabelInLabelManager.
  if (!labels.Find(label).has_value()) {
    return InvalidLabel("Invalid label resource request, cluster do not contain , label= " +
                        expression);
  }
  return label;
}

}  // namespace spindle::rm
