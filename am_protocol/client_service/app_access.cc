#include "am_protocol/client_service/app_access.h"

namespace spindle::client_service {

bool ApplicationAccess::Check(const Caller& caller, AppAccessType type, const rm::RmApp& app,
                              const AppExtras& extras, const rm::QueueTree& queues) const {
  if (!options_.acl_enabled) return true;
  if (options_.admin_acl.IsUserAllowed(caller.user, caller.groups)) return true;
  if (caller.user == app.submission.user) return true;
  const rm::AccessControlList& acl =
      type == AppAccessType::kView ? extras.view_acl : extras.modify_acl;
  if (acl.IsUserAllowed(caller.user, caller.groups)) return true;
  const rm::CsQueue* queue = queues.FindLeaf(app.submission.queue);
  if (queue == nullptr) return true;
  return queues.HasAccess(*queue, rm::QueueAcl::kAdministerQueue, caller.user, caller.groups);
}

}  // namespace spindle::client_service
