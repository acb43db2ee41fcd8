#include "rm/recovery/submission_labels.h"

namespace spindle::rm {

void ReadLabelExpressions(const hadoop::yarn::ApplicationSubmissionContextProto& context,
                          Submission* submission) {
  submission->app_label_expression.reset();
  submission->am_label_expression.reset();
  if (context.has_node_label_expression()) {
    submission->app_label_expression = context.node_label_expression();
  }
  if (context.unmanaged_am()) return;
  // RMAppManager.validateAndCreateResourceRequest: the AM's ANY request
  // takes the context's expression when it names none.
  for (const auto& request : context.am_container_resource_request()) {
    if (request.resource_name() == "*" && request.has_node_label_expression()) {
      submission->am_label_expression = request.node_label_expression();
    }
  }
  if (!submission->am_label_expression.has_value()) {
    submission->am_label_expression = submission->app_label_expression;
  }
}

}  // namespace spindle::rm
