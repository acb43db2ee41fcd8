#include "am_protocol/client_service/submission_translator.h"

#include <algorithm>

#include "am_protocol/client_service/record_protos.h"
#include "rm/core/submission_queue.h"
#include "rm/recovery/submission_labels.h"
#include "rm/yarn_exceptions.h"

namespace spindle::client_service {

namespace y = hadoop::yarn;

namespace {

// YarnConfiguration.APPLICATION_TYPE_LENGTH.
constexpr size_t kApplicationTypeLength = 20;

bool IsBlank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t'; });
}

Status InvalidResourceRequest(const std::string& message) {
  return Status::Remote(rm::yarn::kInvalidResourceRequest, message);
}

// The AM's ANY request: field 17's single "*" entry, else one built from
// field 9.
Result<const y::ResourceProto*> AmCapability(const y::ApplicationSubmissionContextProto& context) {
  if (context.am_container_resource_request_size() == 0) {
    if (!context.has_resource()) {
      return InvalidResourceRequest("Invalid resource request, no resources requested");
    }
    return &context.resource();
  }
  const y::ResourceRequestProto* any = nullptr;
  for (const auto& request : context.am_container_resource_request()) {
    if (request.resource_name() != "*") continue;
    if (any != nullptr) {
      return InvalidResourceRequest(
          "Invalid resource request, only one resource request with * is allowed");
    }
    any = &request;
  }
  if (any == nullptr) {
    return InvalidResourceRequest("Invalid resource request, no resource request specified with *");
  }
  if (!any->has_capability()) {
    return InvalidResourceRequest("Invalid resource request, the * request has no capability");
  }
  return &any->capability();
}

}  // namespace

Result<pool::Resource> ResourceFromProto(const y::ResourceProto& proto,
                                         const pool::ResourceTypes& types) {
  pool::Resource r = pool::Resource::Of(proto.memory(), proto.virtual_cores());
  for (const auto& entry : proto.resource_value_map()) {
    if (entry.key() == "memory-mb" || entry.key() == "memory" || entry.key() == "vcores") continue;
    auto index = types.IndexOf(entry.key());
    if (!index.ok()) {
      return InvalidResourceRequest("Invalid resource request, unknown resource type " +
                                    entry.key());
    }
    r.Set(*index, entry.value());
  }
  return r;
}

std::string ReportedAppNodeLabel(const AppExtras* extras) {
  if (extras == nullptr || !extras->app_node_label.has_value()) return kLabelNotSet;
  if (IsBlank(*extras->app_node_label)) return kDefaultPartition;
  return *extras->app_node_label;
}

AppExtras ExtrasOf(const y::ApplicationSubmissionContextProto& context) {
  AppExtras extras;
  extras.view_acl = rm::AccessControlList::AllowNone();
  extras.modify_acl = rm::AccessControlList::AllowNone();
  if (context.has_node_label_expression()) {
    extras.app_node_label = context.node_label_expression();
  }
  if (!context.unmanaged_am()) {
    std::string label;
    for (const auto& request : context.am_container_resource_request()) {
      if (request.resource_name() == "*" && request.has_node_label_expression()) {
        label = request.node_label_expression();
      }
    }
    if (label.empty() && extras.app_node_label.has_value()) label = *extras.app_node_label;
    extras.am_node_label = IsBlank(label) ? kDefaultPartition : label;
  }
  for (const auto& acl : context.am_container_spec().application_acls()) {
    if (acl.accesstype() == y::APPACCESS_VIEW_APP) {
      extras.view_acl = rm::AccessControlList::Parse(acl.acl());
    } else if (acl.accesstype() == y::APPACCESS_MODIFY_APP) {
      extras.modify_acl = rm::AccessControlList::Parse(acl.acl());
    }
  }
  return extras;
}

Result<TranslatedSubmission> TranslateSubmission(
    const y::ApplicationSubmissionContextProto& context, const std::string& user,
    const std::vector<std::string>& groups, const rm::QueueTree& queues,
    const SubmissionPolicy& policy) {
  if (!context.has_application_id()) {
    return Status::Remote(rm::yarn::kYarnException,
                          "Invalid submission: the application submission context has no "
                          "application id");
  }
  TranslatedSubmission out;
  rm::Submission& s = out.submission;
  s.id = FromProto(context.application_id());
  s.user = user;
  s.name = context.application_name();
  s.queue = context.queue();
  if (Status resolved = rm::ResolveSubmissionQueue(queues, groups, policy.acl, &s);
      !resolved.ok()) {
    return resolved;
  }
  s.type = context.applicationtype();
  if (s.type.size() > kApplicationTypeLength) s.type.resize(kApplicationTypeLength);
  for (const auto& tag : context.applicationtags()) {
    if (std::find(s.tags.begin(), s.tags.end(), tag) == s.tags.end()) s.tags.push_back(tag);
  }
  s.priority = std::min(context.priority().priority(), policy.max_application_priority);
  s.max_attempts = context.maxappattempts();
  s.unmanaged_am = context.unmanaged_am();
  s.keep_containers_across_attempts = context.keep_containers_across_application_attempts();
  s.attempt_failures_validity_interval_ms = context.attempt_failures_validity_interval();
  // RMServerUtils.validateApplicationTimeouts (Hadoop 3.3): every timeout
  // must be positive; the last entry of a type wins, as in its map.
  for (const auto& timeout : context.application_timeouts()) {
    if (timeout.timeout() <= 0) {
      return Status::Remote(rm::yarn::kYarnException, "Invalid application timeout, value=" +
                                                          std::to_string(timeout.timeout()) +
                                                          " for type=LIFETIME");
    }
    if (timeout.application_timeout_type() == y::APP_TIMEOUT_LIFETIME) {
      s.lifetime_seconds = timeout.timeout();
    }
  }
  // RMAppNewlySavingTransition: the queue's default and maximum apply.
  if (const rm::CsQueue* leaf = queues.FindLeaf(context.queue()); leaf != nullptr) {
    s.lifetime_seconds =
        std::max<int64_t>(rm::CheckAndGetApplicationLifetime(*leaf, s.lifetime_seconds), 0);
  }
  if (!s.unmanaged_am) {
    ASSIGN_OR_RETURN(const y::ResourceProto* capability, AmCapability(context));
    ASSIGN_OR_RETURN(s.am_resource, ResourceFromProto(*capability, policy.resource_types));
  }
  rm::ReadLabelExpressions(context, &s);
  s.context_bytes = context.SerializeAsString();
  out.extras = ExtrasOf(context);
  return out;
}

}  // namespace spindle::client_service
