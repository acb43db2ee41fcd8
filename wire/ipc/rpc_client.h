// RpcClient: the client side of Hadoop IPC v9, used by the node agent, the
// AM launcher (RM -> NM with an NMToken), tests and benchmarks. Connections
// are shared per (address, protocol, user, token), as Java's Client does;
// calls on one connection are pipelined and matched by call id. A connection
// that fails fails its outstanding calls and is replaced on the next call
// (reconnect); one idle past max_idle is closed.
//
// Thread contract: all methods are thread-safe. Callbacks run on the client's
// I/O thread and must not block; Call() must not be used from a callback.
#pragma once

#include <google/protobuf/message_lite.h>

#include <boost/asio.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "wire/ipc/client_negotiation.h"

namespace spindle::ipc {

class ClientConnection;

// Where and as whom to call.
struct ConnectionSpec {
  std::string host;  // IP address or host name
  uint16_t port = 0;
  // declaringClassProtocolName, e.g. "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB".
  std::string protocol;
  // SIMPLE identity (effectiveUser). Ignored when a token authenticates.
  std::string user;
  // With a token the connection announces SASL and authenticates with
  // TOKEN/DIGEST-MD5 (falling back to SIMPLE only if the server offers it
  // and not TOKEN); without one it sends auth NONE.
  std::optional<ClientToken> token;
  // With a Kerberos identity the connection announces SASL and authenticates
  // with KERBEROS/GSSAPI (TOKEN first when a token is given too and the
  // server offers it); it never falls back to SIMPLE. The connection
  // context then names the ticket's principal, not `user`.
  std::optional<ClientKerberos> kerberos = std::nullopt;
  // Under KERBEROS, act for this user (Hadoop's
  // UserGroupInformation.createProxyUser): the context names it instead of
  // the principal, and the server's proxy-user rules decide. Default: none.
  std::optional<std::string> kerberos_proxy_for = std::nullopt;

  std::string Key() const;
};

struct RpcClientOptions {
  // I/O threads. Default: 1.
  int io_threads = 1;
  // ipc.client.connect.timeout, also bounding SASL negotiation. Default: 20 s.
  std::chrono::milliseconds connect_timeout{20000};
  // Per-call deadline; 0 = none (ipc.client.rpc-timeout.ms). Default: 60 s.
  std::chrono::milliseconds call_timeout{60000};
  // ipc.client.connection.maxidletime. Default: 10 s.
  std::chrono::milliseconds max_idle{10000};
  // ipc.maximum.response.length. Default: 128 MiB.
  uint32_t max_response_length = 128 * 1024 * 1024;
  // hadoop.rpc.protection of this process (Java's Client takes it from
  // SaslPropertiesResolver): the SASL protections TOKEN and KERBEROS
  // connections accept, preferred first. With auth-int or auth-conf
  // negotiated every frame after SASL is wrapped. Default: authentication.
  SaslQops qops = {SaslQop::kAuth};
};

class RpcClient {
 public:
  using Callback = std::function<void(Status)>;

  explicit RpcClient(RpcClientOptions options = {});
  ~RpcClient();
  RpcClient(const RpcClient&) = delete;
  RpcClient& operator=(const RpcClient&) = delete;

  // Sends `request`; on success parses the answer into *response (which must
  // stay alive until `done` runs). A server error arrives as Status::Remote
  // carrying the Java exception class; transport failures as IoError,
  // TimedOut, Unauthorized or ProtocolError.
  void CallAsync(const ConnectionSpec& spec, const std::string& method,
                 const google::protobuf::MessageLite& request,
                 google::protobuf::MessageLite* response, Callback done);

  // Blocking form of CallAsync.
  Status Call(const ConnectionSpec& spec, const std::string& method,
              const google::protobuf::MessageLite& request,
              google::protobuf::MessageLite* response);

  // This client's 16-byte clientId (random per RpcClient, like Java's per-Client UUID).
  const std::string& client_id() const { return client_id_; }
  // Open connections (for tests of reuse and idle close).
  size_t connection_count() const;

 private:
  friend class ClientConnection;
  void Forget(const std::string& key, const ClientConnection* connection);

  const RpcClientOptions options_;
  const std::string client_id_;
  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::vector<std::thread> threads_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<ClientConnection>> connections_;  // guarded by mu_
};

}  // namespace spindle::ipc
