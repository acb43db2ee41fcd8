// IpcTrackerTransport: TrackerTransport over Spindle's RpcClient, SIMPLE
// authentication (auth byte NONE, effectiveUser = the agent's user), as Java
// NodeManagers connect to 8031; KERBEROS (SASL GSSAPI, the NM's own ticket)
// when given a Kerberos identity, as a secure NodeManager does. All nodes of one agent share its
// one connection; answers are handed to the EventLoop.
//
// With several addresses (the rm-ids of an HA pair), a call that cannot
// reach its RM or that the RM answers with StandbyException moves the
// transport to the next address, round robin, as ConfiguredRMFailoverProxy
// Provider does (only the first of the calls that failed together moves
// it); the error still reaches the caller, whose own retry (the status
// updater's backoff) then goes to the next RM, which answers RESYNC to a
// node it does not know, so the node registers again as Hadoop's
// NodeStatusUpdater does after a failover.
//
// Thread-safety: thread-safe. `client` and `loop` must outlive the transport,
// and `loop` must outlive `client` (the client's destructor fails calls in
// flight, whose answers are posted to the loop).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "nm_shim/agent/event_loop.h"
#include "nm_shim/agent/tracker_transport.h"
#include "rm/config/socket_address.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_client.h"

namespace spindle::nm {

using ipc::kResourceTrackerProtocol;

class IpcTrackerTransport final : public TrackerTransport {
 public:
  IpcTrackerTransport(ipc::RpcClient* client, EventLoop* loop, std::string host, uint16_t port,
                      std::string user, std::optional<ipc::ClientKerberos> kerberos = std::nullopt);
  // The HA form: `targets` in rm-ids order (at least one).
  IpcTrackerTransport(ipc::RpcClient* client, EventLoop* loop,
                      std::vector<rm::SocketAddress> targets, std::string user,
                      std::optional<ipc::ClientKerberos> kerberos = std::nullopt);

  void Register(const hadoop::yarn::RegisterNodeManagerRequestProto& request,
                Done<hadoop::yarn::RegisterNodeManagerResponseProto> done) override;
  void Heartbeat(const hadoop::yarn::NodeHeartbeatRequestProto& request,
                 Done<hadoop::yarn::NodeHeartbeatResponseProto> done) override;
  void Unregister(const hadoop::yarn::UnRegisterNodeManagerRequestProto& request,
                  Done<hadoop::yarn::UnRegisterNodeManagerResponseProto> done) override;

  // Failovers so far, over every call.
  int64_t failovers() const {
    MutexLock lock(&mu_);
    return failovers_;
  }

 private:
  template <typename Req, typename Resp>
  void Call(const std::string& method, const Req& request, Done<Resp> done);

  ipc::ConnectionSpec SpecOf(size_t target) const;
  // Moves to the next target if nobody did since `seen` (a failover count).
  void FailOver(int64_t seen, const Status& why);

  ipc::RpcClient* const client_;
  EventLoop* const loop_;
  const std::vector<rm::SocketAddress> targets_;
  const std::string user_;
  const std::optional<ipc::ClientKerberos> kerberos_;
  mutable Mutex mu_;
  size_t current_ GUARDED_BY(mu_) = 0;
  int64_t failovers_ GUARDED_BY(mu_) = 0;
};

}  // namespace spindle::nm
