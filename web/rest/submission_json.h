// SubmissionContextFromJson: the body of POST /ws/v1/cluster/apps (Hadoop's
// ApplicationSubmissionContextInfo, JSON with its root unwrapped, WIRE.md 8)
// as the ApplicationSubmissionContextProto that ClientRMService's
// submitApplication takes, built as RMWebAppUtil.createAppSubmissionContext
// builds it:
//   - "application-id" must parse (BadRequest "Could not parse application
//     id <id>");
//   - fields left out take the DAO's defaults, not the protocol's: name "",
//     type "", priority unset, cancel-tokens-when-complete true,
//     max-app-attempts 0 (the RM's default), attempt-failures-validity-
//     interval -1, resource {0, 0} (normalised by the RM), node labels "";
//   - the AM ask is both `resource` and a single "*" AM resource request,
//     as ApplicationSubmissionContext.newInstance makes it;
//   - resource above yarn.scheduler.maximum-allocation-{vcores,mb}:
//     BadRequest "Requested more cores than configured max" / "... memory
//     ...";
//   - am-container-spec: local resources (URI -> URL as URL.fromURI),
//     environment, commands, service data (base64, empty values dropped),
//     credentials (tokens as Token.encodeToUrlString writes them, secrets in
//     base64) written as a Writable token storage, application ACLs
//     (VIEW_APP, MODIFY_APP).
// Jersey's natural JSON reads a one-element list as a bare value and
// scalars from strings, so both spellings are taken ("entry": {...} or
// [...]; "size": 10 or "10"). Unknown fields are ignored, as JAXB does.
// Every error is InvalidArgument with the message a BadRequestException
// carries.
//
// Pure; thread-safe.
#pragma once

#include <cstdint>

#include "base/json/json_value.h"
#include "base/result.h"
#include "yarn_protos.pb.h"

namespace spindle::web::rest {

struct SubmissionLimits {
  // yarn.scheduler.maximum-allocation-mb. Default: 8192.
  int64_t max_memory_mb = 8192;
  // yarn.scheduler.maximum-allocation-vcores. Default: 4.
  int64_t max_vcores = 4;
};

Result<hadoop::yarn::ApplicationSubmissionContextProto> SubmissionContextFromJson(
    const json::JsonValue& body, const SubmissionLimits& limits);

}  // namespace spindle::web::rest
