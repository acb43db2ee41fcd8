// /ws/v1/cluster/scheduler-conf, as Hadoop 3.3's RMWebServices answers it
// when the scheduler's configuration is not mutable: Spindle reads
// capacity-scheduler.xml from files and refreshes it with `yarn rmadmin
// -refreshQueues`, like a CapacityScheduler whose
// yarn.scheduler.configuration.store.class is "file" (the default), whose
// isConfigurationMutable() is false. What `yarn schedulerconf` meets:
//
//   PUT  /ws/v1/cluster/scheduler-conf          400 "Configuration change
//        only supported by MutableConfScheduler."
//   GET  /ws/v1/cluster/scheduler-conf          400 "This API only supports
//        to retrieve scheduler configuration from a mutable-conf scheduler,
//        underneath scheduler CapacityScheduler is not an instance of
//        MutableConfScheduler"
//   GET  /ws/v1/cluster/scheduler-conf/version  400 "Configuration Version
//        only supported by MutableConfScheduler."
//   GET  /ws/v1/cluster/scheduler-conf/format   400 "Scheduler Configuration
//        format only supported by MutableConfScheduler."
//   POST /ws/v1/cluster/scheduler-conf/validate 400 "Configuration change
//        validation only supported by MutableConfScheduler."
//
// The text is the whole body, with the negotiated JSON or XML content type,
// as Jersey writes a String entity. Before that, every one of them checks
// the caller as initForWritableEndpoints(caller, doAdminACLsCheck=true)
// does: with yarn.acl.enable, a caller who is not an admin (yarn.admin.acl)
// gets 403 ForbiddenException "Only admins can carry out this operation.".
// (Without Kerberos the caller is always known: web_caller.h.)
//
// Thread-safety: handlers run concurrently; the deps are thread-safe.
#pragma once

#include <functional>
#include <string>

#include "am_protocol/client_service/client_rm_service.h"
#include "web/http/router.h"
#include "web/rest/web_caller.h"

namespace spindle::web::rest {

struct SchedulerConfDeps {
  // Required: yarn.acl.enable and yarn.admin.acl come from its options.
  const client_service::ClientRmService* client = nullptr;
  WebCallerOptions callers;
  // Optional: whether a user is an admin (the RM's refreshable
  // yarn.admin.acl); without it the client's admin ACL decides.
  std::function<bool(const std::string& user)> is_admin;
};

void AddSchedulerConfRoutes(Router* router, const SchedulerConfDeps& deps);

}  // namespace spindle::web::rest
