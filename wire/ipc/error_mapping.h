// The Java exception class names Hadoop peers act on (WIRE.md 2.6), and the
// mapping from a handler's Status to what goes on the wire.
#pragma once

#include <string>

#include "base/status.h"
#include "wire/ipc/rpc_responses.h"

namespace spindle::ipc {

namespace java {
inline constexpr char kRpcServerException[] = "org.apache.hadoop.ipc.RpcServerException";
inline constexpr char kRpcNoSuchMethod[] = "org.apache.hadoop.ipc.RpcNoSuchMethodException";
inline constexpr char kRpcNoSuchProtocol[] = "org.apache.hadoop.ipc.RpcNoSuchProtocolException";
inline constexpr char kIpcException[] = "org.apache.hadoop.ipc.IpcException";
inline constexpr char kAccessControl[] = "org.apache.hadoop.security.AccessControlException";
inline constexpr char kAuthorization[] =
    "org.apache.hadoop.security.authorize.AuthorizationException";
inline constexpr char kInvalidToken[] =
    "org.apache.hadoop.security.token.SecretManager$InvalidToken";
inline constexpr char kSaslException[] = "javax.security.sasl.SaslException";
inline constexpr char kRetriableException[] = "org.apache.hadoop.ipc.RetriableException";
inline constexpr char kStandbyException[] = "org.apache.hadoop.ipc.StandbyException";
inline constexpr char kIoException[] = "java.io.IOException";
inline constexpr char kYarnException[] = "org.apache.hadoop.yarn.exceptions.YarnException";
}  // namespace java

struct RemoteError {
  std::string exception_class;
  std::string message;
  RpcErrorCode code = hadoop::common::RpcResponseHeaderProto::ERROR_APPLICATION;
};

// A handler's non-OK Status as the peer sees it: its java_class if it names
// one, else a class chosen by code (Unauthorized -> AccessControlException,
// IoError -> IOException, the rest -> YarnException, which YARN clients
// unwrap into YarnException).
RemoteError ToRemoteError(const Status& status);

// True for a client call that failed to reach or hear from the peer (the
// client's IoError, TimedOut or Aborted, no Java class): what Java sees as
// ConnectException, EOFException or a socket timeout, on which RM proxies
// retry or fail over.
bool IsTransportFailure(const Status& status);

}  // namespace spindle::ipc
