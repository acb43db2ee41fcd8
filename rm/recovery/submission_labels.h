// The node label expressions of a submission context, read the same way when
// an application is submitted and when a stored one is recovered: the store
// keeps the context bytes (ApplicationStateDataProto field 3), and Hadoop
// derives the AM request's expression from them again on recovery
// (3.3 RMAppManager.recoverApplication -> validateAndCreateResourceRequest),
// so a recovered AM ask keeps its partition without a field of its own.
//
// Pure function; thread-safe.
#pragma once

#include "rm/apps/rm_app.h"
#include "yarn_protos.pb.h"

namespace spindle::rm {

// Sets submission->am_label_expression (the AM's ANY request's expression,
// else the context's: validateAndCreateResourceRequest) and
// app_label_expression (the context's). Unmanaged AMs have no AM request:
// only app_label_expression is set.
void ReadLabelExpressions(const hadoop::yarn::ApplicationSubmissionContextProto& context,
                          Submission* submission);

}  // namespace spindle::rm
