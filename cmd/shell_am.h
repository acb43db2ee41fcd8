// ShellAm: the ApplicationMaster of `spindle shell` (our DistributedShell):
// registers with the RM's ApplicationMasterProtocol, asks for N containers,
// starts the command in each over ContainerManagementProtocol with the NM
// tokens it was given, waits for all to complete and unregisters SUCCEEDED
// iff every command exited 0.
//
// It survives an RM restart as Hadoop 2.6's AMRMClientImpl does:
//  - Calls to the RM that fail to connect (refused, reset, timed out) are
//    retried every retry_interval for up to max_wait (Hadoop's RMProxy with
//    yarn.resourcemanager.connect.*), as the RM may be down for a while.
//  - When allocate fails with ApplicationMasterNotRegisteredException, or a
//    response carries AM_RESYNC, it re-registers (same host, port and
//    tracking URL), resets its response id to 0 and re-sends its whole ask
//    table, its blacklist and the releases the RM has not confirmed.
//    finishApplicationMaster answered with ApplicationMasterNotRegistered
//    re-registers and finishes again.
//  - Like DistributedShell (which never calls removeContainerRequest), its
//    ask table is not decremented as containers arrive: after a resync it
//    re-sends the original total and relies on the RM not to allocate twice.
//    Containers it already runs are never launched again; containers beyond
//    the N it needs are released; completions are counted once per
//    container it started.
//  - A container of its own that completes ABORTED (-100: lost with its
//    node, which a restarted agent reports at once) is not a completion: as
//    DistributedShell's onContainersCompleted, it is counted neither done
//    nor failed and another container is asked for in its place (the ask
//    now names what is still to start). Other non-zero exits are failures.
//
// Thread contract: one thread runs Run(); the accessors may be read from any
// thread (they are atomics), e.g. by a test watching it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "am_protocol/rm_proxy/rm_failover_proxy.h"
#include "base/result.h"
#include "nm_shim/am_launcher/nm_connect_retry_policy.h"
#include "rm/config/configuration.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle {

// What the AM runs.
struct ShellSpec {
  int64_t containers = 1;
  int64_t memory_mb = 128;
  int64_t vcores = 1;
  std::string command;
};

// How long calls to the RM are retried while it cannot be reached.
struct RmConnectRetry {
  // yarn.resourcemanager.connect.max-wait.ms: give up on a call after this
  // long without reaching the RM (one attempt only if shorter than the
  // interval); -1 retries forever. Default: 900000.
  std::chrono::milliseconds max_wait{900000};
  // yarn.resourcemanager.connect.retry-interval.ms: the pause between
  // attempts. Default: 30000.
  std::chrono::milliseconds retry_interval{30000};
  // The caller's own deadline, if it has one (`spindle shell
  // --timeout-seconds`): no attempt starts after it and no pause runs past
  // it, whatever max_wait allows. Default: none.
  std::optional<std::chrono::steady_clock::time_point> deadline;

  // Reads both keys (their defaults when unset). InvalidArgument naming the
  // key for a value that is not an integer, a negative retry interval or a
  // max wait below -1 (as Hadoop's RMProxy).
  static Result<RmConnectRetry> FromConfiguration(const rm::Configuration& conf);
};

// client->Call, retried per `retry` while the call fails to reach the RM
// (IoError, TimedOut or Aborted without a remote exception): RMProxy's retry
// policy, for the AM and for `spindle shell` alike. After max_wait (or at
// retry.deadline), the last error, saying the RM was not reachable.
Status CallRmWithRetry(ipc::RpcClient* client, const ipc::ConnectionSpec& spec,
                       const std::string& method, const google::protobuf::MessageLite& request,
                       google::protobuf::MessageLite* response, const RmConnectRetry& retry);

struct ShellAmOptions {
  // The RM's ApplicationMasterProtocol address (yarn.resourcemanager.scheduler.address).
  std::string scheduler_host;
  uint16_t scheduler_port = 0;
  // The AMRM token; its service names the scheduler address.
  ipc::ClientToken amrm;
  // SIMPLE identity on the NodeManagers' connections (tokens authenticate).
  std::string user;
  ShellSpec spec;
  // Sent in registerApplicationMaster, the first time and after a resync.
  std::string host = "localhost";
  int32_t rpc_port = -1;
  std::string tracking_url;
  // Nodes (host names) its containers must avoid: sent with the first
  // allocate and again after every resync. Default: none.
  std::vector<std::string> blacklist;
  RmConnectRetry retry;
  // With HA on: the scheduler addresses of every rm-id and RMProxy's
  // failover policy; calls then go through an RmFailoverProxy (the token is
  // the same for every RM, as the AMRM token's HA service lists them all)
  // and scheduler_host/port are not used. Default: none (HA off).
  std::vector<am_protocol::RmProxyTarget> ha_schedulers;
  am_protocol::RmRetryPolicy ha_policy;
  // startContainers on a node that cannot be reached (an agent restarting)
  // is retried as NMClientAsync's NMProxy does (yarn.client.nodemanager-
  // connect.*), before the container counts as failed to start.
  nm_shim::NmConnectRetryPolicy nm_retry;
  // Pause between allocate calls. Default: 200 ms.
  std::chrono::milliseconds heartbeat_interval{200};
  // The AM gives up (unregistering FAILED) after this long. Default: 600 s.
  std::chrono::seconds timeout{600};
  ipc::RpcClientOptions client;
};

class ShellAm {
 public:
  explicit ShellAm(ShellAmOptions options);
  ShellAm(const ShellAm&) = delete;
  ShellAm& operator=(const ShellAm&) = delete;

  // Runs the application to its end and unregisters. OK once the RM
  // confirmed the unregistration (whatever the final status); otherwise the
  // error of the call that failed (a connection failure only after the
  // retry budget ran out).
  Status Run();

  // ---- Counters (any thread) ----
  // Registrations, the first included.
  int64_t registrations() const { return registrations_.load(); }
  // Resyncs: re-registrations after NotRegistered or AM_RESYNC.
  int64_t resyncs() const { return resyncs_.load(); }
  // Containers started (or that failed to start).
  int64_t launched() const { return launched_.load(); }
  // Containers of ours that completed (failed starts included).
  int64_t completed() const { return completed_.load(); }
  int64_t failed() const { return failed_.load(); }
  // Containers handed back as not needed.
  int64_t released() const { return released_.load(); }
  // Containers of ours that completed ABORTED and were asked for again.
  int64_t lost() const { return lost_.load(); }

 private:
  ipc::ConnectionSpec AmSpec() const;
  // Calls the RM, retrying connection failures per options_.retry.
  Status CallRm(const std::string& method, const google::protobuf::MessageLite& request,
                google::protobuf::MessageLite* response);
  Status Register();
  // Re-registers and queues the whole ask table, blacklist and unconfirmed
  // releases for the next allocate (AMRMClientImpl's resync).
  Status Resync(const std::string& why);
  void HandleAllocated(const hadoop::yarn::ContainerProto& container);
  void HandleCompleted(const hadoop::yarn::ContainerStatusProto& status);
  void Release(const hadoop::yarn::ContainerIdProto& id);
  // Starts the command in `container`; OK or why it could not.
  Status StartContainer(const hadoop::yarn::ContainerProto& container);
  Status Finish(hadoop::yarn::FinalApplicationStatusProto final_status,
                const std::string& diagnostics);

  const ShellAmOptions options_;
  ipc::RpcClient client_;
  // HA only: the failover proxy over options_.ha_schedulers.
  std::unique_ptr<am_protocol::RmFailoverProxy> ha_proxy_;
  int32_t response_id_ = 0;
  // NotRegistered answers since the last successful allocate.
  int resyncs_in_a_row_ = 0;
  // The ask table (never decremented, as DistributedShell's).
  std::vector<hadoop::yarn::ResourceRequestProto> asks_;
  // What the next allocate must send.
  bool send_asks_ = true;
  bool send_blacklist_;
  std::vector<hadoop::yarn::ContainerIdProto> to_release_;
  // Released and not yet reported completed (re-sent on resync), by id.
  std::map<std::string, hadoop::yarn::ContainerIdProto> pending_release_;
  // Containers seen (started, failed to start or released), by id.
  std::set<std::string> known_;
  // Containers started and not yet completed, by id.
  std::set<std::string> running_;
  std::map<std::string, hadoop::common::TokenProto> nm_tokens_;

  std::atomic<int64_t> registrations_{0};
  std::atomic<int64_t> resyncs_{0};
  std::atomic<int64_t> launched_{0};
  std::atomic<int64_t> completed_{0};
  std::atomic<int64_t> failed_{0};
  std::atomic<int64_t> released_{0};
  std::atomic<int64_t> lost_{0};
};

}  // namespace spindle
