#include "bench/recovery_bench.h"

#include <glog/logging.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "am_protocol/client_service/client_rm_service.h"
#include "base/child_process.h"
#include "base/net/free_port.h"
#include "bench/hadoop_site.h"
#include "persist/rocksdb_state_store.h"
#include "rm/apps/app_manager.h"
#include "rm/containers/container_registry.h"
#include "rm/recovery/app_records.h"
#include "rm/recovery/rm_state.h"
#include "rm/recovery/zk/zk_rm_state_store.h"
#include "rm/security/yarn_id_protos.h"
#include "scheduler_pool/scheduler_pool.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_service_protos.pb.h"

namespace spindle::bench {

namespace {

namespace y = hadoop::yarn;
namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

constexpr char kFillType[] = "SPINDLE-BENCH-FILL";
constexpr char kLiveType[] = "SPINDLE-BENCH-LIVE";
constexpr char kUser[] = "bench";
// The first run's start time in every filled application id.
constexpr int64_t kClusterTimestamp = 1700000000000;
constexpr int64_t kAmMemoryMb = 1024;

double Seconds(SteadyClock::duration d) { return std::chrono::duration<double>(d).count(); }

// ---- 1. fill -----------------------------------------------------------------

enum class Kind { kFinished, kFailed, kKilled, kRunning };

// 1 in 25 running, 2 in 25 failed, 2 in 25 killed, the rest finished.
Kind KindOf(int64_t i) {
  switch (i % 25) {
    case 3:
      return Kind::kRunning;
    case 7:
    case 17:
      return Kind::kFailed;
    case 11:
    case 21:
      return Kind::kKilled;
    default:
      return Kind::kFinished;
  }
}

std::string ContextBytes(const rm::ApplicationId& id, const std::string& name) {
  y::ApplicationSubmissionContextProto context;
  rm::ToProto(id, context.mutable_application_id());
  context.set_application_name(name);
  context.set_queue("default");
  context.set_applicationtype(kFillType);
  context.set_maxappattempts(2);
  context.mutable_resource()->set_memory(kAmMemoryMb);
  context.mutable_resource()->set_virtual_cores(1);
  context.mutable_am_container_spec()->add_command("sleep 3600");
  context.mutable_priority()->set_priority(0);
  return context.SerializeAsString();
}

rm::RmAttempt FilledAttempt(const rm::ApplicationId& app, int32_t number, Kind kind,
                            int64_t start_ms) {
  rm::RmAttempt attempt;
  attempt.id = {app, number};
  attempt.start_time_ms = start_ms;
  rm::AmContainer am;
  am.id = {attempt.id, 1};
  // Nodes of a cluster long gone: not in the store's node list, so a restart
  // does not wait for them.
  am.node = {"filled-node-" + std::to_string(app.id % 97), 45454};
  am.node_http_address = am.node.host + ":8042";
  am.placement.resource = pool::Resource::Of(kAmMemoryMb, 1);
  attempt.am_container = am;
  switch (kind) {
    case Kind::kFinished:
      attempt.state = rm::AttemptState::kFinished;
      attempt.final_status = rm::FinalStatus::kSucceeded;
      attempt.am_exit_status = 0;
      break;
    case Kind::kFailed:
      attempt.state = rm::AttemptState::kFailed;
      attempt.final_status = rm::FinalStatus::kFailed;
      attempt.am_exit_status = 1;
      attempt.diagnostics = "AM container exited with exit code 1";
      break;
    case Kind::kKilled:
      attempt.state = rm::AttemptState::kKilled;
      attempt.final_status = rm::FinalStatus::kKilled;
      break;
    case Kind::kRunning:
      attempt.state = rm::AttemptState::kLaunched;
      break;
  }
  if (kind != Kind::kRunning) {
    attempt.finish_time_ms = start_ms + 60000;
    attempt.tracking_url = "http://" + am.node.host + ":8088/history";
  }
  return attempt;
}

rm::RmApp FilledApp(int64_t i, Kind kind) {
  rm::RmApp app;
  rm::Submission& s = app.submission;
  s.id = {kClusterTimestamp, static_cast<int32_t>(i + 1)};
  s.user = kUser;
  s.name = "filled-" + std::to_string(i + 1);
  s.type = kFillType;
  s.tags = {"bench"};
  s.queue_limits.path = "root.default";
  s.max_attempts = 2;
  s.am_resource = pool::Resource::Of(kAmMemoryMb, 1);
  s.context_bytes = ContextBytes(s.id, s.name);
  app.max_attempts = 2;
  app.submit_time_ms = kClusterTimestamp + i * 10;
  app.start_time_ms = app.submit_time_ms + 5;
  const int64_t attempt_start = app.start_time_ms + 100;
  switch (kind) {
    case Kind::kFinished:
      app.state = rm::AppState::kFinished;
      app.final_status = rm::FinalStatus::kSucceeded;
      break;
    case Kind::kFailed:
      app.state = rm::AppState::kFailed;
      app.final_status = rm::FinalStatus::kFailed;
      app.diagnostics = "Application failed 2 times due to AM container exit code 1";
      break;
    case Kind::kKilled:
      app.state = rm::AppState::kKilled;
      app.final_status = rm::FinalStatus::kKilled;
      app.diagnostics = "Application killed by user.";
      break;
    case Kind::kRunning:
      app.state = rm::AppState::kRunning;
      break;
  }
  if (kind == Kind::kFailed) {
    app.attempts.push_back(FilledAttempt(s.id, 1, kind, attempt_start));
    app.attempts.push_back(FilledAttempt(s.id, 2, kind, attempt_start + 70000));
  } else {
    app.attempts.push_back(FilledAttempt(s.id, 1, kind, attempt_start));
  }
  if (kind != Kind::kRunning) app.finish_time_ms = app.attempts.back().finish_time_ms + 10;
  return app;
}

uint64_t DirectoryBytes(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec)) total += entry.file_size(ec);
  }
  return total;
}

bool IsZk(const RecoveryBenchOptions& options) { return options.store == "zk"; }

// The parent znode of one run of --store zk.
std::string ZkParent(int64_t apps) {
  return "/spindle-bench-recovery-" + std::to_string(getpid()) + "-m" + std::to_string(apps);
}

rm::ZkStoreOptions ZkOptions(const RecoveryBenchOptions& options, int64_t apps) {
  rm::ZkStoreOptions zk;
  zk.connect_string = options.zk_address;
  zk.parent_path = ZkParent(apps);
  zk.num_retries = 10;
  zk.retry_interval = std::chrono::milliseconds(500);
  return zk;
}

// A store for the run: the RocksDB directory `store_dir` or the run's znode.
std::unique_ptr<persist::StateStore> BenchStore(const RecoveryBenchOptions& options,
                                                const std::string& store_dir, int64_t apps,
                                                bool create) {
  if (IsZk(options)) return std::make_unique<rm::ZkRmStateStore>(ZkOptions(options, apps));
  persist::StateStoreOptions rocksdb;
  rocksdb.path = store_dir;
  rocksdb.sync_writes = false;
  rocksdb.create_if_missing = create;
  return std::make_unique<persist::RocksDbStateStore>(rocksdb);
}

Status Fill(const RecoveryBenchOptions& options, const std::string& store_dir, RecoveryRun* run) {
  const auto start = SteadyClock::now();
  std::unique_ptr<persist::StateStore> owned = BenchStore(options, store_dir, run->apps, true);
  persist::StateStore& store = *owned;
  RETURN_NOT_OK(store.Open());
  // A ZooKeeper multi is one request (1 MB at most by default): smaller
  // batches there.
  const size_t batch_ops = IsZk(options) ? 300 : 20000;
  persist::StoreBatch batch;
  batch.SetClusterValue(persist::ClusterField::kClusterTimestamp, kClusterTimestamp);
  batch.SetClusterValue(persist::ClusterField::kEpoch, 0);
  batch.SetClusterValue(persist::ClusterField::kAppIdCounter, static_cast<int64_t>(run->apps));
  for (int64_t i = 0; i < run->apps; ++i) {
    const Kind kind = KindOf(i);
    switch (kind) {
      case Kind::kFinished:
        ++run->finished;
        break;
      case Kind::kFailed:
        ++run->failed;
        break;
      case Kind::kKilled:
        ++run->killed;
        break;
      case Kind::kRunning:
        ++run->running;
        break;
    }
    const rm::RmApp app = FilledApp(i, kind);
    const std::string id = app.submission.id.ToString();
    batch.PutApplication(id, rm::EncodeAppRecord(app));
    for (const rm::RmAttempt& attempt : app.attempts) {
      batch.PutAttempt(id, attempt.id.ToString(), rm::EncodeAttemptRecord(attempt));
    }
    if (batch.size() >= batch_ops) {
      RETURN_NOT_OK(store.Apply(batch));
      batch.Clear();
    }
  }
  RETURN_NOT_OK(store.Apply(batch));
  RETURN_NOT_OK(store.Close());
  run->fill_seconds = Seconds(SteadyClock::now() - start);
  return Status::OK();
}

// ---- 2. reload in process ----------------------------------------------------

// Recovered apps here all had their AM placed: nothing is launched.
class NoLauncher final : public rm::AmLauncher {
 public:
  void Launch(const rm::AmLaunch&, std::function<void(Status)> done) override {
    done(Status::Aborted("no launches in the reload benchmark"));
  }
  void Cleanup(const rm::AmLaunch&) override {}
};

class NoNodes final : public rm::NodeDirectory {
 public:
  std::optional<rm::NodeInfo> Find(pool::NodeId) const override { return std::nullopt; }
};

Status Reload(const RecoveryBenchOptions& bench, const std::string& store_dir, RecoveryRun* run,
              ReloadTimes* times) {
  if (!IsZk(bench)) times->store_mb = static_cast<double>(DirectoryBytes(store_dir)) / (1 << 20);
  std::unique_ptr<persist::StateStore> owned = BenchStore(bench, store_dir, run->apps, false);
  persist::StateStore& store = *owned;
  auto t0 = SteadyClock::now();
  RETURN_NOT_OK(store.Open());
  auto t1 = SteadyClock::now();
  ASSIGN_OR_RETURN(persist::LoadedState loaded, store.Load());
  auto t2 = SteadyClock::now();
  if (IsZk(bench)) {
    size_t bytes = 0;
    for (const auto& [id, record] : loaded.applications) bytes += record.size();
    for (const auto& [id, attempts] : loaded.attempts) {
      for (const auto& [attempt, record] : attempts) bytes += record.size();
    }
    times->store_mb = static_cast<double>(bytes) / (1 << 20);
  }
  ASSIGN_OR_RETURN(rm::RecoveredRmState recovered, rm::DecodeRmState(loaded));
  auto t3 = SteadyClock::now();

  // What the RM builds before Recover (as cmd/rm_daemon.cc Init): the pool
  // with the queue, the container registry, the manager on the store.
  ASSIGN_OR_RETURN(pool::PoolOptions pool_options, pool::PoolOptions::FromMap({}));
  ASSIGN_OR_RETURN(auto pool, pool::SchedulerPool::Create(pool_options, SystemClock::Get()));
  pool::QueueSpec queue;
  queue.name = "root.default";
  RETURN_NOT_OK(pool->SetQueues({queue}).status());
  rm::ContainerRegistry containers(pool.get());
  NoLauncher launcher;
  NoNodes nodes;
  rm::ApplicationManagerOptions manager_options;
  manager_options.cluster_timestamp_ms = recovered.cluster_timestamp.value_or(kClusterTimestamp);
  manager_options.epoch = recovered.epoch + 1;
  manager_options.max_completed_apps = static_cast<int32_t>(run->apps + 1);
  // Nothing is written back here: the store stays as filled for phase 3.
  rm::ApplicationManager manager(manager_options, pool.get(), &containers, &launcher, &nodes,
                                 SystemClock::Get());
  auto t4 = SteadyClock::now();
  const size_t decoded = recovered.apps.size();
  manager.Recover(std::move(recovered.apps), recovered.last_app_id);
  auto t5 = SteadyClock::now();
  times->open_seconds = Seconds(t1 - t0);
  times->load_seconds = Seconds(t2 - t1);
  times->decode_seconds = Seconds(t3 - t2);
  times->recover_seconds = Seconds(t5 - t4);
  times->total_seconds =
      times->open_seconds + times->load_seconds + times->decode_seconds + times->recover_seconds;

  // Every application back, in the state it was stored in.
  std::map<rm::YarnAppState, int64_t> states;
  int64_t wrong_attempts = 0;
  const std::vector<rm::RmApp> apps = manager.ListApps();
  for (const rm::RmApp& app : apps) {
    ++states[app.yarn_state()];
    const Kind kind = KindOf(app.submission.id.id - 1);
    if (app.attempts.size() != (kind == Kind::kFailed ? 2u : 1u)) ++wrong_attempts;
  }
  run->apps_recovered = static_cast<int64_t>(apps.size());
  const int64_t unfinished = states[rm::YarnAppState::kAccepted] +
                             states[rm::YarnAppState::kRunning] +
                             states[rm::YarnAppState::kSubmitted];
  std::ostringstream lost;
  if (static_cast<int64_t>(decoded) != run->apps) {
    lost << decoded << " of " << run->apps << " applications decoded; ";
  }
  if (run->apps_recovered != run->apps) {
    lost << run->apps_recovered << " of " << run->apps << " applications recovered; ";
  }
  if (states[rm::YarnAppState::kFinished] != run->finished ||
      states[rm::YarnAppState::kFailed] != run->failed ||
      states[rm::YarnAppState::kKilled] != run->killed || unfinished != run->running) {
    lost << "states after reload (finished/failed/killed/unfinished) "
         << states[rm::YarnAppState::kFinished] << "/" << states[rm::YarnAppState::kFailed] << "/"
         << states[rm::YarnAppState::kKilled] << "/" << unfinished << ", stored " << run->finished
         << "/" << run->failed << "/" << run->killed << "/" << run->running << "; ";
  }
  if (wrong_attempts != 0) lost << wrong_attempts << " applications with attempts missing; ";
  if (!lost.str().empty()) return Status::Aborted("reload lost data: " + lost.str());
  return Status::OK();
}

// ---- 3. restart of the real RM -----------------------------------------------

// A child `spindle <args>` with stdout and stderr appended to `log`.
Result<ChildProcess> Spawn(const std::string& binary, const std::vector<std::string>& args,
                           const std::string& log) {
  ChildOptions options;
  options.binary = binary;
  options.args = args;
  options.log_path = log;
  return ChildProcess::Spawn(options);
}

// The cell: one RM child (restartable) and one simulated-nodes child.
class Cell {
 public:
  Cell(const RecoveryBenchOptions& options, std::string work) : options_(options), work_(work) {}
  ~Cell() {
    rm_.Stop(SIGTERM, std::chrono::seconds(10));
    nm_.Stop(SIGTERM, std::chrono::seconds(10));
  }

  Status Configure(const std::string& store_dir, int64_t apps) {
    ASSIGN_OR_RETURN(std::vector<uint16_t> ports, net::PickFreeLoopbackPorts(4));
    client_port_ = ports[0];
    const auto address = [&](int i) { return "127.0.0.1:" + std::to_string(ports[i]); };
    const std::string limit = std::to_string(std::max<int64_t>(10 * apps, 100000));
    // The stored running applications' AMs (1 in 25, 1 GB each) count
    // against the queue's AM limit (maximum-am-resource-percent 1.0 of the
    // cluster) until they re-register or expire: the nodes are sized so that
    // they and the live ones fit twice over, else no new AM is ever placed
    // (M = 10,000 on 20 nodes of 8 GB: 400 GB of stored AMs against 160 GB).
    const int64_t am_mb = (apps / 25 + options_.live_apps + 1) * kAmMemoryMb * 2;
    const int64_t per_node_mb =
        std::max<int64_t>(8192, (am_mb / options_.nodes + 1023) / 1024 * 1024);
    RETURN_NOT_OK(WriteSite(
        work_ + "/rm-conf",
        {
            {"yarn.resourcemanager.address", address(0)},
            {"yarn.resourcemanager.scheduler.address", address(1)},
            {"yarn.resourcemanager.resource-tracker.address", address(2)},
            {"yarn.resourcemanager.admin.address", address(3)},
            {"yarn.resourcemanager.webapp.address", "127.0.0.1:0"},
            {"yarn.resourcemanager.recovery.enabled", "true"},
            {"yarn.resourcemanager.store.class",
             IsZk(options_)
                 ? "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore"
                 : "rocksdb"},
            {"spindle.store.path", store_dir},
            {"hadoop.zk.address", options_.zk_address},
            {"yarn.resourcemanager.zk-state-store.parent-path", ZkParent(apps)},
            {"yarn.resourcemanager.max-completed-applications", std::to_string(apps + 1000)},
            // Placements wait for the nodes, not for the clock.
            {"yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms", "600000"},
            {"yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "200"},
            {"yarn.am.liveness-monitor.expiry-interval-ms", "3600000"},
            {"yarn.scheduler.capacity.root.queues", "default"},
            {"yarn.scheduler.capacity.root.default.capacity", "100"},
            {"yarn.scheduler.capacity.maximum-applications", limit},
            {"yarn.scheduler.capacity.maximum-am-resource-percent", "1.0"},
            {"hadoop.tmp.dir", work_ + "/tmp"},
        }));
    return WriteSite(work_ + "/nm-conf",
                     {
                         {"yarn.resourcemanager.resource-tracker.address", address(2)},
                         {"spindle.nm.rm-retry.max-interval-ms", "50"},
                         {"yarn.nodemanager.resource.memory-mb", std::to_string(per_node_mb)},
                         {"yarn.nodemanager.resource.cpu-vcores", "8"},
                         {"hadoop.tmp.dir", work_ + "/tmp"},
                     });
  }

  // Starts the RM; returns at once (the caller waits for the port).
  Status StartRm() {
    ASSIGN_OR_RETURN(
        rm_, Spawn(options_.binary, {"rm", "--conf", work_ + "/rm-conf"}, work_ + "/rm.log"));
    return Status::OK();
  }

  void KillRm() { rm_.Kill(); }

  Status StartNodes() {
    ASSIGN_OR_RETURN(nm_, Spawn(options_.binary,
                                {"nm", "--conf", work_ + "/nm-conf", "--simulate",
                                 std::to_string(options_.nodes)},
                                work_ + "/nm.log"));
    return Status::OK();
  }

  // A fresh client (the old one's connection died with the RM).
  void NewClient() {
    ipc::RpcClientOptions client_options;
    client_options.connect_timeout = std::chrono::milliseconds(2000);
    client_ = std::make_unique<ipc::RpcClient>(client_options);
  }

  template <typename Req, typename Resp>
  Status Call(const std::string& method, const Req& request, Resp* response) {
    const ipc::ConnectionSpec spec{"127.0.0.1", client_port_,
                                   client_service::kApplicationClientProtocol, kUser, std::nullopt};
    return client_->Call(spec, method, request, response);
  }

  // Polls `done` every few ms until it holds or the timeout (or a child's
  // exit) ends the wait.
  Status WaitFor(const std::string& what, const std::function<bool()>& done) {
    const auto deadline = SteadyClock::now() + std::chrono::seconds(options_.timeout_seconds);
    while (!done()) {
      if (rm_.running() && rm_.Exited()) {
        return Status::IoError("spindle rm exited while waiting for " + what + " (see " + work_ +
                               "/rm.log)");
      }
      if (nm_.running() && nm_.Exited()) {
        return Status::IoError("spindle nm exited while waiting for " + what + " (see " + work_ +
                               "/nm.log)");
      }
      if (SteadyClock::now() > deadline) {
        return Status::TimedOut("no " + what + " in " + std::to_string(options_.timeout_seconds) +
                                " s (see " + work_ + ")");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return Status::OK();
  }

  bool Answers() {
    y::GetClusterMetricsRequestProto request;
    y::GetClusterMetricsResponseProto response;
    return Call("getClusterMetrics", request, &response).ok();
  }

  int64_t ActiveNodes() {
    y::GetClusterMetricsRequestProto request;
    y::GetClusterMetricsResponseProto response;
    if (!Call("getClusterMetrics", request, &response).ok()) return -1;
    return response.cluster_metrics().num_node_managers();
  }

  // Containers the RM has placed, over all nodes.
  int64_t LiveContainers() {
    y::GetClusterNodesRequestProto request;
    y::GetClusterNodesResponseProto response;
    if (!Call("getClusterNodes", request, &response).ok()) return -1;
    int64_t total = 0;
    for (const auto& node : response.nodereports()) total += node.numcontainers();
    return total;
  }

  Result<rm::ApplicationId> Submit(const std::string& name) {
    y::GetNewApplicationRequestProto new_request;
    y::GetNewApplicationResponseProto new_response;
    RETURN_NOT_OK(Call("getNewApplication", new_request, &new_response));
    y::SubmitApplicationRequestProto submit;
    y::ApplicationSubmissionContextProto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = new_response.application_id();
    context->set_application_name(name);
    context->set_queue("default");
    context->set_applicationtype(kLiveType);
    context->set_maxappattempts(1);
    context->mutable_resource()->set_memory(kAmMemoryMb);
    context->mutable_resource()->set_virtual_cores(1);
    // The simulated nodes hold a `sleep` container for its duration.
    context->mutable_am_container_spec()->add_command("sleep 3600");
    y::SubmitApplicationResponseProto submitted;
    RETURN_NOT_OK(Call("submitApplication", submit, &submitted));
    return rm::FromProto(new_response.application_id());
  }

  // The attempt's report, if the RM has one.
  std::optional<y::ApplicationAttemptReportProto> AttemptReport(const rm::ApplicationId& app) {
    y::GetApplicationAttemptReportRequestProto request;
    rm::ToProto(rm::ApplicationAttemptId{app, 1}, request.mutable_application_attempt_id());
    y::GetApplicationAttemptReportResponseProto response;
    if (!Call("getApplicationAttemptReport", request, &response).ok()) return std::nullopt;
    return response.application_attempt_report();
  }

  // Application count per (type, state).
  Result<std::map<std::pair<std::string, int>, int64_t>> AppCounts() {
    y::GetApplicationsRequestProto request;
    y::GetApplicationsResponseProto response;
    RETURN_NOT_OK(Call("getApplications", request, &response));
    std::map<std::pair<std::string, int>, int64_t> counts;
    for (const auto& app : response.applications()) {
      ++counts[{app.applicationtype(), static_cast<int>(app.yarn_application_state())}];
    }
    return counts;
  }

  const std::string& work() const { return work_; }

 private:
  const RecoveryBenchOptions& options_;
  const std::string work_;
  uint16_t client_port_ = 0;
  ChildProcess rm_;
  ChildProcess nm_;
  std::unique_ptr<ipc::RpcClient> client_;
};

bool Unfinished(int state) {
  return state != y::FINISHED && state != y::FAILED && state != y::KILLED;
}

Status Restart(const RecoveryBenchOptions& options, const std::string& store_dir,
               const std::string& work, RecoveryRun* run) {
  Cell cell(options, work);
  RETURN_NOT_OK(cell.Configure(store_dir, run->apps));
  run->nodes = options.nodes;
  run->live_apps = options.live_apps;

  // The first run, on the filled store.
  auto start = SteadyClock::now();
  RETURN_NOT_OK(cell.StartRm());
  cell.NewClient();
  RETURN_NOT_OK(cell.WaitFor("first RM start", [&] { return cell.Answers(); }));
  run->first_start_seconds = Seconds(SteadyClock::now() - start);
  RETURN_NOT_OK(cell.StartNodes());
  RETURN_NOT_OK(
      cell.WaitFor("node registrations", [&] { return cell.ActiveNodes() == options.nodes; }));
  std::vector<rm::ApplicationId> live;
  for (int64_t i = 0; i < options.live_apps; ++i) {
    ASSIGN_OR_RETURN(rm::ApplicationId id, cell.Submit("live-" + std::to_string(i)));
    live.push_back(id);
  }
  // Every live AM container launched on its node.
  std::map<rm::ApplicationId, std::string> am_containers;
  RETURN_NOT_OK(cell.WaitFor("AM containers launched", [&] {
    for (const rm::ApplicationId& id : live) {
      if (am_containers.count(id) > 0) continue;
      auto report = cell.AttemptReport(id);
      if (!report.has_value() ||
          report->yarn_application_attempt_state() != y::APP_ATTEMPT_LAUNCHED ||
          !report->has_am_container_id()) {
        return false;
      }
      am_containers[id] = rm::FromProto(report->am_container_id()).ToString();
    }
    return true;
  }));
  RETURN_NOT_OK(cell.WaitFor("running containers reported",
                             [&] { return cell.LiveContainers() == options.live_apps; }));
  run->containers_before = cell.LiveContainers();
  // Two heartbeats: the nodes have told the RM their containers run.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ASSIGN_OR_RETURN(auto before, cell.AppCounts());

  // SIGKILL, and the restart.
  cell.KillRm();
  start = SteadyClock::now();
  RETURN_NOT_OK(cell.StartRm());
  cell.NewClient();
  RETURN_NOT_OK(cell.WaitFor("restarted RM", [&] { return cell.Answers(); }));
  run->listening_seconds = Seconds(SteadyClock::now() - start);
  ASSIGN_OR_RETURN(rm::ApplicationId probe, cell.Submit("probe"));
  bool nodes_back = false;
  RETURN_NOT_OK(cell.WaitFor("first allocation after restart", [&] {
    if (!nodes_back && cell.ActiveNodes() == options.nodes) {
      nodes_back = true;
      run->nodes_back_seconds = Seconds(SteadyClock::now() - start);
    }
    auto report = cell.AttemptReport(probe);
    return report.has_value() && report->has_am_container_id();
  }));
  run->first_allocation_seconds = Seconds(SteadyClock::now() - start);
  if (!nodes_back) run->nodes_back_seconds = run->first_allocation_seconds;

  // Nothing lost: every application in its state, the live AMs on their
  // containers, every running container (and the new AM's) placed.
  std::ostringstream lost;
  Status containers_back = cell.WaitFor("running containers after restart", [&] {
    return cell.LiveContainers() >= options.live_apps + 1;
  });
  run->containers_after = cell.LiveContainers();
  if (!containers_back.ok() || run->containers_after != options.live_apps + 1) {
    lost << run->containers_after << " containers after restart, expected " << options.live_apps
         << " running + 1 new; ";
  }
  for (const auto& [id, container] : am_containers) {
    auto report = cell.AttemptReport(id);
    if (!report.has_value() || !report->has_am_container_id() ||
        rm::FromProto(report->am_container_id()).ToString() != container ||
        report->yarn_application_attempt_state() != y::APP_ATTEMPT_LAUNCHED) {
      lost << id.ToString() << " lost its attempt or AM container " << container << "; ";
    }
  }
  ASSIGN_OR_RETURN(auto after, cell.AppCounts());
  int64_t total_before = 0, unfinished_before = 0;
  for (const auto& [key, count] : before) {
    total_before += count;
    if (Unfinished(key.second)) unfinished_before += count;
  }
  int64_t unfinished_after = 0;
  for (const auto& [key, count] : after) {
    run->apps_after += count;
    if (Unfinished(key.second)) unfinished_after += count;
    // Finished apps stay as they were.
    if (!Unfinished(key.second)) {
      auto it = before.find(key);
      const int64_t was = it == before.end() ? 0 : it->second;
      if (count != was) {
        lost << key.first << " apps in state " << key.second << ": " << count << ", before " << was
             << "; ";
      }
    }
  }
  if (total_before != run->apps + options.live_apps) {
    lost << "before the kill the RM held " << total_before << " applications, expected "
         << run->apps + options.live_apps << "; ";
  }
  if (run->apps_after != total_before + 1 || unfinished_after != unfinished_before + 1) {
    lost << run->apps_after << " applications after restart (" << unfinished_after
         << " unfinished), " << total_before << " before (" << unfinished_before
         << " unfinished) + 1 new; ";
  }
  if (!lost.str().empty()) return Status::Aborted("restart lost data: " + lost.str());
  run->restarted = true;
  return Status::OK();
}

}  // namespace

Result<std::vector<RecoveryRun>> RunRecoveryBench(const RecoveryBenchOptions& options) {
  if (options.store != "rocksdb" && options.store != "zk") {
    return Status::InvalidArgument("--store is rocksdb or zk, not '" + options.store + "'");
  }
  if (IsZk(options) && options.zk_address.empty()) {
    return Status::InvalidArgument("--store zk needs --zk-address host:port");
  }
  if (options.apps.empty() || options.nodes <= 0 || options.live_apps < 0 ||
      options.timeout_seconds <= 0) {
    return Status::InvalidArgument(
        "--apps needs at least one size; --nodes and --timeout must be positive");
  }
  // Each live AM takes 1 GB of a node's 8 GB; the new AM needs room too.
  if (options.live_apps + 1 > options.nodes * 8) {
    return Status::InvalidArgument("--live-apps must leave room: at most 8 per node, minus one");
  }
  for (int64_t m : options.apps) {
    if (m <= 0 || m >= (int64_t{1} << 30)) {
      return Status::InvalidArgument("--apps sizes must be positive");
    }
  }
  const std::string base =
      (options.dir.empty() ? fs::temp_directory_path().string() : options.dir) +
      "/spindle-bench-recovery-" + std::to_string(getpid());
  std::vector<RecoveryRun> runs;
  Status status = Status::OK();
  for (int64_t m : options.apps) {
    const std::string work = base + "/m" + std::to_string(m);
    std::error_code ec;
    fs::remove_all(work, ec);
    fs::create_directories(work, ec);
    if (ec) {
      status = Status::IoError("cannot create " + work + ": " + ec.message());
      break;
    }
    RecoveryRun run;
    run.apps = m;
    const std::string store_dir = work + "/rmstore";
    status = Fill(options, store_dir, &run);
    if (status.ok()) status = Reload(options, store_dir, &run, &run.after_fill);
    if (status.ok()) status = Reload(options, store_dir, &run, &run.reopened);
    if (status.ok() && !options.skip_restart) status = Restart(options, store_dir, work, &run);
    if (IsZk(options) && !options.keep) {
      Status wiped = rm::ZkRmStateStore(ZkOptions(options, m)).Format();
      if (!wiped.ok()) LOG(WARNING) << "cannot remove " << ZkParent(m) << ": " << wiped.ToString();
    }
    if (!status.ok()) {
      status = status.WithContext("M = " + std::to_string(m));
      break;
    }
    runs.push_back(run);
    if (!options.keep) fs::remove_all(work, ec);
  }
  if (!options.keep && status.ok()) {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
  RETURN_NOT_OK(status);
  return runs;
}

void PrintRecoveryRuns(const RecoveryBenchOptions& options, const std::vector<RecoveryRun>& runs) {
  std::printf(
      "spindle bench recovery: %s state store, apps 80%% finished / 8%% failed (2 attempts) "
      "/ 8%% killed / 4%% running; restart with %lld simulated nodes and %lld running AM "
      "containers\n",
      IsZk(options) ? ("ZooKeeper (" + options.zk_address + ")").c_str() : "RocksDB",
      static_cast<long long>(options.nodes), static_cast<long long>(options.live_apps));
  std::printf("reload in process (Open + Load + DecodeRmState + ApplicationManager::Recover):\n");
  std::printf("%-8s %-10s %9s %8s %8s %8s %9s %9s %10s %9s %5s\n", "apps", "store", "store_mb",
              "fill_s", "open_s", "load_s", "decode_s", "recover_s", "reload_s", "recovered",
              "lost");
  for (const RecoveryRun& r : runs) {
    for (const auto& [label, t] :
         {std::pair{"after-fill", &r.after_fill}, std::pair{"reopened", &r.reopened}}) {
      std::printf("%-8lld %-10s %9.1f %8.2f %8.3f %8.3f %9.3f %9.3f %10.3f %9lld %5d\n",
                  static_cast<long long>(r.apps), label, t->store_mb, r.fill_seconds,
                  t->open_seconds, t->load_seconds, t->decode_seconds, t->recover_seconds,
                  t->total_seconds, static_cast<long long>(r.apps_recovered), 0);
    }
  }
  if (!options.skip_restart) {
    std::printf(
        "restart of `spindle rm` after SIGKILL (times from the restart's fork; first start = the "
        "first run on the filled store):\n");
    std::printf("%-8s %6s %6s %13s %12s %12s %12s %10s %14s %8s\n", "apps", "nodes", "live",
                "first_start_s", "listening_s", "nodes_back_s", "first_alloc_s", "apps_after",
                "containers b/a", "lost");
    for (const RecoveryRun& r : runs) {
      const std::string containers =
          std::to_string(r.containers_before) + "/" + std::to_string(r.containers_after);
      std::printf("%-8lld %6lld %6lld %13.2f %12.3f %12.3f %12.3f %10lld %14s %8d\n",
                  static_cast<long long>(r.apps), static_cast<long long>(r.nodes),
                  static_cast<long long>(r.live_apps), r.first_start_seconds, r.listening_seconds,
                  r.nodes_back_seconds, r.first_allocation_seconds,
                  static_cast<long long>(r.apps_after), containers.c_str(), 0);
    }
  }
  for (const RecoveryRun& r : runs) {
    if (r.apps != 10000) continue;
    std::printf(
        "target: reload of 10,000 apps < 1 s: %.3f s after the fill (%s, %.2fx the target), "
        "%.3f s reopened (%s, %.2fx)\n",
        r.after_fill.total_seconds, r.after_fill.total_seconds < 1.0 ? "met" : "MISSED",
        r.after_fill.total_seconds, r.reopened.total_seconds,
        r.reopened.total_seconds < 1.0 ? "met" : "MISSED", r.reopened.total_seconds);
  }
}

Status WriteRecoveryJson(const std::string& path, const RecoveryBenchOptions& options,
                         const std::vector<RecoveryRun>& runs) {
  std::ofstream out(path);
  out << "{\"bench\":\"recovery\",\"store\":\"" << options.store << "\",\"nodes\":" << options.nodes
      << ",\"live_apps\":" << options.live_apps << ",\"target_reload_10000_seconds\":1.0"
      << ",\"runs\":[";
  for (size_t i = 0; i < runs.size(); ++i) {
    const RecoveryRun& r = runs[i];
    out << (i == 0 ? "" : ",") << "{\"apps\":" << r.apps << ",\"finished\":" << r.finished
        << ",\"failed\":" << r.failed << ",\"killed\":" << r.killed << ",\"running\":" << r.running
        << ",\"fill_seconds\":" << r.fill_seconds;
    for (const auto& [label, t] :
         {std::pair{"after_fill", &r.after_fill}, std::pair{"reopened", &r.reopened}}) {
      out << ",\"" << label << "\":{\"store_mb\":" << t->store_mb
          << ",\"open_seconds\":" << t->open_seconds << ",\"load_seconds\":" << t->load_seconds
          << ",\"decode_seconds\":" << t->decode_seconds
          << ",\"recover_seconds\":" << t->recover_seconds
          << ",\"reload_seconds\":" << t->total_seconds << "}";
    }
    out << ",\"apps_recovered\":" << r.apps_recovered
        << ",\"restarted\":" << (r.restarted ? "true" : "false")
        << ",\"first_start_seconds\":" << r.first_start_seconds
        << ",\"listening_seconds\":" << r.listening_seconds
        << ",\"nodes_back_seconds\":" << r.nodes_back_seconds
        << ",\"first_allocation_seconds\":" << r.first_allocation_seconds
        << ",\"apps_after\":" << r.apps_after << ",\"containers_before\":" << r.containers_before
        << ",\"containers_after\":" << r.containers_after << ",\"lost\":0}";
  }
  out << "]}\n";
  out.close();
  if (!out) return Status::IoError("cannot write " + path);
  return Status::OK();
}

namespace {

Result<std::vector<int64_t>> ParseSizes(const std::string& text) {
  std::vector<int64_t> sizes;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    char* end = nullptr;
    const long long v = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || v <= 0) {
      return Status::InvalidArgument("--apps takes a comma-separated list of sizes, not '" + text +
                                     "'");
    }
    sizes.push_back(v);
  }
  return sizes;
}

}  // namespace

const CommandSpec& RecoveryBenchCommand() {
  static const RecoveryBenchOptions kDefaults;
  static const CommandSpec kSpec{
      "bench recovery",
      "RM restart without loss: store reload time, and SIGKILL to first allocation",
      {FlagSpec::List(
           "apps", "M,...",
           [] {
             std::string out;
             for (int64_t m : kDefaults.apps) {
               out += (out.empty() ? "" : ",") + std::to_string(m);
             }
             return out;
           }(),
           "store sizes, one run each"),
       FlagSpec::Int("nodes", kDefaults.nodes, "simulated nodes K in the restart phase")
           .InRange(1, 1e6),
       FlagSpec::Int("live-apps", 0,
                     "applications whose AM containers run on the nodes at the SIGKILL")
           .InRange(0, 1e8)
           .ComputedDefault("2 x --nodes"),
       FlagSpec::String("dir", "DIR", "", "where each run's store and files go")
           .ComputedDefault("the system temp dir"),
       FlagSpec::Switch("keep", "keep each run's directory"),
       FlagSpec::Switch("no-restart", "skip the restart phase (the child processes)"),
       FlagSpec::Int("timeout", kDefaults.timeout_seconds,
                     "bound, in seconds, on every wait of the restart phase")
           .InRange(1, 1e6),
       FlagSpec::String("binary", "FILE", kDefaults.binary,
                        "the spindle binary to run as rm and nm"),
       FlagSpec::String("json", "FILE", "", "also write the runs as JSON here"),
       FlagSpec::String("store", "KIND", kDefaults.store,
                        "rocksdb, or zk: the ZooKeeper store in ZKRMStateStore's layout"),
       FlagSpec::String("zk-address", "HOST:PORT", "", "the ZooKeeper server(s) of --store zk")},
      "exit status: 0, or 1 if a run failed or lost something"};
  return kSpec;
}

int RecoveryBenchMain(const CommandLine& flags) {
  constexpr char kName[] = "bench recovery";
  RecoveryBenchOptions options;
  auto sizes = ParseSizes(flags.GetString("apps"));
  if (!sizes.ok()) return ReportUsageError(kName, sizes.status());
  options.apps = *sizes;
  options.nodes = flags.GetInt("nodes");
  options.live_apps = flags.Has("live-apps") ? flags.GetInt("live-apps") : 2 * options.nodes;
  options.timeout_seconds = static_cast<int>(flags.GetInt("timeout"));
  options.dir = flags.GetString("dir");
  options.keep = flags.GetBool("keep");
  options.skip_restart = flags.GetBool("no-restart");
  options.binary = flags.GetString("binary");
  options.store = flags.GetString("store");
  options.zk_address = flags.GetString("zk-address");
  auto runs = RunRecoveryBench(options);
  if (!runs.ok()) {
    return ReportFailure(kName, runs.status().WithContext("FAILED"));
  }
  PrintRecoveryRuns(options, *runs);
  if (flags.Has("json")) {
    Status written = WriteRecoveryJson(flags.GetString("json"), options, *runs);
    if (!written.ok()) return ReportFailure(kName, written);
  }
  return 0;
}

}  // namespace spindle::bench
