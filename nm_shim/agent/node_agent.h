// NodeAgent: the assembled `spindle nm`: one or many nodes in one process,
// sharing one EventLoop (heartbeats, simulated container timers), one
// RpcClient connection to the RM's ResourceTracker and one
// ContainerManagementProtocol port.
//
// Node ids. Real mode hosts one node, NodeId = <node_host>:<bound CMP port>.
// Simulate mode (`simulated_nodes` = N > 0) hosts N virtual nodes whose ids
// are distinct loopback addresses on the shared port:
//   node i = 127.<1 + i / 254 / 256>.<i / 254 % 256>.<i % 254 + 1>:<port>
// (first 127.1.0.1, see SimulatedNodeHost), or, with `simulated_specs`
// (`--nodes-file`), the specs' host names on the shared port, each node with
// its own resources (simulated/simulated_nodes_file.h). Linux routes all of 127/8 to
// loopback, so an AM or the RM connecting to any virtual node's host:port
// reaches the one socket (bound to 0.0.0.0 by default in this mode), and the
// service finds the node from the NMToken the connection authenticated with
// (and the container token's nmHostAddr must match it). One port and one
// I/O thread for 5,000+ nodes, instead of 5,000 listening servers; every
// node still has a distinct, resolvable, connectable NodeId.
//
// Web. Real mode serves the node's web (nm_shim/agent/web: container logs,
// /ws/v1/node/info) on yarn.nodemanager.webapp.address and registers the
// bound port as the node's http port (and NM_HTTP_PORT of its containers);
// failing to bind fails Start(), as the Java NM stops when its web app does
// not start. Simulate mode serves no web (its containers write no logs).
//
// Thread contract: Start() and Stop() from one controlling thread; the
// accessors from any thread after Start().
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "nm_shim/agent/agent_options.h"
#include "nm_shim/agent/container_management_service.h"
#include "nm_shim/agent/container_manager.h"
#include "nm_shim/agent/event_loop.h"
#include "nm_shim/agent/ipc_tracker_transport.h"
#include "nm_shim/agent/node_status_updater.h"
#include "nm_shim/agent/simulated/simulated_nodes_file.h"
#include "nm_shim/agent/web/nm_webapp.h"
#include "security/kerberos_credentials.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"
#include "wire/ipc/sasl_qop.h"

namespace spindle::nm {

// Makes the runtime of one node. `loop` is the agent's shared loop.
using RuntimeFactory = std::function<Result<std::unique_ptr<ContainerRuntime>>(
    const NodeEnvironment& env, EventLoop* loop, ContainerListener listener)>;

// The simulated runtime, with the agent's default duration.
RuntimeFactory SimulatedRuntimeFactory(const AgentOptions& options);
// The process runtime (nm_shim/agent/process): containers are child
// processes, with the agent's directories, kill delay and memory monitor.
RuntimeFactory ProcessRuntimeFactory(const AgentOptions& options);

// The host of virtual node `index` (0-based): 127.1.0.1, 127.1.0.2, ...
std::string SimulatedNodeHost(int64_t index);

struct NodeAgentOptions {
  AgentOptions agent;
  // 0: one real node. N > 0: N virtual nodes (simulate mode).
  int64_t simulated_nodes = 0;
  // Simulate mode with named nodes: one virtual node per spec, with its host
  // name and resources (simulated_nodes must then be 0 or the same count).
  // Default: none.
  std::vector<SimulatedNodeSpec> simulated_specs;
  // The user the agent calls the RM as (SIMPLE). Default: "yarn".
  std::string user = "yarn";
  // In secure mode (hadoop.security.authentication=kerberos): the NM's
  // keytab log-in, whose ticket authenticates the agent to the RM's
  // ResourceTracker (KERBEROS). Shared by copies of the options; it must
  // live as long as the agent. Default: none (SIMPLE).
  std::shared_ptr<const security::KerberosCredentials> kerberos_login;
  // hadoop.rpc.protection: the SASL protections the ContainerManagement
  // server offers and the agent's calls to the RM accept, in order.
  // Default: authentication.
  ipc::SaslQops rpc_protection = {ipc::SaslQop::kAuth};
  // RPC server threads for ContainerManagementProtocol. Default: 4.
  int cmp_worker_threads = 4;
  // Wraps the nodes' transport to the RM's ResourceTracker, e.g. to time
  // each call (`spindle bench wire`). Called once in Start() with the
  // agent's IpcTrackerTransport, which outlives the wrapper; the wrapper must
  // forward every call to it. Default: none (the nodes use it directly).
  std::function<std::unique_ptr<TrackerTransport>(TrackerTransport* inner)> wrap_tracker;
};

class NodeAgent {
 public:
  // `clock` must outlive the agent.
  static Result<std::unique_ptr<NodeAgent>> Create(NodeAgentOptions options,
                                                   RuntimeFactory runtimes,
                                                   const Clock* clock = SystemClock::Get());
  ~NodeAgent();

  // Binds the CMP port, creates the nodes and starts registering them.
  // IoError if the port cannot be bound; runtime creation errors as is.
  Status Start();
  // Unregisters every node, kills their containers, closes the port. Idempotent.
  void Stop();
  // Blocks until every node has stopped on its own (the RM said SHUTDOWN, or
  // refused registration) or `timeout` passes; returns the first node's
  // error, OK if none, TimedOut on timeout.
  Status WaitUntilStopped(std::chrono::milliseconds timeout);

  uint16_t port() const { return server_->port(); }
  // The http port the nodes register: the web server's bound port in real
  // mode, the configured one in simulate mode.
  int32_t http_port() const { return web_ != nullptr ? web_->port() : options_.agent.http_port; }
  size_t node_count() const { return nodes_.size(); }
  const rm::NodeId& node_id(size_t i) const { return nodes_[i]->id; }
  ContainerManager& containers(size_t i) { return *nodes_[i]->containers; }
  NodeStatusUpdater& updater(size_t i) { return *nodes_[i]->updater; }
  ContainerRuntime& runtime(size_t i) { return *nodes_[i]->runtime; }
  const NodeTokenKeys& keys(size_t i) const { return nodes_[i]->keys; }
  // Nodes currently registered (state kRunning).
  size_t registered_nodes() const;
  int64_t heartbeats() const;

 private:
  struct Node {
    rm::NodeId id;
    NodeTokenKeys keys;
    std::unique_ptr<ContainerManager> containers;
    std::unique_ptr<ContainerRuntime> runtime;
    std::unique_ptr<NodeStatusUpdater> updater;
    HostedNode hosted;
  };

  NodeAgent(NodeAgentOptions options, RuntimeFactory runtimes, const Clock* clock);
  void OnNodeStopped(const Status& s) EXCLUDES(mu_);
  // Starts web_ on the configured address (real mode).
  Status StartWeb();

  const NodeAgentOptions options_;
  const RuntimeFactory runtimes_;
  const Clock* const clock_;
  // Declared before client_: the client's destructor posts failed calls to it.
  EventLoop loop_;
  std::unique_ptr<ipc::RpcClient> client_;
  std::unique_ptr<IpcTrackerTransport> transport_;
  // options_.wrap_tracker's wrapper around transport_, if any.
  std::unique_ptr<TrackerTransport> wrapped_transport_;
  std::unique_ptr<ContainerManagementService> service_;
  std::unique_ptr<ipc::RpcServer> server_;
  std::unique_ptr<NmWebApp> web_;  // real mode only
  // The real node's containers, for the web (set once the node exists).
  std::atomic<const ContainerManager*> web_containers_{nullptr};
  std::vector<std::unique_ptr<Node>> nodes_;

  Mutex mu_;
  CondVar stopped_cv_;
  size_t stopped_ GUARDED_BY(mu_) = 0;
  Status first_error_ GUARDED_BY(mu_);
  bool started_ = false;
  bool stopped_all_ = false;
};

}  // namespace spindle::nm
