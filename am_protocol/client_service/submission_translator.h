// TranslateSubmission: an ApplicationSubmissionContextProto as a client sent
// it, checked and broken into what the RM core acts on (rm::Submission), with
// the defaults and validations of Hadoop's ClientRMService / RMAppManager
// (WIRE.md 5.2):
//   - queue default "default", resolved by short leaf name or full path to the
//     leaf's scheduler-pool name; an unknown or non-leaf queue is passed on as
//     written so that the ApplicationManager rejects the app (it ends FAILED
//     with a diagnostic, as in Hadoop);
//   - a STOPPED leaf or a user without SUBMIT_APPLICATIONS/ADMINISTER_QUEUE on
//     it (or an ancestor): AccessControlException;
//   - application type default "YARN", cut to 20 characters; name default
//     "N/A"; tags deduplicated in order;
//   - priority capped at the cluster's maximum application priority;
//   - AM resource (managed AMs): the single "*" entry of
//     am_container_resource_request (field 17) if any entry is given, else
//     `resource` (field 9); neither, no "*" entry, or two of them:
//     InvalidResourceRequestException;
//   - the context's serialized bytes are kept for the AM launch.
// Pure over its inputs; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "rm/apps/rm_app.h"
#include "rm/core/submission_queue.h"
#include "rm/queues/access_control_list.h"
#include "rm/queues/queue_tree.h"
#include "scheduler_pool/resources.h"
#include "yarn_protos.pb.h"

namespace spindle::client_service {

// The name Hadoop reports for the default node partition
// (NodeLabel.DEFAULT_NODE_LABEL_PARTITION).
inline constexpr char kDefaultPartition[] = "<DEFAULT_PARTITION>";
// What Hadoop reports for a label that was never set
// (NodeLabel.NODE_LABEL_EXPRESSION_NOT_SET).
inline constexpr char kLabelNotSet[] = "<Not set>";

// What reports and access checks need from the submission context beyond
// rm::Submission (kept by the service per application).
struct AppExtras;

// The application's label as the RPC report carries it, as Hadoop 3.3's
// RMAppImpl.getAppNodeLabelExpression derives it from the context's:
// "<Not set>" when unset, the default partition when blank, else as given.
// `extras` may be null (nothing known: unset).
std::string ReportedAppNodeLabel(const AppExtras* extras);

struct AppExtras {
  // node_label_expression of the context, if set.
  std::optional<std::string> app_node_label;
  // Managed AMs: the AM request's label, "<DEFAULT_PARTITION>" when none
  // (as Hadoop reports it); unset for unmanaged AMs.
  std::optional<std::string> am_node_label;
  // am_container_spec.application_ACLs; Hadoop's default is " " (nobody but
  // the owner and admins).
  rm::AccessControlList view_acl;
  rm::AccessControlList modify_acl;
};

AppExtras ExtrasOf(const hadoop::yarn::ApplicationSubmissionContextProto& context);

struct SubmissionPolicy {
  // yarn.cluster.max-application-priority. Default: 0.
  int32_t max_application_priority = 0;
  // Names of the resource dimensions (for resource_value_map entries).
  pool::ResourceTypes resource_types;
  // The Hadoop line (spindle.compat.hadoop-version) and yarn.acl.enable: how
  // the queue's submit ACL is checked (rm/core/submission_queue.h).
  // ClientRmService takes acl_enabled from its access options.
  rm::SubmissionAclRule acl;
};

struct TranslatedSubmission {
  rm::Submission submission;
  AppExtras extras;
};

// `user` is the caller (the application's owner); `groups` its groups.
Result<TranslatedSubmission> TranslateSubmission(
    const hadoop::yarn::ApplicationSubmissionContextProto& context, const std::string& user,
    const std::vector<std::string>& groups, const rm::QueueTree& queues,
    const SubmissionPolicy& policy);

// A leaf queue's application limits, as the ApplicationManager applies them
// at submission and on moves.
rm::QueueLimits LimitsOf(const rm::CsQueue& leaf);

// A ResourceProto as a pool resource. InvalidResourceRequestException for a
// resource_value_map entry naming an unknown type.
Result<pool::Resource> ResourceFromProto(const hadoop::yarn::ResourceProto& proto,
                                         const pool::ResourceTypes& types);

}  // namespace spindle::client_service
