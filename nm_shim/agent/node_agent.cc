#include "nm_shim/agent/node_agent.h"

#include <glog/logging.h>
#include <unistd.h>

#include "nm_shim/agent/process/process_runtime.h"
#include "nm_shim/agent/simulated/simulated_runtime.h"

namespace spindle::nm {

RuntimeFactory SimulatedRuntimeFactory(const AgentOptions& options) {
  SimulatedRuntimeOptions sim;
  sim.default_duration_ms = options.simulated_default_duration_ms;
  return [sim](const NodeEnvironment&, EventLoop* loop,
               ContainerListener listener) -> Result<std::unique_ptr<ContainerRuntime>> {
    return std::unique_ptr<ContainerRuntime>(
        std::make_unique<SimulatedRuntime>(sim, loop, std::move(listener)));
  };
}

RuntimeFactory ProcessRuntimeFactory(const AgentOptions& options) {
  return [options](const NodeEnvironment& env, EventLoop*, ContainerListener listener) {
    ProcessRuntimeOptions process;
    process.node = env;
    process.sigkill_delay_ms = options.sigkill_delay_ms;
    process.monitor_interval_ms = options.monitor_interval_ms;
    process.pmem_check_enabled = options.pmem_check_enabled;
    return NewProcessRuntime(std::move(process), std::move(listener));
  };
}

std::string SimulatedNodeHost(int64_t index) {
  const int64_t block = index / 254;
  return "127." + std::to_string(1 + block / 256) + "." + std::to_string(block % 256) + "." +
         std::to_string(index % 254 + 1);
}

Result<std::unique_ptr<NodeAgent>> NodeAgent::Create(NodeAgentOptions options,
                                                     RuntimeFactory runtimes, const Clock* clock) {
  if (options.simulated_nodes < 0 || options.simulated_nodes > 254 * 256 * 100) {
    return Status::InvalidArgument("--simulate " + std::to_string(options.simulated_nodes) +
                                   " is not a node count between 0 and 6502400");
  }
  if (!options.simulated_specs.empty()) {
    const auto specs = static_cast<int64_t>(options.simulated_specs.size());
    if (options.simulated_nodes != 0 && options.simulated_nodes != specs) {
      return Status::InvalidArgument("--simulate " + std::to_string(options.simulated_nodes) +
                                     " disagrees with the " + std::to_string(specs) +
                                     " nodes of the nodes file");
    }
    options.simulated_nodes = specs;
  }
  if (!runtimes) return Status::InvalidArgument("no container runtime");
  return std::unique_ptr<NodeAgent>(new NodeAgent(std::move(options), std::move(runtimes), clock));
}

NodeAgent::NodeAgent(NodeAgentOptions options, RuntimeFactory runtimes, const Clock* clock)
    : options_(std::move(options)), runtimes_(std::move(runtimes)), clock_(clock), loop_(clock) {}

NodeAgent::~NodeAgent() { Stop(); }

Status NodeAgent::Start() {
  CHECK(!started_);
  started_ = true;
  const AgentOptions& a = options_.agent;
  const bool simulate = options_.simulated_nodes > 0;

  service_ = std::make_unique<ContainerManagementService>();
  auto registry = std::make_shared<ipc::ServiceRegistry>();
  registry->Add(service_->MakeRpcService());
  ipc::RpcServerOptions server_options;
  server_options.name = "ContainerManagementProtocol";
  // In simulate mode the virtual nodes' loopback addresses must all reach
  // the one socket: it binds the wildcard address.
  server_options.bind_host = simulate ? "0.0.0.0" : a.nm_address.host;
  server_options.port = static_cast<uint16_t>(a.nm_address.port);
  server_options.worker_threads = options_.cmp_worker_threads;
  server_options.session.simple_enabled = false;
  server_options.session.token_provider = service_.get();
  server_options.session.qops = options_.rpc_protection;
  server_ = std::make_unique<ipc::RpcServer>(server_options, registry);
  RETURN_NOT_OK(server_->Start());

  if (!simulate) RETURN_NOT_OK(StartWeb());

  ipc::RpcClientOptions client_options;
  client_options.qops = options_.rpc_protection;
  client_ = std::make_unique<ipc::RpcClient>(client_options);
  std::optional<ipc::ClientKerberos> kerberos;
  if (options_.kerberos_login != nullptr) {
    kerberos = ipc::ClientKerberos{options_.kerberos_login->cache_name()};
  }
  if (a.resource_trackers_ha.empty()) {
    transport_ = std::make_unique<IpcTrackerTransport>(
        client_.get(), &loop_, a.resource_tracker.host,
        static_cast<uint16_t>(a.resource_tracker.port), options_.user, kerberos);
  } else {
    transport_ = std::make_unique<IpcTrackerTransport>(
        client_.get(), &loop_, a.resource_trackers_ha, options_.user, kerberos);
  }
  TrackerTransport* tracker = transport_.get();
  if (options_.wrap_tracker) {
    wrapped_transport_ = options_.wrap_tracker(transport_.get());
    tracker = wrapped_transport_.get();
  }

  const int64_t count = simulate ? options_.simulated_nodes : 1;
  nodes_.reserve(count);
  ContainerManagementService::HostedNodes hosted;
  for (int64_t i = 0; i < count; ++i) {
    auto node = std::make_unique<Node>();
    const SimulatedNodeSpec* spec =
        options_.simulated_specs.empty() ? nullptr : &options_.simulated_specs[i];
    std::string host = a.node_host;
    if (spec != nullptr) {
      host = spec->host;
    } else if (simulate) {
      host = SimulatedNodeHost(i);
    }
    node->id = rm::NodeId{host, server_->port()};
    ContainerManagerOptions cm;
    cm.node = node->id;
    node->containers = std::make_unique<ContainerManager>(cm, &node->keys, clock_);
    NodeEnvironment env = a.Environment();
    env.nm_host = node->id.host;
    env.nm_port = node->id.port;
    env.nm_http_port = http_port();
    ASSIGN_OR_RETURN(node->runtime, runtimes_(env, &loop_, node->containers->Listener()));
    node->containers->set_runtime(node->runtime.get());
    node->hosted = HostedNode{&node->keys, node->containers.get()};
    NodeStatusUpdaterOptions u;
    u.node = node->id;
    u.http_port = http_port();
    u.memory_mb = spec != nullptr ? spec->memory_mb : a.memory_mb;
    u.vcores = spec != nullptr ? spec->vcores : a.vcores;
    u.nm_version = a.nm_version;
    u.unregister = a.unregister_on_stop;
    u.initial_heartbeat_interval_ms = a.initial_heartbeat_interval_ms;
    u.max_retry_interval_ms = a.max_retry_interval_ms;
    // Spread the virtual nodes' registrations (and so their heartbeats) over
    // one interval instead of a burst.
    u.start_delay_ms = simulate ? i * a.initial_heartbeat_interval_ms / count : 0;
    u.log_lifecycle = !simulate;
    if (!simulate) {
      // The real node measures itself and its containers (the agent's
      // children) for every heartbeat.
      auto sampler = std::make_shared<NodeUtilizationSampler>(
          getpid(), u.vcores, static_cast<int32_t>(sysconf(_SC_NPROCESSORS_ONLN)));
      const Clock* clock = clock_;
      u.utilization = [sampler, clock] {
        return sampler->Sample(
            std::chrono::duration_cast<std::chrono::milliseconds>(clock->Now().time_since_epoch())
                .count());
      };
    }
    node->updater =
        std::make_unique<NodeStatusUpdater>(u, node->containers.get(), &node->keys, tracker, &loop_,
                                            [this](const Status& s) { OnNodeStopped(s); });
    hosted[node->id] = &node->hosted;
    nodes_.push_back(std::move(node));
  }
  service_->Host(std::move(hosted));
  if (!simulate) web_containers_.store(nodes_.front()->containers.get());
  loop_.Start();
  for (auto& node : nodes_) node->updater->Start();
  LOG(INFO) << "spindle nm: " << count << (simulate ? " simulated node(s)" : " node") << " on port "
            << server_->port() << (simulate ? "" : ", web port " + std::to_string(http_port()))
            << ", ResourceTracker at " << a.resource_tracker.host << ":" << a.resource_tracker.port;
  return Status::OK();
}

Status NodeAgent::StartWeb() {
  const AgentOptions& a = options_.agent;
  NmWebAppOptions web;
  web.server = a.web;
  web.logs.log_dirs = a.log_dirs;
  web.logs.node_id = rm::NodeId{a.node_host, server_->port()}.ToString();
  web.logs.is_running = [this](const rm::ContainerId& id) {
    const ContainerManager* containers = web_containers_.load();
    return containers != nullptr && containers->IsRunning(id);
  };
  web.info.node_id = web.logs.node_id;
  web.info.host_name = a.node_host;
  web.info.memory_mb = a.memory_mb;
  web.info.vcores = a.vcores;
  web.info.pmem_check_enabled = a.pmem_check_enabled;
  web.info.version = a.nm_version;
  web.info.started_ms = clock_->WallMillis();
  web_ = std::make_unique<NmWebApp>(web);
  Status started = web_->Start();
  if (!started.ok()) {
    web_.reset();
    return started.WithContext("NMWebapps failed to start on " + a.web.bind_host + ":" +
                               std::to_string(a.web.port));
  }
  return Status::OK();
}

void NodeAgent::OnNodeStopped(const Status& s) {
  MutexLock lock(&mu_);
  ++stopped_;
  if (!s.ok() && first_error_.ok()) first_error_ = s;
  stopped_cv_.SignalAll();
}

Status NodeAgent::WaitUntilStopped(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  MutexLock lock(&mu_);
  while (stopped_ < nodes_.size()) {
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) {
      return Status::TimedOut("nodes still running");
    }
    stopped_cv_.WaitFor(&mu_, left);
  }
  return first_error_;
}

size_t NodeAgent::registered_nodes() const {
  size_t n = 0;
  for (const auto& node : nodes_) {
    n += node->updater->state() == NodeStatusUpdater::State::kRunning;
  }
  return n;
}

int64_t NodeAgent::heartbeats() const {
  int64_t n = 0;
  for (const auto& node : nodes_) n += node->updater->heartbeats();
  return n;
}

void NodeAgent::Stop() {
  if (!started_ || stopped_all_) return;
  stopped_all_ = true;
  // Unregister every node (bounded wait: the RM may be gone).
  Mutex mu;
  CondVar cv;
  size_t done = 0;
  for (auto& node : nodes_) {
    node->updater->Stop([&] {
      MutexLock lock(&mu);
      ++done;
      cv.SignalAll();
    });
  }
  {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    MutexLock lock(&mu);
    while (done < nodes_.size() && std::chrono::steady_clock::now() < deadline) {
      cv.WaitFor(&mu, std::chrono::milliseconds(100));
    }
    if (done < nodes_.size()) {
      LOG(WARNING) << nodes_.size() - done << " node(s) did not unregister in time";
    }
  }
  if (server_) server_->Stop();
  if (web_) web_->Stop();
  for (auto& node : nodes_) node->runtime->Shutdown();
  loop_.Stop();
  client_.reset();
}

}  // namespace spindle::nm
