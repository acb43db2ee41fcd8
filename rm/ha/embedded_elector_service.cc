#include "rm/ha/embedded_elector_service.h"

#include <glog/logging.h>

#include "yarn_server_resourcemanager_service_protos.pb.h"

namespace spindle::rm {

std::string ActiveRmInfo(const std::string& cluster_id, const std::string& rm_id) {
  hadoop::yarn::ActiveRMInfoProto info;
  info.set_clusterid(cluster_id);
  info.set_rmid(rm_id);
  return info.SerializeAsString();
}

EmbeddedElectorService::EmbeddedElectorService(EmbeddedElectorOptions options,
                                               EmbeddedElectorHooks hooks)
    : options_(std::move(options)),
      hooks_(std::move(hooks)),
      election_znode_(options_.zk_base_path + "/" + options_.cluster_id),
      local_active_node_info_(ActiveRmInfo(options_.cluster_id, options_.rm_id)) {}

Result<std::unique_ptr<EmbeddedElectorService>> EmbeddedElectorService::Create(
    EmbeddedElectorOptions options, EmbeddedElectorHooks hooks) {
  if (!hooks.transition_to_active || !hooks.transition_to_standby || !hooks.on_fatal) {
    return Status::InvalidArgument("the embedded elector needs the RM's transitions");
  }
  std::unique_ptr<EmbeddedElectorService> service(
      new EmbeddedElectorService(std::move(options), std::move(hooks)));
  const EmbeddedElectorOptions& o = service->options_;
  ActiveStandbyElectorOptions elector;
  elector.connect_string = o.zk.connect_string;
  elector.session_timeout = o.zk.session_timeout;
  elector.auths = o.zk.auths;
  elector.acl = o.zk.acl;
  elector.parent_znode = service->election_znode_;
  elector.max_retries = o.zk.max_retries;
  elector.sleep_after_failure = o.sleep_after_failure;
  elector.sleep_between_connects = o.sleep_between_connects;
  ASSIGN_OR_RETURN(service->elector_,
                   ActiveStandbyElector::Create(std::move(elector), service.get()));
  RETURN_NOT_OK(service->elector_->EnsureParentZNode());
  if (!service->ParentZnodeSafe()) {
    if (o.line != HadoopLine::k3_3) {
      // 2.6/2.7: the fatal event terminates the RM.
      return Status::InvalidArgument(service->election_znode_ +
                                     " znode has invalid data! Might need formatting!");
    }
    // 3.3: the fatal event sends the (standby) RM to standby and rejoins.
    LOG(ERROR) << "invalid data in znode, " << service->election_znode_
               << ", which may require the state store to be reformatted";
  }
  if (o.line == HadoopLine::k3_3) {
    service->timer_thread_ = std::thread([s = service.get()] { s->RunDisconnectTimer(); });
  }
  return service;
}

EmbeddedElectorService::~EmbeddedElectorService() {
  {
    MutexLock lock(&timer_mu_);
    timer_stop_ = true;
    timer_cv_.SignalAll();
  }
  if (timer_thread_.joinable()) timer_thread_.join();
  elector_.reset();
}

bool EmbeddedElectorService::ParentZnodeSafe() {
  auto data = elector_->GetActiveData();
  if (!data.ok()) {
    if (data.status().IsNotFound()) return true;  // no active found
    LOG(ERROR) << "cannot read " << election_znode_ << ": " << data.status().ToString();
    return false;
  }
  hadoop::yarn::ActiveRMInfoProto info;
  if (!info.ParseFromString(*data)) {
    LOG(ERROR) << "Invalid data in ZK: " << data->size() << " bytes that are no ActiveRMInfoProto";
    return false;
  }
  if (info.clusterid() != options_.cluster_id) {
    LOG(ERROR) << "Mismatched cluster! The other RM seems to be from a different cluster. "
                  "Current cluster = "
               << options_.cluster_id << "Other RM's cluster = " << info.clusterid();
    return false;
  }
  return true;
}

void EmbeddedElectorService::Start() { elector_->JoinElection(local_active_node_info_); }

void EmbeddedElectorService::Stop() { elector_->QuitElection(/*need_fence=*/false); }

void EmbeddedElectorService::RejoinElection() {
  elector_->QuitElection(/*need_fence=*/false);
  elector_->JoinElection(local_active_node_info_);
}

Status EmbeddedElectorService::BecomeActive() {
  CancelDisconnectTimer();
  Status became = hooks_.transition_to_active();
  if (!became.ok()) return became.WithContext("RM could not transition to Active");
  return Status::OK();
}

void EmbeddedElectorService::BecomeStandby() {
  CancelDisconnectTimer();
  hooks_.transition_to_standby();
}

void EmbeddedElectorService::EnterNeutralMode() {
  if (options_.line != HadoopLine::k3_3) return;  // 2.6/2.7: possibly transient, do nothing
  LOG(WARNING) << "Lost contact with Zookeeper. Transitioning to standby in "
               << options_.zk.session_timeout.count() << " ms if connection is not reestablished.";
  MutexLock lock(&timer_mu_);
  if (!disconnect_deadline_.has_value()) {
    disconnect_deadline_ = std::chrono::steady_clock::now() + options_.zk.session_timeout;
    timer_cv_.SignalAll();
  }
}

void EmbeddedElectorService::NotifyFatalError(const std::string& message) {
  hooks_.on_fatal(message);
}

void EmbeddedElectorService::FenceOldActive(const std::string& /*old_active_data*/) {
  VLOG(1) << "Request to fence old active being ignored, as embedded leader election doesn't "
             "support fencing";
}

void EmbeddedElectorService::CancelDisconnectTimer() {
  MutexLock lock(&timer_mu_);
  disconnect_deadline_.reset();
  timer_cv_.SignalAll();
}

void EmbeddedElectorService::RunDisconnectTimer() {
  MutexLock lock(&timer_mu_);
  while (!timer_stop_) {
    if (!disconnect_deadline_.has_value()) {
      timer_cv_.Wait(&timer_mu_);
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now < *disconnect_deadline_) {
      timer_cv_.WaitFor(&timer_mu_, *disconnect_deadline_ - now);
      continue;
    }
    // Still neutral a session timeout later: as Hadoop's timer task, go
    // standby under the timer's lock (a decision of the elector waits).
    disconnect_deadline_.reset();
    LOG(WARNING) << "no ZooKeeper connection for " << options_.zk.session_timeout.count()
                 << " ms: transitioning to standby";
    hooks_.transition_to_standby();
  }
}

}  // namespace spindle::rm
