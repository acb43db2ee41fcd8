// Reads the secret managers' options from Hadoop configuration, with the Java
// RM's keys and defaults:
//
//   yarn.resourcemanager.container-tokens.master-key-rolling-interval-secs  86400
//   yarn.resourcemanager.nm-tokens.master-key-rolling-interval-secs         86400
//   yarn.resourcemanager.am-rm-tokens.master-key-rolling-interval-secs      86400
//   yarn.nm.liveness-monitor.expiry-interval-ms   600000  (container and NM key
//                                                 activation delay = 1.5 x this)
//   yarn.am.liveness-monitor.expiry-interval-ms   600000  (AMRM key activation
//                                                 delay = 1.5 x this)
//   yarn.resourcemanager.rm.container-allocation.expiry-interval-ms  600000
//                                                 (container token lifetime)
//   yarn.resourcemanager.delegation.key.update-interval     86400000 (1 day)
//   yarn.resourcemanager.delegation.token.renew-interval    86400000 (1 day)
//   yarn.resourcemanager.delegation.token.max-lifetime     604800000 (7 days)
//                                                 (RM delegation tokens, ms)
//
// Each fails with InvalidArgument naming the key and value when a value is
// not a number, out of range, or the rolling interval is not more than
// 3 x the liveness expiry interval (Java refuses to start then too).
#pragma once

#include <cstdint>

#include "base/result.h"
#include "rm/config/configuration.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/master_key_manager.h"
#include "rm/security/rm_delegation_token_secret_manager.h"

namespace spindle::rm {

Result<KeyRollingOptions> KeyRollingOptionsFromConfiguration(const Configuration& conf,
                                                             KeyFamily family);

// Keys from KeyRollingOptionsFromConfiguration(kContainerTokens), the token
// lifetime, and the given cluster timestamp as rm_identifier.
Result<ContainerTokenSecretManager::Options> ContainerTokenOptionsFromConfiguration(
    const Configuration& conf, int64_t rm_identifier);

// The three RM delegation token intervals (ms, as Java reads them with
// getLong); the removal scan interval keeps its default (Java hard-codes it).
Result<RmDelegationTokenOptions> RmDelegationTokenOptionsFromConfiguration(
    const Configuration& conf);

}  // namespace spindle::rm
