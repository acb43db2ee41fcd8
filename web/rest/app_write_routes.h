// The write side of /ws/v1/cluster, done as Hadoop's RMWebServices does it:
// through the RM's ClientRMService on behalf of the web caller, so that the
// checks (queue, ACLs, limits) and the state changes are those of the RPC
// path exactly (WIRE.md 8).
//
//   POST /ws/v1/cluster/apps/new-application
//       200 {"application-id": ..., "maximum-resource-capability":
//       {"memory", "vCores"}} (root unwrapped in JSON, <NewApplication> in
//       XML).
//   POST /ws/v1/cluster/apps   (body: application-submission-context, JSON
//       or XML; submission_json.h)
//       202 Accepted, empty, Location: <request URL>/<application id>; a
//       bad body is 400 BadRequestException; a YarnException from the
//       submission (unknown queue, ACL, ...) is 400 BadRequestException with
//       its message, as RMWebServices rethrows it; another content type is
//       415.
//   PUT  /ws/v1/cluster/apps/{appid}/state   (body: {"state": "KILLED",
//       "diagnostics": ...}, JSON or <appstate> XML)
//       the app's RMAppState already: 200 {"state": ...}; "KILLED": kill
//       through forceKillApplication — 200 {"state"} when the kill is
//       complete, else 202 with Location: the request URL (poll GET
//       .../state); a caller without MODIFY_APP: 403 "Unauthorized attempt to
//       kill appid <id> by remote user <user>" (text); any other target: 400
//       "Only 'KILLED' is allowed as a target state."; unknown app 404
//       NotFoundException.
//   POST /ws/v1/cluster/containers/{containerid}/signal/{command}
//       signalToContainer (OUTPUT_THREAD_DUMP, GRACEFUL_SHUTDOWN,
//       FORCEFUL_SHUTDOWN, any case): 200 empty; an unknown command 400
//       "Invalid command: ..."; the client service's refusal (absent
//       container, access, bad id) 500 with its message, as Hadoop 3.3.
//
// The caller is web_caller.h's. Thread-safety: handlers run concurrently;
// every dependency is thread-safe.
#pragma once

#include <string>

#include "am_protocol/client_service/client_rm_service.h"
#include "rm/core/client_facade.h"
#include "web/http/router.h"
#include "web/rest/web_caller.h"

namespace spindle::web::rest {

struct AppWriteDeps {
  // Required: the RM's ApplicationClientProtocol service and the core it
  // calls.
  client_service::ClientRmService* client = nullptr;
  rm::ClientFacade* core = nullptr;
  WebCallerOptions callers;
};

void AddAppWriteRoutes(Router* router, const AppWriteDeps& deps);

}  // namespace spindle::web::rest
