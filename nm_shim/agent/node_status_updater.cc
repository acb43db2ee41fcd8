#include "nm_shim/agent/node_status_updater.h"

#include <glog/logging.h>

#include <algorithm>

#include "rm/security/yarn_id_protos.h"

namespace spindle::nm {

namespace y = hadoop::yarn;

#define NODE_LOG(options) LOG_IF(INFO, (options).log_lifecycle) << (options).node.ToString() << ": "

NodeStatusUpdater::NodeStatusUpdater(NodeStatusUpdaterOptions options, ContainerManager* containers,
                                     NodeTokenKeys* keys, TrackerTransport* transport,
                                     EventLoop* loop, StoppedCallback on_stopped)
    : options_(std::move(options)),
      containers_(containers),
      keys_(keys),
      transport_(transport),
      loop_(loop),
      on_stopped_(std::move(on_stopped)) {
  interval_ms_ = options_.initial_heartbeat_interval_ms;
}

void NodeStatusUpdater::Start() {
  loop_->Post([this] { Schedule(options_.start_delay_ms, &NodeStatusUpdater::SendRegister); });
}

void NodeStatusUpdater::Schedule(int64_t delay_ms, void (NodeStatusUpdater::*next)()) {
  if (stopping_) return;
  timer_ = loop_->RunAfter(std::chrono::milliseconds(delay_ms), [this, next] { (this->*next)(); });
}

void NodeStatusUpdater::SendRegister() {
  state_ = State::kRegistering;
  y::RegisterNodeManagerRequestProto request;
  rm::ToProto(options_.node, request.mutable_node_id());
  request.set_http_port(options_.http_port);
  request.mutable_resource()->set_memory(options_.memory_mb);
  request.mutable_resource()->set_virtual_cores(options_.vcores);
  request.set_nm_version(options_.nm_version);
  for (auto& s : containers_->RegistrationStatuses()) *request.add_container_statuses() = s;
  for (const auto& app : containers_->RunningApplications()) {
    rm::ToProto(app, request.add_runningapplications());
  }
  in_flight_ = true;
  transport_->Register(request,
                       [this](const Status& s, const y::RegisterNodeManagerResponseProto& r) {
                         OnRegistered(s, r);
                       });
}

void NodeStatusUpdater::OnRegistered(const Status& s,
                                     const y::RegisterNodeManagerResponseProto& r) {
  in_flight_ = false;
  if (stopping_) {
    if (s.ok() && r.nodeaction() == y::NORMAL) state_ = State::kRunning;
    StopNow();
    return;
  }
  if (!s.ok()) {
    RetryLater(s, "registerNodeManager", &NodeStatusUpdater::SendRegister);
    return;
  }
  if (r.nodeaction() != y::NORMAL) {
    Finish(Status::Unavailable(
        "the ResourceManager refused to register node " + options_.node.ToString() + ": " +
        (r.diagnostics_message().empty() ? "no reason given" : r.diagnostics_message())));
    return;
  }
  if (!r.has_container_token_master_key() || !r.has_nm_token_master_key()) {
    Finish(Status::ProtocolError("the ResourceManager registered node " + options_.node.ToString() +
                                 " without master keys"));
    return;
  }
  ApplyKeys(&r.container_token_master_key(), &r.nm_token_master_key());
  keys_->set_rm_identifier(r.rm_identifier());
  response_id_ = 0;
  failures_ = 0;
  ++registrations_;
  state_ = State::kRunning;
  containers_->set_accepting_new_containers(true);
  NODE_LOG(options_) << "registered with the ResourceManager (rm version " << r.rm_version() << ", "
                     << options_.memory_mb << " MB, " << options_.vcores << " vcores)";
  Schedule(0, &NodeStatusUpdater::SendHeartbeat);
}

void NodeStatusUpdater::ApplyKeys(const y::MasterKeyProto* container_key,
                                  const y::MasterKeyProto* nm_key) {
  if (container_key != nullptr) {
    keys_->Apply(NodeTokenKeys::Family::kContainerTokens,
                 rm::MasterKey{container_key->key_id(), container_key->bytes()});
  }
  if (nm_key != nullptr) {
    keys_->Apply(NodeTokenKeys::Family::kNmTokens,
                 rm::MasterKey{nm_key->key_id(), nm_key->bytes()});
  }
}

void NodeStatusUpdater::SendHeartbeat() {
  y::NodeHeartbeatRequestProto request;
  auto* status = request.mutable_node_status();
  rm::ToProto(options_.node, status->mutable_node_id());
  status->set_response_id(response_id_);
  for (auto& s : containers_->HeartbeatStatuses()) *status->add_containersstatuses() = std::move(s);
  auto* health = status->mutable_nodehealthstatus();
  health->set_is_node_healthy(true);
  health->set_health_report("");
  health->set_last_health_report_time(loop_->clock()->WallMillis());
  if (options_.utilization) {
    if (std::optional<MeasuredUtilization> measured = options_.utilization()) {
      auto fill = [](const Utilization& u, y::ResourceUtilizationProto* proto) {
        proto->set_pmem(u.pmem_mb);
        proto->set_vmem(u.vmem_mb);
        proto->set_cpu(u.cpu);
      };
      fill(measured->containers, status->mutable_containers_utilization());
      fill(measured->node, status->mutable_node_utilization());
    }
  }
  for (auto [family, field] : {std::pair{NodeTokenKeys::Family::kContainerTokens,
                                         request.mutable_last_known_container_token_master_key()},
                               std::pair{NodeTokenKeys::Family::kNmTokens,
                                         request.mutable_last_known_nm_token_master_key()}}) {
    if (auto key = keys_->Current(family); key.has_value()) {
      field->set_key_id(key->key_id);
      field->set_bytes(key->bytes);
    }
  }
  in_flight_ = true;
  transport_->Heartbeat(request, [this](const Status& s, const y::NodeHeartbeatResponseProto& r) {
    OnHeartbeat(s, r);
  });
}

void NodeStatusUpdater::OnHeartbeat(const Status& s, const y::NodeHeartbeatResponseProto& r) {
  in_flight_ = false;
  if (stopping_) {
    StopNow();
    return;
  }
  if (!s.ok()) {
    RetryLater(s, "nodeHeartbeat", &NodeStatusUpdater::SendHeartbeat);
    return;
  }
  if (failures_ > 0) {
    LOG(INFO) << options_.node.ToString() << ": the ResourceManager answers again";
    failures_ = 0;
  }
  if (r.nodeaction() == y::SHUTDOWN) {
    Finish(Status::Unavailable("the ResourceManager told node " + options_.node.ToString() +
                               " to shut down: " + r.diagnostics_message()));
    return;
  }
  if (r.nodeaction() == y::RESYNC) {
    // No new containers until the node registered again (Java 2.6's
    // NodeManager.resyncWithRM blocks them first).
    containers_->set_accepting_new_containers(false);
    NODE_LOG(options_) << "the ResourceManager asks for a resync; registering again"
                       << (r.diagnostics_message().empty() ? "" : ": ") << r.diagnostics_message();
    Schedule(0, &NodeStatusUpdater::SendRegister);
    return;
  }
  containers_->HeartbeatSucceeded();
  ++heartbeats_;
  response_id_ = r.response_id();
  ApplyKeys(r.has_container_token_master_key() ? &r.container_token_master_key() : nullptr,
            r.has_nm_token_master_key() ? &r.nm_token_master_key() : nullptr);
  if (r.containers_to_cleanup_size() > 0) {
    std::vector<rm::ContainerId> ids;
    for (const auto& id : r.containers_to_cleanup()) ids.push_back(rm::FromProto(id));
    containers_->CleanupContainers(ids);
  }
  if (r.applications_to_cleanup_size() > 0) {
    std::vector<rm::ApplicationId> apps;
    for (const auto& id : r.applications_to_cleanup()) apps.push_back(rm::FromProto(id));
    containers_->CleanupApplications(apps);
  }
  if (r.containers_to_be_removed_from_nm_size() > 0) {
    std::vector<rm::ContainerId> ids;
    for (const auto& id : r.containers_to_be_removed_from_nm()) ids.push_back(rm::FromProto(id));
    containers_->RemoveCompleted(ids);
  }
  if (r.containers_to_signal_size() > 0) containers_->SignalContainers(SignalsToDeliver(r));
  if (r.nextheartbeatinterval() > 0) interval_ms_ = r.nextheartbeatinterval();
  Schedule(interval_ms_, &NodeStatusUpdater::SendHeartbeat);
}

void NodeStatusUpdater::RetryLater(const Status& s, const char* what,
                                   void (NodeStatusUpdater::*retry)()) {
  ++failures_;
  retry_delay_ms_ = failures_ == 1 ? std::max<int64_t>(interval_ms_, 100)
                                   : std::min(retry_delay_ms_ * 2, options_.max_retry_interval_ms);
  retry_delay_ms_ = std::min(retry_delay_ms_, options_.max_retry_interval_ms);
  if (failures_ == 1 || failures_ % 10 == 0) {
    LOG(WARNING) << options_.node.ToString() << ": " << what << " failed (" << failures_
                 << " in a row), retrying in " << retry_delay_ms_ << " ms: " << s.ToString();
  }
  Schedule(retry_delay_ms_, retry);
}

void NodeStatusUpdater::Stop(std::function<void()> done) {
  loop_->Post([this, done = std::move(done)]() mutable {
    if (state_ == State::kStopped) {
      if (done) done();
      return;
    }
    stop_done_ = std::move(done);
    stopping_ = true;
    loop_->Cancel(timer_);
    if (!in_flight_) StopNow();
  });
}

void NodeStatusUpdater::StopNow() {
  if (state_ != State::kRunning || !options_.unregister) {
    Finish(Status::OK());
    return;
  }
  y::UnRegisterNodeManagerRequestProto request;
  rm::ToProto(options_.node, request.mutable_node_id());
  in_flight_ = true;
  transport_->Unregister(request,
                         [this](const Status& s, const y::UnRegisterNodeManagerResponseProto&) {
                           in_flight_ = false;
                           if (!s.ok()) {
                             LOG(WARNING) << options_.node.ToString()
                                          << ": unRegisterNodeManager failed: " << s.ToString();
                           }
                           Finish(Status::OK());
                         });
}

void NodeStatusUpdater::Finish(const Status& s) {
  if (state_ == State::kStopped) return;
  state_ = State::kStopped;
  containers_->set_accepting_new_containers(false);
  stopping_ = true;
  loop_->Cancel(timer_);
  if (!s.ok()) LOG(ERROR) << s.message();
  if (stop_done_) {
    auto done = std::move(stop_done_);
    done();
  }
  if (on_stopped_) on_stopped_(s);
}

}  // namespace spindle::nm
