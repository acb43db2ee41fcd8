// Who may get, renew and cancel RM delegation tokens over RPC: Hadoop's
// ClientRMService.isAllowedDelegationTokenOp (identical in 2.6 and 3.3).
// With security on (hadoop.security.authentication=kerberos) the caller's
// real authentication must be KERBEROS (Java also takes KERBEROS_SSL and
// CERTIFICATE, which Spindle's RPC has not): a job holding only a delegation
// token (TOKEN auth) cannot mint, renew or cancel tokens with it, so a stolen
// token cannot be stretched past its lifetime. With security off every
// caller may.
#pragma once

#include "base/status.h"
#include "wire/ipc/connection_identity.h"

namespace spindle::security {

enum class DelegationTokenOp { kGet, kRenew, kCancel };

// OK, or the IOException ClientRMService throws ("Delegation Token can be
// issued only with kerberos authentication", "... renewed ...",
// "... cancelled ..."), which the handler wraps as Java does
// (RPCUtil.getRemoteException).
Status CheckDelegationTokenOp(bool security_enabled, ipc::AuthMethod real_auth_method,
                              DelegationTokenOp op);

}  // namespace spindle::security
