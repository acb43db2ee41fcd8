// An application's timeouts over REST, as Hadoop 3.3's RMWebServices serves
// them (getAppTimeouts, getAppTimeout, updateApplicationTimeout):
//
//   GET /ws/v1/cluster/apps/{appid}/timeouts
//       200 {"timeouts":{"timeout":[{"type":"LIFETIME","expiryTime":...,
//       "remainingTimeInSeconds":...}]}}: the app's timeouts, or LIFETIME
//       with expiryTime "UNLIMITED" and -1 when none is set.
//   GET /ws/v1/cluster/apps/{appid}/timeouts/{type}
//       200 {"timeout":{...}} for that type (any case, trimmed); another
//       name is 400 BadRequestException "Invalid application-state <type>
//       specified. It should be one of [LIFETIME]".
//   PUT /ws/v1/cluster/apps/{appid}/timeout   (body: {"timeout":{"type":
//       "LIFETIME","expiryTime":"<ISO8601>"}}, or <timeout> XML)
//       through ClientRmService.UpdateApplicationTimeouts as the web caller;
//       200 with the app's timeout of that type afterwards. A missing type
//       (or a null expiryTime; an absent one is "UNLIMITED", AppTimeoutInfo's
//       default): 400 "Timeout type or ExpiryTime is null." (text); no
//       MODIFY_APP: 403 "Unauthorized attempt to change timeout of app <id>
//       by remote user <user>" (text); an expiry time that does not parse:
//       400 with the YarnException's message (the ParseException branch);
//       any other refusal (an expiry time in the past, an app in NEW): 500
//       UndeclaredThrowableException without a message, as Java's doAs
//       rethrows it.
//
// Every answer names the app first: a malformed id is 400, an unknown one 404
// (app_lookup.h). remainingTimeInSeconds is (expiry - now) / 1000, at least
// 0, whatever the app's state (constructAppTimeoutDao). Hadoop refuses the
// static user under Kerberos; Spindle's web side has SIMPLE only.
//
// Thread-safety: handlers run concurrently; every dependency is thread-safe.
#pragma once

#include "web/http/router.h"
#include "web/rest/app_write_routes.h"

namespace spindle::web::rest {

void AddAppTimeoutRoutes(Router* router, const AppWriteDeps& deps);

}  // namespace spindle::web::rest
