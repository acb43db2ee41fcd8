#include "bench/wire/wire_driver.h"

#include <glog/logging.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/client_service/record_protos.h"
#include "am_protocol/rm_proxy/rm_failover_proxy.h"
#include "base/child_process.h"
#include "bench/wire/am_container_runtime.h"
#include "bench/wire/async_call.h"
#include "bench/wire/ha_pair.h"
#include "bench/wire/rm_child.h"
#include "bench/wire/rm_failover.h"
#include "bench/wire/simulated_am.h"
#include "bench/wire/timed_tracker.h"
#include "bench/wire/web_scraper.h"
#include "nm_shim/agent/node_agent.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "yarn_service_protos.pb.h"

namespace spindle::bench::wire {

namespace {

namespace y = hadoop::yarn;
namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

constexpr char kApplicationType[] = "SPINDLE-BENCH-WIRE";

double Seconds(SteadyClock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string DefaultUser() {
  const char* user = std::getenv("USER");
  return user != nullptr && *user != '\0' ? user : "spindle";
}

// Runs `task` on `io` and waits for it.
template <typename T>
T OnIo(boost::asio::io_context& io, std::function<T()> task) {
  std::promise<T> promise;
  boost::asio::post(io, [&] { promise.set_value(task()); });
  return promise.get_future().get();
}

// /proc figures of `pid`; zeros when unknown (pid 0) or gone.
ProcessUsage Usage(pid_t pid) {
  if (pid <= 0) return ProcessUsage();
  auto usage = ReadProcessUsage(pid);
  return usage.ok() ? *usage : ProcessUsage();
}

// Counters the main thread samples at the edges of the window.
struct Sample {
  SteadyClock::time_point at;
  int64_t containers = 0;
  int64_t heartbeats = 0;
  int64_t allocate_calls = 0;
  double rm_cpu = 0;
  double self_cpu = 0;
};

class WireDriver final : public AmHost {
 public:
  explicit WireDriver(const WireOptions& options) : options_(options) {}
  ~WireDriver() override;

  Result<WireResult> Run();

  void LaunchAm(const rm::ContainerId& container, const ipc::ClientToken& amrm,
                std::function<void(int32_t)> exit) override;
  void AmContainerKilled(const rm::ContainerId& container) override;

 private:
  // One application of a slot; driver thread only.
  struct App {
    rm::ApplicationId id;
    SteadyClock::time_point submitted;
    bool accepted = false;  // submitApplication answered OK
    std::unique_ptr<SimulatedAm> am;
    std::function<void(int32_t)> exit;  // managed: ends the AM container
    bool done = false;
  };

  Status StartTarget();
  // What the generator's clients and nodes are configured with: the RM's
  // addresses (every rm-id's with HA) and the failover policy's keys.
  rm::Configuration ClientConfiguration() const;
  Status StartNodes();
  size_t RegisteredNodes() const;
  int64_t Heartbeats() const;
  void StopNodes();
  Sample Take();
  // The failover run: SIGKILLs the active RM at t0 + --kill-active-after.
  void KillActive(SteadyClock::time_point t0, const Sample& begin, WireResult* result);
  void FinishFailover(const Sample& end, WireResult* result);
  // ---- driver thread ----
  // An ApplicationClientProtocol call to the RM, failed over with HA.
  template <typename Resp>
  void ClientCall(const std::string& method, const google::protobuf::MessageLite& request,
                  std::function<void(Status, const Resp&)> then);
  void SubmitNext();
  void SlotFreed();
  void RetrySubmitLater();
  void Submit(rm::ApplicationId id);
  void PollReport(App* app);
  // Managed AM: starts it once the RM reports `attempt` LAUNCHED or later.
  void StartWhenLaunched(App* app, rm::ApplicationAttemptId attempt, ipc::ClientToken amrm,
                         SteadyClock::time_point deadline);
  void StartAm(App* app, const rm::ApplicationAttemptId& attempt, ipc::ClientToken amrm);
  void OnAmDone(SimulatedAm* am);
  void CountError(const std::string& method, const Status& s);
  // Sums the applications' bookkeeping into `result`.
  void Collect(WireResult* result);
  // ---- main thread ----
  void VerifyFinalStates(WireResult* result);

  const WireOptions options_;
  std::string work_dir_;
  // The RM (rms_[0]); with HA each rm-id's, in order.
  RmAddresses rm_;
  std::vector<RmAddresses> rms_;
  RmChild rm_child_;
  HaPair ha_pair_;
  pid_t rm_pid_ = 0;
  // The failover run: when the active was killed, and the survivor's CPU
  // then.
  SteadyClock::time_point killed_at_{};
  size_t killed_index_ = 0;
  double survivor_cpu_at_kill_ = 0;

  // Declared before the clients: their destructors post failed calls here.
  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::thread driver_;
  std::unique_ptr<ipc::RpcClient> client_;     // ApplicationClientProtocol
  std::unique_ptr<ipc::RpcClient> am_client_;  // every AM's connection
  std::unique_ptr<RmFailover> failover_;       // where client and AM calls go
  am_protocol::RmRetryPolicy policy_;          // theirs (without HA: no retry)
  AmContext context_;
  // One agent per ResourceTracker connection (--tracker-connections), each
  // with its TimedTracker (owned by the agent).
  std::vector<std::unique_ptr<nm::NodeAgent>> agents_;
  std::vector<TimedTracker*> trackers_;

  // Driver thread.
  std::map<rm::ApplicationId, std::unique_ptr<App>> apps_;
  int64_t apps_submitted_ = 0;
  int64_t app_ids_reused_ = 0;
  pool::LatencyHistogram am_launch_;
  int64_t launch_waits_ = 0;  // attempt reports seen before LAUNCHED
  pool::LatencyHistogram first_container_;
  // Any thread.
  std::atomic<bool> submitting_{false};
  std::atomic<int64_t> live_slots_{0};
};

WireDriver::~WireDriver() {
  StopNodes();
  work_.reset();
  io_.stop();
  if (driver_.joinable()) driver_.join();
  am_client_.reset();
  client_.reset();
  rm_child_.Stop();
  ha_pair_.Stop();
}

template <typename Resp>
void WireDriver::ClientCall(const std::string& method, const google::protobuf::MessageLite& request,
                            std::function<void(Status, const Resp&)> then) {
  std::shared_ptr<google::protobuf::MessageLite> copy(request.New());
  copy->CheckTypeAndMergeFrom(request);
  failover_->Call<Resp>(
      client_.get(), &RmAddresses::client, client_service::kApplicationClientProtocol,
      context_.user, std::nullopt, method, std::move(copy),
      [then = std::move(then)](Status s, const Resp& response, SteadyClock::time_point) {
        then(std::move(s), response);
      });
}

Status WireDriver::StartTarget() {
  if (options_.rm.has_value()) {
    rm_ = *options_.rm;
    rms_ = {rm_};
    rm_pid_ = static_cast<pid_t>(options_.rm_pid);
    return Status::OK();
  }
  if (options_.ha()) {
    RETURN_NOT_OK(ha_pair_.Start(options_, work_dir_));
    rms_ = ha_pair_.addresses();
    rm_ = rms_.front();
    rm_pid_ = ha_pair_.pid(0);
    return Status::OK();
  }
  RETURN_NOT_OK(rm_child_.Start(options_, work_dir_));
  rm_ = rm_child_.addresses();
  rms_ = {rm_};
  rm_pid_ = rm_child_.pid();
  return Status::OK();
}

rm::Configuration WireDriver::ClientConfiguration() const {
  rm::Configuration conf;
  conf.Set("yarn.resourcemanager.resource-tracker.address", rm_.tracker.ToString());
  if (options_.ha()) {
    for (const auto& [key, value] : ha_pair_.ClientProperties()) conf.Set(key, value);
    // RMProxy's failover, quick (Hadoop's default sleep base is the 30 s
    // retry interval): what is timed is the RMs' takeover, not a client's
    // back-off. As the HA chaos test configures its clients.
    conf.Set("yarn.client.failover-sleep-base-ms", "100");
    conf.Set("yarn.client.failover-sleep-max-ms", "1000");
    conf.Set("yarn.resourcemanager.connect.retry-interval.ms", "100");
    conf.Set("yarn.resourcemanager.connect.max-wait.ms",
             std::to_string(options_.timeout_seconds * 1000));
  }
  return conf;
}

Status WireDriver::StartNodes() {
  rm::Configuration conf = ClientConfiguration();
  conf.Set("yarn.nodemanager.resource.memory-mb", std::to_string(options_.node_memory_mb));
  conf.Set("yarn.nodemanager.resource.cpu-vcores", std::to_string(options_.node_vcores));
  conf.Set("hadoop.tmp.dir", work_dir_ + "/nm");
  // Registrations spread over one second; the RM's answers set the pace after.
  conf.Set("spindle.nm.heartbeat.initial-interval-ms", "1000");
  conf.Set("spindle.nm.rm-retry.max-interval-ms", "1000");
  // What the RM's line offers its nodes (no unRegisterNodeManager on 2.6/2.7).
  conf.Set(rm::kHadoopLineKey, options_.hadoop_line);
  nm::NodeAgentOptions agent;
  ASSIGN_OR_RETURN(agent.agent, nm::AgentOptionsFromConfiguration(conf));
  agent.user = context_.user;
  // Only AM launches arrive here.
  agent.cmp_worker_threads = 1;
  agent.wrap_tracker = [this](nm::TrackerTransport* inner) {
    auto timed = std::make_unique<TimedTracker>(inner);
    trackers_.push_back(timed.get());
    return std::unique_ptr<nm::TrackerTransport>(std::move(timed));
  };
  nm::RuntimeFactory runtimes =
      [this](const nm::NodeEnvironment&, nm::EventLoop* loop,
             nm::ContainerListener listener) -> Result<std::unique_ptr<nm::ContainerRuntime>> {
    return std::unique_ptr<nm::ContainerRuntime>(
        std::make_unique<AmContainerRuntime>(this, loop, std::move(listener)));
  };
  // Nodes split over the agents; each agent's nodes share its connection.
  const int64_t agents = std::min(options_.tracker_connections, options_.nodes);
  for (int64_t i = 0; i < agents; ++i) {
    nm::NodeAgentOptions one = agent;
    one.simulated_nodes = options_.nodes / agents + (i < options_.nodes % agents ? 1 : 0);
    ASSIGN_OR_RETURN(auto created, nm::NodeAgent::Create(std::move(one), runtimes));
    agents_.push_back(std::move(created));
    RETURN_NOT_OK(agents_.back()->Start());
  }
  return Status::OK();
}

size_t WireDriver::RegisteredNodes() const {
  size_t n = 0;
  for (const auto& agent : agents_) n += agent->registered_nodes();
  return n;
}

void WireDriver::StopNodes() {
  for (auto& agent : agents_) agent->Stop();
}

int64_t WireDriver::Heartbeats() const {
  int64_t n = 0;
  for (const TimedTracker* t : trackers_) n += t->heartbeats();
  return n;
}

Sample WireDriver::Take() {
  Sample s;
  s.at = SteadyClock::now();
  s.containers = context_.containers_allocated.load();
  s.heartbeats = Heartbeats();
  s.allocate_calls = context_.allocate_calls.load();
  s.rm_cpu = Usage(rm_pid_).cpu_seconds;
  s.self_cpu = Usage(getpid()).cpu_seconds;
  return s;
}

// ---- driver thread ----------------------------------------------------------

void WireDriver::CountError(const std::string& method, const Status& s) {
  ++context_.rpc_errors[method + ": " + s.UserMessage().substr(0, 160)];
}

void WireDriver::SubmitNext() {
  ClientCall<y::GetNewApplicationResponseProto>(
      "getNewApplication", y::GetNewApplicationRequestProto(),
      [this](Status s, const y::GetNewApplicationResponseProto& response) {
        if (!s.ok()) {
          CountError("getNewApplication", s);
          RetrySubmitLater();
          return;
        }
        Submit(rm::FromProto(response.application_id()));
      });
}

void WireDriver::RetrySubmitLater() {
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(100));
  timer->async_wait([this, timer](const boost::system::error_code&) { SlotFreed(); });
}

// A slot's application ended (or could not be submitted): the next one, while
// the window lasts.
void WireDriver::SlotFreed() {
  if (submitting_.load()) {
    SubmitNext();
  } else {
    live_slots_.fetch_sub(1);
  }
}

void WireDriver::Submit(rm::ApplicationId id) {
  if (apps_.count(id) > 0) {
    // getNewApplication handed out an id this run already had (after a
    // failover: the new active's ids must not be the recovered ones').
    ++app_ids_reused_;
    CountError("getNewApplication",
               Status::AlreadyExists("handed out " + id.ToString() + " again"));
    RetrySubmitLater();
    return;
  }
  auto owned = std::make_unique<App>();
  App* app = owned.get();
  app->id = id;
  apps_[id] = std::move(owned);
  y::SubmitApplicationRequestProto request;
  y::ApplicationSubmissionContextProto* context = request.mutable_application_submission_context();
  rm::ToProto(id, context->mutable_application_id());
  context->set_application_name("wire-" + std::to_string(id.id));
  context->set_queue(options_.queue);
  context->set_applicationtype(kApplicationType);
  // One attempt: an AM that fails is the bench's error, never hidden by a
  // retry. Except when the active is killed: an AM container the dead RM
  // allocated and no node started yet is aborted on the new active (not
  // counted as the app's failure), and YARN-5617 (Hadoop 2.8.2, 3.x) never
  // retries an app that asked for a single attempt, so it would fail. Such
  // runs ask for YARN's default, two, as MapReduce and DistributedShell do.
  context->set_maxappattempts(options_.ha() ? 2 : 1);
  context->set_unmanaged_am(options_.unmanaged);
  context->mutable_resource()->set_memory(options_.am_memory_mb);
  context->mutable_resource()->set_virtual_cores(1);
  // Only this generator's nodes know the AMRMToken means "simulate an AM";
  // any other NodeManager would just sleep.
  context->mutable_am_container_spec()->add_command("sleep 3600");
  app->submitted = SteadyClock::now();
  ClientCall<y::SubmitApplicationResponseProto>(
      "submitApplication", request,
      [this, app](Status s, const y::SubmitApplicationResponseProto&) {
        if (!s.ok()) {
          CountError("submitApplication", s);
          app->done = true;
          RetrySubmitLater();
          return;
        }
        app->accepted = true;
        ++apps_submitted_;
        if (options_.unmanaged) PollReport(app);
      });
}

// Unmanaged: the AMRMToken is in the application report once the attempt
// exists (YarnClientImpl waits for ACCEPTED the same way).
void WireDriver::PollReport(App* app) {
  y::GetApplicationReportRequestProto request;
  rm::ToProto(app->id, request.mutable_application_id());
  ClientCall<y::GetApplicationReportResponseProto>(
      "getApplicationReport", request,
      [this, app](Status s, const y::GetApplicationReportResponseProto& response) {
        if (!s.ok()) CountError("getApplicationReport", s);
        const auto& report = response.application_report();
        VLOG(2) << app->id.ToString() << " report: " << s.ToString() << " "
                << report.ShortDebugString();
        if (s.ok() && report.has_am_rm_token() && report.has_currentapplicationattemptid()) {
          const auto& t = report.am_rm_token();
          StartAm(app, rm::FromProto(report.currentapplicationattemptid()),
                  ipc::ClientToken{t.identifier(), t.password(), t.kind(), t.service()});
          return;
        }
        if (s.ok() && (report.yarn_application_state() == y::FAILED ||
                       report.yarn_application_state() == y::KILLED ||
                       report.yarn_application_state() == y::FINISHED)) {
          // Ended before its AM could start (e.g. rejected): the slot moves
          // on; the final check reports the application.
          app->done = true;
          SlotFreed();
          return;
        }
        auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(5));
        timer->async_wait(
            [this, app, timer](const boost::system::error_code&) { PollReport(app); });
      });
}

void WireDriver::LaunchAm(const rm::ContainerId& container, const ipc::ClientToken& amrm,
                          std::function<void(int32_t)> exit) {
  boost::asio::post(io_, [this, container, amrm, exit = std::move(exit)]() mutable {
    auto it = apps_.find(container.attempt.app);
    if (it == apps_.end() || it->second->am != nullptr) {
      CountError("startContainers", Status::InvalidArgument("AM container " + container.ToString() +
                                                            " of no application of this run"));
      exit(1);
      return;
    }
    it->second->exit = std::move(exit);
    StartWhenLaunched(it->second.get(), container.attempt, amrm,
                      SteadyClock::now() + std::chrono::seconds(options_.timeout_seconds));
  });
}

// A real AM process starts after the NodeManager answered startContainers,
// and takes long enough to start that the RM has moved its attempt to
// LAUNCHED (AMLauncher's event after that answer) before it registers. Ours
// would be running before the answer left this process: on Spindle the
// early registration is refused and retried, but a Java RM 2.6 takes it in
// ALLOCATED, ignores the event as an invalid transition and the attempt
// never runs. So the AM waits for the RM's own word, through the public
// getApplicationAttemptReport (every line since 2.4), polled every 5 ms.
// Past the deadline it starts anyway and the register retries decide.
void WireDriver::StartWhenLaunched(App* app, rm::ApplicationAttemptId attempt,
                                   ipc::ClientToken amrm, SteadyClock::time_point deadline) {
  if (app->done || app->exit == nullptr) return;  // the container was killed meanwhile
  y::GetApplicationAttemptReportRequestProto request;
  rm::ToProto(attempt, request.mutable_application_attempt_id());
  ClientCall<y::GetApplicationAttemptReportResponseProto>(
      "getApplicationAttemptReport", request,
      [this, app, attempt, amrm = std::move(amrm), deadline](
          Status s, const y::GetApplicationAttemptReportResponseProto& response) mutable {
        if (app->done || app->exit == nullptr) return;
        const auto state = response.application_attempt_report().yarn_application_attempt_state();
        const bool launched = s.ok() && state >= y::APP_ATTEMPT_LAUNCHED;
        if (!s.ok()) CountError("getApplicationAttemptReport", s);
        if (launched || !s.ok() || SteadyClock::now() > deadline) {
          StartAm(app, attempt, std::move(amrm));
          return;
        }
        ++launch_waits_;
        auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(5));
        timer->async_wait([this, app, attempt, amrm = std::move(amrm), deadline,
                           timer](const boost::system::error_code&) mutable {
          StartWhenLaunched(app, attempt, std::move(amrm), deadline);
        });
      });
}

void WireDriver::AmContainerKilled(const rm::ContainerId& container) {
  boost::asio::post(io_, [this, container] {
    auto it = apps_.find(container.attempt.app);
    if (it == apps_.end() || it->second->am == nullptr) return;
    it->second->exit = nullptr;  // the container is over already
    it->second->am->Abort("its AM container was killed");
  });
}

void WireDriver::StartAm(App* app, const rm::ApplicationAttemptId& attempt, ipc::ClientToken amrm) {
  // Whatever service the token names, this generator reaches the scheduler
  // at the address it was given.
  amrm.service = rm_.scheduler.ToString();
  app->am = std::make_unique<SimulatedAm>(&context_, attempt, std::move(amrm),
                                          [this](SimulatedAm* am) { OnAmDone(am); });
  app->am->Start();
}

void WireDriver::OnAmDone(SimulatedAm* am) {
  auto it = apps_.find(am->attempt().app);
  CHECK(it != apps_.end());
  App* app = it->second.get();
  if (app->done) return;
  app->done = true;
  if (am->registered_at() != SteadyClock::time_point{}) {
    am_launch_.Record(am->registered_at() - app->submitted);
  }
  if (am->first_container_at() != SteadyClock::time_point{}) {
    first_container_.Record(am->first_container_at() - am->first_ask_at());
  }
  if (app->exit) {
    // The AM process "exits": its container completes on the node.
    app->exit(am->state() == SimulatedAm::State::kDone ? 0 : 1);
    app->exit = nullptr;
  }
  SlotFreed();
}

void WireDriver::Collect(WireResult* r) {
  r->apps_submitted = apps_submitted_;
  r->failover.app_ids_reused = app_ids_reused_;
  std::set<int64_t> timestamps;
  for (const auto& [id, app] : apps_) {
    if (app->accepted) timestamps.insert(id.cluster_timestamp);
  }
  r->failover.cluster_timestamps = static_cast<int64_t>(timestamps.size());
  for (const auto& [id, app] : apps_) {
    if (!app->accepted) continue;
    const SimulatedAm* am = app->am.get();
    if (am == nullptr) continue;
    if (am->registered_at() != SteadyClock::time_point{}) ++r->apps_registered;
    if (am->state() == SimulatedAm::State::kDone) ++r->apps_unregistered;
    if (am->state() == SimulatedAm::State::kFailed) {
      ++r->apps_failed;
      ++r->am_failures[am->failure().substr(0, 160)];
    }
    r->containers_allocated += am->allocated();
    r->containers_excess += am->excess();
    r->containers_released += am->released();
    r->containers_completed += am->completed();
    r->containers_duplicated += am->duplicates();
    r->failover.containers_redelivered += am->redelivered();
    r->failover.containers_unconfirmed += am->unconfirmed();
    r->unexpected_completions += am->unexpected_completions();
    r->containers_outstanding += am->outstanding();
  }
  r->rpc_errors = context_.rpc_errors;
  r->register_retries = context_.register_retries.load();
  r->launch_waits = launch_waits_;
  r->allocate = LatencySummary::Of(context_.allocate_latency);
  r->am_register = LatencySummary::Of(context_.register_latency);
  r->am_launch = LatencySummary::Of(am_launch_);
  r->first_container = LatencySummary::Of(first_container_);
}

// ---- main thread ------------------------------------------------------------

void WireDriver::VerifyFinalStates(WireResult* r) {
  std::vector<rm::ApplicationId> pending = OnIo<std::vector<rm::ApplicationId>>(io_, [this] {
    std::vector<rm::ApplicationId> ids;
    for (const auto& [id, app] : apps_) {
      if (app->accepted) ids.push_back(id);
    }
    return ids;
  });
  // A managed application is FINISHED once its AM container's completion
  // reached the RM (a heartbeat after the AM unregistered). With HA the
  // reports come from whichever rm-id is active (RMProxy's failover).
  std::vector<am_protocol::RmProxyTarget> targets;
  for (size_t i = 0; i < rms_.size(); ++i) {
    targets.push_back(
        {options_.ha() ? HaPair::RmIds()[i] : "", rms_[i].client.host, rms_[i].client.port});
  }
  am_protocol::RmFailoverProxyOptions proxy_options;
  proxy_options.protocol = client_service::kApplicationClientProtocol;
  proxy_options.user = context_.user;
  proxy_options.policy = policy_;
  proxy_options.deadline = SteadyClock::now() + std::chrono::seconds(options_.timeout_seconds);
  am_protocol::RmFailoverProxy reports(client_.get(), std::move(targets), proxy_options);
  const auto deadline = SteadyClock::now() + std::chrono::seconds(options_.timeout_seconds);
  while (!pending.empty()) {
    std::vector<rm::ApplicationId> still;
    for (const rm::ApplicationId& id : pending) {
      y::GetApplicationReportRequestProto request;
      rm::ToProto(id, request.mutable_application_id());
      y::GetApplicationReportResponseProto response;
      Status s = reports.Call("getApplicationReport", request, &response);
      const auto& report = response.application_report();
      if (s.IsRemote() && s.java_class() == rm::yarn::kApplicationNotFound) {
        // Acknowledged by an RM, unknown to the one answering now.
        ++r->failover.apps_lost;
        ++r->apps_not_finished;
        ++r->am_failures["application unknown to the RM at the end: " + id.ToString()];
        continue;
      }
      if (s.ok() && report.yarn_application_state() == y::FINISHED &&
          report.final_application_status() == y::APP_SUCCEEDED) {
        ++r->apps_finished;
      } else if (s.ok() && (report.yarn_application_state() == y::FINISHED ||
                            report.yarn_application_state() == y::FAILED ||
                            report.yarn_application_state() == y::KILLED)) {
        ++r->apps_not_finished;
        ++r->am_failures["application ended " +
                         y::YarnApplicationStateProto_Name(report.yarn_application_state()) + "/" +
                         std::string(rm::Name(
                             client_service::FromProto(report.final_application_status())))];
      } else {
        still.push_back(id);
      }
    }
    pending.swap(still);
    if (pending.empty()) break;
    if (SteadyClock::now() > deadline) {
      r->apps_not_finished += static_cast<int64_t>(pending.size());
      ++r->am_failures["application not FINISHED " + std::to_string(options_.timeout_seconds) +
                       " s after the run, e.g. " + pending.front().ToString()];
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void WireDriver::KillActive(SteadyClock::time_point t0, const Sample& begin, WireResult* r) {
  FailoverResult& f = r->failover;
  f.ran = true;
  f.zk_timeout_ms = options_.zk_timeout_ms;
  std::this_thread::sleep_until(t0 + std::chrono::seconds(options_.kill_active_after_seconds));
  const Sample before = Take();
  f.containers_per_second_before =
      static_cast<double>(before.containers - begin.containers) / Seconds(before.at - begin.at);
  const std::optional<size_t> active = ha_pair_.ActiveIndex();
  // rm1 was active at the start; if neither answers now, rm1 is killed.
  killed_index_ = active.value_or(0);
  f.killed = HaPair::RmIds()[killed_index_];
  ha_pair_.Kill(killed_index_);  // reaped: nothing it sent arrives after this
  killed_at_ = SteadyClock::now();
  f.kill_at_seconds = Seconds(killed_at_ - t0);
  rm_pid_ = ha_pair_.pid(1 - killed_index_);
  survivor_cpu_at_kill_ = Usage(rm_pid_).cpu_seconds;
  OnIo<bool>(io_, [this] {
    context_.killed_at = killed_at_;
    return true;
  });
  LOG(INFO) << "SIGKILLed the active RM " << f.killed << " " << Seconds(killed_at_ - t0)
            << " s into the run";
}

void WireDriver::FinishFailover(const Sample& end, WireResult* r) {
  FailoverResult& f = r->failover;
  const auto [first, containers_then] =
      OnIo<std::pair<SteadyClock::time_point, int64_t>>(io_, [this] {
        return std::make_pair(context_.first_allocate_after_kill,
                              context_.containers_at_first_allocate_after_kill);
      });
  if (first != SteadyClock::time_point{}) {
    f.failover_seconds = Seconds(first - killed_at_);
    if (end.at > first) {
      f.containers_per_second_after =
          static_cast<double>(end.containers - containers_then) / Seconds(end.at - first);
    }
  }
  const std::optional<size_t> serving = ha_pair_.ActiveIndex();
  f.serving = serving.has_value() ? HaPair::RmIds()[*serving] : "none";
}

Result<WireResult> WireDriver::Run() {
  RETURN_NOT_OK(options_.Validate());
  context_.user = options_.user.empty() ? DefaultUser() : options_.user;
  work_dir_ = options_.work_dir.empty() ? fs::temp_directory_path().string() +
                                              "/spindle-bench-wire-" + std::to_string(getpid())
                                        : options_.work_dir;
  std::error_code ec;
  fs::create_directories(work_dir_, ec);
  if (ec) return Status::IoError("cannot create " + work_dir_ + ": " + ec.message());
  RETURN_NOT_OK(StartTarget());

  if (options_.ha()) {
    ASSIGN_OR_RETURN(policy_,
                     am_protocol::RmRetryPolicy::FromConfiguration(ClientConfiguration(), true));
  } else {
    // One RM: every error is the caller's to count, never retried.
    policy_.max_retries = 0;
  }
  failover_ = std::make_unique<RmFailover>(&io_, rms_, policy_);
  work_.emplace(io_.get_executor());
  driver_ = std::thread([this] { io_.run(); });
  ipc::RpcClientOptions client_options;
  client_options.connect_timeout = std::chrono::seconds(options_.timeout_seconds);
  client_ = std::make_unique<ipc::RpcClient>(client_options);
  // Finished AMs' connections close soon; thousands of apps pass through.
  client_options.max_idle = std::chrono::milliseconds(2000);
  am_client_ = std::make_unique<ipc::RpcClient>(client_options);
  context_.io = &io_;
  context_.client = am_client_.get();
  context_.rm = failover_.get();
  context_.spec.containers = options_.containers_per_app;
  context_.spec.memory_mb = options_.memory_mb;
  context_.spec.vcores = static_cast<int32_t>(options_.vcores);
  context_.spec.hold = std::chrono::milliseconds(options_.container_ms);
  context_.spec.allocate_interval = std::chrono::milliseconds(options_.allocate_ms);

  WireResult result;
  result.target = options_.rm.has_value()
                      ? "--rm " + rm_.client.ToString() + "," + rm_.scheduler.ToString() + "," +
                            rm_.tracker.ToString()
                  : options_.ha() ? "an HA pair of spindle rm children (rm1 pid " +
                                        std::to_string(ha_pair_.pid(0)) + ", rm2 pid " +
                                        std::to_string(ha_pair_.pid(1)) + ") on ZooKeeper"
                                  : "spindle rm child (pid " + std::to_string(rm_pid_) + ")";
  result.hadoop_ceiling_per_second =
      static_cast<double>(options_.nodes) * 1000.0 / static_cast<double>(options_.heartbeat_ms);

  const auto nodes_start = SteadyClock::now();
  RETURN_NOT_OK(StartNodes());
  const auto register_deadline = nodes_start + std::chrono::seconds(options_.timeout_seconds);
  while (RegisteredNodes() < static_cast<size_t>(options_.nodes)) {
    if (SteadyClock::now() > register_deadline) {
      return Status::TimedOut(std::to_string(RegisteredNodes()) + " of " +
                              std::to_string(options_.nodes) + " nodes registered in " +
                              std::to_string(options_.timeout_seconds) + " s");
    }
    if (!options_.rm.has_value() && !options_.ha() && rm_child_.Exited()) {
      return Status::IoError("spindle rm exited (see " + rm_child_.log() + ")");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  result.register_seconds = Seconds(SteadyClock::now() - nodes_start);

  // The window: the slots submit until --seconds have passed.
  const auto t0 = SteadyClock::now();
  submitting_ = true;
  live_slots_ = options_.apps;
  boost::asio::post(io_, [this] {
    for (int64_t i = 0; i < options_.apps; ++i) SubmitNext();
  });
  std::this_thread::sleep_until(t0 + std::chrono::seconds(options_.warmup_seconds));
  std::unique_ptr<WebScraper> scraper;
  if (options_.web_scrapers > 0) {
    scraper = std::make_unique<WebScraper>(rm_.web.host, rm_.web.port,
                                           static_cast<int>(options_.web_scrapers));
    scraper->Start();
  }
  const Sample begin = Take();
  OnIo<bool>(io_, [this] {
    context_.allocate_latency.Clear();
    return true;
  });
  for (TimedTracker* t : trackers_) t->ResetLatency();
  const int64_t web_begin = scraper != nullptr ? scraper->requests() : 0;
  if (options_.ha()) KillActive(t0, begin, &result);
  std::this_thread::sleep_until(t0 + std::chrono::seconds(options_.seconds));
  const Sample end = Take();
  if (options_.ha()) FinishFailover(end, &result);
  if (scraper != nullptr) {
    const int64_t web_requests = scraper->requests() - web_begin;
    scraper->Stop();
    result.web = LatencySummary::Of(scraper->latency());
    result.web_errors = scraper->errors();
    result.web_requests_per_second = static_cast<double>(web_requests) / Seconds(end.at - begin.at);
  }
  submitting_ = false;
  const double window = Seconds(end.at - begin.at);
  result.window_seconds = window;
  result.containers_per_second = static_cast<double>(end.containers - begin.containers) / window;
  result.heartbeats_per_second = static_cast<double>(end.heartbeats - begin.heartbeats) / window;
  result.allocate_calls_per_second =
      static_cast<double>(end.allocate_calls - begin.allocate_calls) / window;
  pool::LatencyHistogram heartbeat_latency;
  for (const TimedTracker* t : trackers_) heartbeat_latency.Merge(t->HeartbeatLatency());
  result.heartbeat = LatencySummary::Of(heartbeat_latency);
  const auto allocate_window =
      OnIo<pool::LatencyHistogram>(io_, [this] { return context_.allocate_latency; });
  if (options_.ha()) {
    // The survivor's, from the kill.
    result.rm_cpu_percent =
        100 * (end.rm_cpu - survivor_cpu_at_kill_) / Seconds(end.at - killed_at_);
    const ProcessUsage rm = Usage(rm_pid_);
    result.rm_rss_mb = rm.rss_mb;
    result.rm_peak_rss_mb = rm.peak_rss_mb;
  } else if (rm_pid_ > 0) {
    result.rm_cpu_percent = 100 * (end.rm_cpu - begin.rm_cpu) / window;
    const ProcessUsage rm = Usage(rm_pid_);
    result.rm_rss_mb = rm.rss_mb;
    result.rm_peak_rss_mb = rm.peak_rss_mb;
  }
  result.generator_cpu_percent = 100 * (end.self_cpu - begin.self_cpu) / window;
  result.generator_rss_mb = Usage(getpid()).rss_mb;

  // Drain: every slot's last application ends.
  const auto drain_deadline = SteadyClock::now() + std::chrono::seconds(options_.timeout_seconds);
  while (live_slots_.load() > 0 && SteadyClock::now() < drain_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  OnIo<bool>(io_, [this, &result] {
    Collect(&result);
    return true;
  });
  result.allocate = LatencySummary::Of(allocate_window);
  VerifyFinalStates(&result);
  for (const TimedTracker* t : trackers_) result.heartbeat_errors += t->errors();
  if (options_.ha()) {
    // The nodes' calls to the dead RM, before they failed over.
    result.failover.heartbeat_errors = result.heartbeat_errors;
    result.heartbeat_errors = 0;
    result.failover.am_resyncs = OnIo<int64_t>(io_, [this] { return context_.resyncs; });
    result.failover.finishes_unanswered =
        OnIo<int64_t>(io_, [this] { return context_.finishes_unanswered; });
    result.failover.client_failovers =
        OnIo<int64_t>(io_, [this] { return failover_->failovers(); });
  }
  StopNodes();
  rm_child_.Stop();
  ha_pair_.Stop();
  if (options_.work_dir.empty() && CheckBookkeeping(options_, result).ok()) {
    fs::remove_all(work_dir_, ec);
  }
  return result;
}

}  // namespace

Result<WireResult> RunWire(const WireOptions& options) {
  WireDriver driver(options);
  return driver.Run();
}

}  // namespace spindle::bench::wire
