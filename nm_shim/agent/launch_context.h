// DecodeLaunchContext: a startContainers request's ContainerLaunchContextProto
// and its verified container token, as the plain ContainerLaunchSpec runtimes
// take. Nothing is expanded or checked here: local resources the runtime
// cannot fetch fail their container later, with a diagnostic.
//
// Thread-safety: a pure function.
#pragma once

#include "nm_shim/agent/container_runtime.h"
#include "yarn_protos.pb.h"
#include "yarn_security_token.pb.h"

namespace spindle::nm {

ContainerLaunchSpec DecodeLaunchContext(const hadoop::yarn::ContainerLaunchContextProto& clc,
                                        const hadoop::yarn::ContainerTokenIdentifierProto& token);

}  // namespace spindle::nm
