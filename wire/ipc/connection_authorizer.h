// ConnectionAuthorizer: the seam through which a server decides whether an
// authenticated connection may go on, once its connection context is read
// (Hadoop's Server.Connection.authorizeConnection: proxy-user rules, then
// service-level ACLs). The IPC layer knows no ACLs or proxy-user settings:
// security/ implements this from hadoop-policy.xml and hadoop.proxyuser.*.
#pragma once

#include "base/status.h"
#include "wire/ipc/connection_identity.h"

namespace spindle::ipc {

class ConnectionAuthorizer {
 public:
  virtual ~ConnectionAuthorizer() = default;

  // `identity` is complete: auth method, user (the effective user),
  // real_user (set when the context asks to act for another user),
  // kerberos_principal, protocol (the context's, "" if none) and
  // remote_address. OK lets the connection's calls run; otherwise the
  // status's java_class (AuthorizationException) and message go to the
  // client as a FATAL_UNAUTHORIZED reply and the connection closes.
  // Thread-safe. May block (group look-ups, reverse DNS): RpcServer's
  // connections call it on a worker thread, never on an I/O thread, and
  // hold the connection's later calls until it answers.
  virtual Status Authorize(const ConnectionIdentity& identity) const = 0;
};

}  // namespace spindle::ipc
