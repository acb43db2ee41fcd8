#include "nm_shim/agent/container_manager.h"

#include <glog/logging.h>

#include "nm_shim/agent/launch_context.h"
#include "rm/security/yarn_id_protos.h"

namespace spindle::nm {

namespace y = hadoop::yarn;

namespace {

void AddFailure(const y::ContainerIdProto& id, const Status& status,
                google::protobuf::RepeatedPtrField<y::ContainerExceptionMapProto>* failed) {
  auto* entry = failed->Add();
  *entry->mutable_container_id() = id;
  auto* e = entry->mutable_exception();
  e->set_message(status.message());
  e->set_class_name(status.java_class().empty() ? java::kYarnException : status.java_class());
  e->set_trace(e->class_name() + ": " + status.message());
}

}  // namespace

ContainerManager::ContainerManager(ContainerManagerOptions options, const NodeTokenKeys* keys,
                                   const Clock* clock)
    : options_(std::move(options)), keys_(keys), clock_(clock) {}

Status ContainerManager::CheckAcceptingNewContainers() const {
  if (accepting_new_.load()) return Status::OK();
  return Status::Remote(java::kNmNotYetReady,
                        "Rejecting new containers as NodeManager has not yet connected with "
                        "ResourceManager");
}

ContainerListener ContainerManager::Listener() {
  return ContainerListener{[this](const rm::ContainerId& id) { OnRunning(id); },
                           [this](const ContainerExit& exit) { OnExit(exit); }};
}

void ContainerManager::StartContainers(const NmTokenInfo& caller,
                                       const y::StartContainersRequestProto& request,
                                       y::StartContainersResponseProto* response) {
  CHECK(runtime_ != nullptr) << "set_runtime before serving";
  const int64_t now_ms = clock_->WallMillis();
  std::vector<ContainerLaunchSpec> launches;
  for (const auto& start : request.start_container_request()) {
    auto verified = VerifyContainerToken(start.container_token(), options_.node, *keys_,
                                         caller.attempt, now_ms);
    if (!verified.ok()) {
      y::ContainerIdProto id;
      y::ContainerTokenIdentifierProto parsed;
      if (parsed.ParseFromString(start.container_token().identifier())) id = parsed.containerid();
      LOG(WARNING) << options_.node.ToString() << ": refused to start "
                   << rm::FromProto(id).ToString() << ": " << verified.status().message();
      AddFailure(id, verified.status(), response->mutable_failed_requests());
      continue;
    }
    const y::ContainerIdProto& id_proto = verified->identifier.containerid();
    const rm::ContainerId& id = verified->container;
    const auto& clc = start.container_launch_context();
    if (clc.service_data_size() > 0) {
      AddFailure(id_proto,
                 Status::Remote(java::kInvalidAuxService,
                                "The auxService:" + clc.service_data(0).key() +
                                    " do not exist (auxiliary services are Java plug-ins; "
                                    "spindle nm has none)"),
                 response->mutable_failed_requests());
      continue;
    }
    {
      MutexLock lock(&mu_);
      if (containers_.count(id) > 0 || used_tokens_.count(id) > 0) {
        AddFailure(id_proto,
                   Status::Remote(java::kYarnException,
                                  "Unauthorized request to start container.\nAttempt to relaunch "
                                  "the same container with id " +
                                      id.ToString() + "."),
                   response->mutable_failed_requests());
        continue;
      }
      used_tokens_[id] = verified->identifier.expirytimestamp();
      Record& r = containers_[id];
      r.id = id;
      r.resource = verified->identifier.resource();
      r.priority = verified->identifier.priority().priority();
      r.creation_time = verified->identifier.creationtime();
      apps_.insert(id.attempt.app);
    }
    launches.push_back(DecodeLaunchContext(clc, verified->identifier));
    *response->add_succeeded_requests() = id_proto;
  }
  for (const auto& spec : launches) {
    VLOG(1) << options_.node.ToString() << ": starting " << spec.container.ToString();
    runtime_->Launch(spec);
    std::optional<std::pair<int32_t, std::string>> held;
    {
      MutexLock lock(&mu_);
      auto it = containers_.find(spec.container);
      if (it == containers_.end()) continue;
      it->second.launched = true;
      held = std::move(it->second.held_kill);
    }
    if (held.has_value()) runtime_->Kill(spec.container, held->first, held->second);
  }
}

Status ContainerManager::Authorize(const NmTokenInfo& caller, const rm::ContainerId& id,
                                   bool stop) const {
  if (id.attempt.app != caller.attempt.app) {
    return Status::Remote(java::kYarnException,
                          caller.attempt.ToString() + " attempted to " +
                              (stop ? "stop" : "get status for") +
                              " non-application container : " + id.ToString(),
                          Status::Code::kUnauthorized);
  }
  if (containers_.count(id) == 0) {
    return Status::Remote(java::kYarnException,
                          "Container " + id.ToString() + " is not handled by this NodeManager",
                          Status::Code::kNotFound);
  }
  return Status::OK();
}

void ContainerManager::StopContainers(const NmTokenInfo& caller,
                                      const y::StopContainersRequestProto& request,
                                      y::StopContainersResponseProto* response) {
  std::vector<rm::ContainerId> kill;
  {
    MutexLock lock(&mu_);
    for (const auto& id_proto : request.container_id()) {
      const rm::ContainerId id = rm::FromProto(id_proto);
      Status ok = Authorize(caller, id, /*stop=*/true);
      if (!ok.ok()) {
        AddFailure(id_proto, ok, response->mutable_failed_requests());
        continue;
      }
      if (containers_[id].state != State::kComplete) kill.push_back(id);
      *response->add_succeeded_requests() = id_proto;
    }
  }
  KillAll(kill, kExitKilledByAppMaster, "Container killed by the ApplicationMaster.");
}

void ContainerManager::GetContainerStatuses(const NmTokenInfo& caller,
                                            const y::GetContainerStatusesRequestProto& request,
                                            y::GetContainerStatusesResponseProto* response) {
  MutexLock lock(&mu_);
  for (const auto& id_proto : request.container_id()) {
    const rm::ContainerId id = rm::FromProto(id_proto);
    Status ok = Authorize(caller, id, /*stop=*/false);
    if (!ok.ok()) {
      AddFailure(id_proto, ok, response->mutable_failed_requests());
      continue;
    }
    *response->add_status() = StatusOf(containers_.at(id));
  }
}

y::ContainerStateProto ContainerManager::WireState(State state) {
  // A Java NodeManager reports every container that is not DONE as RUNNING,
  // the ones still NEW or localizing included (ContainerImpl.getCurrentState,
  // 2.6.0 and 3.3.0 alike), and a Java RM takes any other state in a
  // heartbeat as finished (RMNodeImpl.handleContainerStatus): a C_NEW there
  // completed a container the AM had just started (exit status -1000).
  return state == State::kComplete ? y::C_COMPLETE : y::C_RUNNING;
}

y::ContainerStatusProto ContainerManager::StatusOf(const Record& r) const {
  y::ContainerStatusProto s;
  rm::ToProto(r.id, s.mutable_container_id());
  s.set_state(WireState(r.state));
  s.set_exit_status(r.exit_status);
  s.set_diagnostics(r.diagnostics);
  *s.mutable_capability() = r.resource;
  return s;
}

void ContainerManager::OnRunning(const rm::ContainerId& id) {
  MutexLock lock(&mu_);
  auto it = containers_.find(id);
  if (it != containers_.end() && it->second.state == State::kNew) {
    it->second.state = State::kRunning;
  }
}

void ContainerManager::OnExit(const ContainerExit& exit) {
  std::vector<rm::ApplicationId> cleanups;
  {
    MutexLock lock(&mu_);
    auto it = containers_.find(exit.container);
    if (it == containers_.end() || it->second.state == State::kComplete) return;
    Record& r = it->second;
    r.state = State::kComplete;
    r.exit_status = exit.exit_status;
    r.diagnostics = exit.diagnostics;
    VLOG(1) << options_.node.ToString() << ": " << exit.container.ToString() << " exited with "
            << exit.exit_status;
    cleanups = FinishedCleanups();
  }
  for (const auto& app : cleanups) runtime_->CleanupApplication(app);
}

std::vector<y::ContainerStatusProto> ContainerManager::HeartbeatStatuses() {
  MutexLock lock(&mu_);
  std::vector<y::ContainerStatusProto> out;
  out.reserve(containers_.size());
  for (auto& [id, r] : containers_) {
    if (r.state != State::kComplete) {
      out.push_back(StatusOf(r));
    } else if (!r.acked) {
      r.in_flight = true;
      out.push_back(StatusOf(r));
    }
  }
  return out;
}

void ContainerManager::HeartbeatSucceeded() {
  const TimePoint now = clock_->Now();
  const int64_t now_ms = clock_->WallMillis();
  const auto retention = std::chrono::milliseconds(options_.completed_retention_ms);
  MutexLock lock(&mu_);
  for (auto it = containers_.begin(); it != containers_.end();) {
    Record& r = it->second;
    if (r.in_flight) {
      r.in_flight = false;
      r.acked = true;
      r.acked_at = now;
    }
    if (r.acked && now - r.acked_at >= retention) {
      it = containers_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = used_tokens_.begin(); it != used_tokens_.end();) {
    if (it->second < now_ms && containers_.count(it->first) == 0) {
      it = used_tokens_.erase(it);
    } else {
      ++it;
    }
  }
}

std::vector<y::NMContainerStatusProto> ContainerManager::RegistrationStatuses() const {
  MutexLock lock(&mu_);
  std::vector<y::NMContainerStatusProto> out;
  for (const auto& [id, r] : containers_) {
    y::NMContainerStatusProto s;
    rm::ToProto(id, s.mutable_container_id());
    s.set_container_state(WireState(r.state));
    *s.mutable_resource() = r.resource;
    s.mutable_priority()->set_priority(r.priority);
    s.set_diagnostics(r.diagnostics);
    s.set_container_exit_status(r.exit_status);
    s.set_creation_time(r.creation_time);
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<rm::ApplicationId> ContainerManager::RunningApplications() const {
  MutexLock lock(&mu_);
  return {apps_.begin(), apps_.end()};
}

void ContainerManager::KillAll(const std::vector<rm::ContainerId>& ids, int32_t exit_status,
                               const std::string& diagnostics) {
  for (const auto& id : ids) {
    {
      MutexLock lock(&mu_);
      auto it = containers_.find(id);
      if (it != containers_.end() && !it->second.launched) {
        // Started but not yet handed to the runtime: killed right after.
        it->second.held_kill = std::make_pair(exit_status, diagnostics);
        continue;
      }
    }
    runtime_->Kill(id, exit_status, diagnostics);
  }
}

void ContainerManager::CleanupContainers(const std::vector<rm::ContainerId>& ids) {
  std::vector<rm::ContainerId> kill;
  {
    MutexLock lock(&mu_);
    for (const auto& id : ids) {
      auto it = containers_.find(id);
      if (it != containers_.end() && it->second.state != State::kComplete) kill.push_back(id);
    }
  }
  KillAll(kill, kExitKilledByResourceManager, "Container Killed by ResourceManager");
}

void ContainerManager::SignalContainers(const std::vector<SignalRequest>& signals) {
  std::vector<SignalRequest> deliver;
  {
    MutexLock lock(&mu_);
    for (const SignalRequest& signal : signals) {
      auto it = containers_.find(signal.container);
      if (it != containers_.end() && it->second.state == State::kRunning) deliver.push_back(signal);
    }
  }
  for (const SignalRequest& signal : deliver)
    runtime_->Signal(signal.container, signal.signal_number);
}

void ContainerManager::CleanupApplications(const std::vector<rm::ApplicationId>& apps) {
  std::vector<rm::ContainerId> kill;
  std::vector<rm::ApplicationId> cleanups;
  {
    MutexLock lock(&mu_);
    for (const auto& app : apps) {
      if (apps_.count(app) == 0) continue;
      cleaning_.insert(app);
      for (const auto& [id, r] : containers_) {
        if (id.attempt.app == app && r.state != State::kComplete) kill.push_back(id);
      }
    }
    cleanups = FinishedCleanups();
  }
  for (const auto& app : cleanups) runtime_->CleanupApplication(app);
  KillAll(kill, kExitKilledAfterAppCompletion, "Container killed on application-finish event");
}

std::vector<rm::ApplicationId> ContainerManager::FinishedCleanups() {
  std::vector<rm::ApplicationId> done;
  for (auto it = cleaning_.begin(); it != cleaning_.end();) {
    const rm::ApplicationId app = *it;
    bool live = false;
    for (const auto& [id, r] : containers_) {
      if (id.attempt.app == app && r.state != State::kComplete) live = true;
    }
    if (live) {
      ++it;
      continue;
    }
    // The app is over here: its completed containers go too, once reported.
    for (auto c = containers_.begin(); c != containers_.end();) {
      if (c->first.attempt.app == app && c->second.acked) {
        c = containers_.erase(c);
      } else {
        ++c;
      }
    }
    apps_.erase(app);
    done.push_back(app);
    it = cleaning_.erase(it);
  }
  return done;
}

void ContainerManager::RemoveCompleted(const std::vector<rm::ContainerId>& ids) {
  MutexLock lock(&mu_);
  for (const auto& id : ids) {
    auto it = containers_.find(id);
    if (it != containers_.end() && it->second.state == State::kComplete && !it->second.in_flight) {
      containers_.erase(it);
    }
  }
}

size_t ContainerManager::live_containers() const {
  MutexLock lock(&mu_);
  size_t n = 0;
  for (const auto& [id, r] : containers_) n += r.state != State::kComplete;
  return n;
}

bool ContainerManager::IsRunning(const rm::ContainerId& id) const {
  MutexLock lock(&mu_);
  auto it = containers_.find(id);
  return it != containers_.end() && it->second.state == State::kRunning;
}

size_t ContainerManager::known_containers() const {
  MutexLock lock(&mu_);
  return containers_.size();
}

}  // namespace spindle::nm
