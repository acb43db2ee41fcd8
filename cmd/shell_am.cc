#include "cmd/shell_am.h"

#include <glog/logging.h>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <utility>

#include "am_protocol/am_service/am_service.h"
#include "base/base64.h"
#include "nm_shim/am_launcher/ipc_am_launcher.h"
#include "rm/containers/container_registry.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/yarn_id_protos.h"
#include "rm/yarn_exceptions.h"
#include "wire/ipc/error_mapping.h"

namespace spindle {
namespace {

namespace y = hadoop::yarn;

// The keys and defaults of Hadoop's YarnConfiguration.
constexpr char kMaxWaitKey[] = "yarn.resourcemanager.connect.max-wait.ms";
constexpr int64_t kDefaultMaxWaitMs = 15 * 60 * 1000;
constexpr char kRetryIntervalKey[] = "yarn.resourcemanager.connect.retry-interval.ms";
constexpr int64_t kDefaultRetryIntervalMs = 30 * 1000;

// A NodeManager runs a launch command as `bash -c "<command>"` without
// escaping it (Hadoop's launch script does the same), so the user's command
// travels in base64, whose alphabet means nothing to a shell, and is decoded
// by the shell that runs it. DistributedShell ships it in a file for the
// same reason.
std::string EncodedCommand(const std::string& command) {
  return "echo " + Base64Encode(command) + " | base64 -d | /bin/bash";
}

// The call never reached the RM or its answer was lost with the connection:
// worth another try while the RM restarts. A remote exception is an answer.
bool IsNotRegistered(const Status& s) {
  return s.IsRemote() && s.java_class() == rm::yarn::kApplicationMasterNotRegistered;
}

std::string IdString(const y::ContainerIdProto& id) { return rm::FromProto(id).ToString(); }

}  // namespace

Result<RmConnectRetry> RmConnectRetry::FromConfiguration(const rm::Configuration& conf) {
  // Checked as Hadoop's RMProxy.createRetryPolicy checks them.
  ASSIGN_OR_RETURN(const int64_t max_wait, conf.GetInt(kMaxWaitKey, kDefaultMaxWaitMs));
  ASSIGN_OR_RETURN(const int64_t interval, conf.GetInt(kRetryIntervalKey, kDefaultRetryIntervalMs));
  if (interval < 0) {
    return Status::InvalidArgument(std::string(kRetryIntervalKey) + " must not be negative, not " +
                                   std::to_string(interval));
  }
  if (max_wait < -1) {
    return Status::InvalidArgument(std::string(kMaxWaitKey) +
                                   " can be -1 (forever) but no other negative number, not " +
                                   std::to_string(max_wait));
  }
  RmConnectRetry r;
  r.max_wait = std::chrono::milliseconds(max_wait);
  r.retry_interval = std::chrono::milliseconds(interval);
  return r;
}

ShellAm::ShellAm(ShellAmOptions options)
    : options_(std::move(options)),
      client_(options_.client),
      send_blacklist_(!options_.blacklist.empty()) {
  if (!options_.ha_schedulers.empty()) {
    am_protocol::RmFailoverProxyOptions proxy;
    proxy.protocol = am_protocol::kApplicationMasterProtocol;
    proxy.user = options_.user;
    proxy.token = options_.amrm;
    proxy.policy = options_.ha_policy;
    proxy.deadline = options_.retry.deadline;
    ha_proxy_ =
        std::make_unique<am_protocol::RmFailoverProxy>(&client_, options_.ha_schedulers, proxy);
  }
  y::ResourceRequestProto ask;
  ask.mutable_priority()->set_priority(0);
  ask.set_resource_name("*");
  ask.mutable_capability()->set_memory(options_.spec.memory_mb);
  ask.mutable_capability()->set_virtual_cores(static_cast<int32_t>(options_.spec.vcores));
  ask.set_num_containers(static_cast<int32_t>(options_.spec.containers));
  ask.set_relax_locality(true);
  asks_.push_back(std::move(ask));
}

ipc::ConnectionSpec ShellAm::AmSpec() const {
  return {options_.scheduler_host, options_.scheduler_port, am_protocol::kApplicationMasterProtocol,
          options_.user, options_.amrm};
}

Status CallRmWithRetry(ipc::RpcClient* client, const ipc::ConnectionSpec& spec,
                       const std::string& method, const google::protobuf::MessageLite& request,
                       google::protobuf::MessageLite* response, const RmConnectRetry& retry) {
  using SteadyClock = std::chrono::steady_clock;
  const auto start = SteadyClock::now();
  for (int attempt = 1;; ++attempt) {
    Status s = client->Call(spec, method, request, response);
    if (!ipc::IsTransportFailure(s)) return s;
    const auto now = SteadyClock::now();
    const auto waited = now - start;
    const std::string rm = "the RM at " + spec.host + ":" + std::to_string(spec.port);
    const std::string attempts =
        std::to_string(attempt) + (attempt == 1 ? " attempt" : " attempts");
    if (retry.max_wait.count() >= 0 && waited + retry.retry_interval > retry.max_wait) {
      return s.WithContext(method + ": " + rm + " was not reachable for " +
                           std::to_string(retry.max_wait.count()) + " ms (" + attempts +
                           "; yarn.resourcemanager.connect.max-wait.ms)");
    }
    auto pause = std::chrono::duration_cast<std::chrono::milliseconds>(retry.retry_interval);
    if (retry.deadline.has_value()) {
      if (now >= *retry.deadline) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(waited).count();
        return s.WithContext(method + ": " + rm + " was not reachable before the deadline (" +
                             attempts + " in " + std::to_string(ms) + " ms)");
      }
      pause = std::min(pause, std::chrono::ceil<std::chrono::milliseconds>(*retry.deadline - now));
    }
    LOG(WARNING) << method << ": cannot reach " << rm << " (" << s.UserMessage() << "); attempt "
                 << attempt << ", retrying in " << pause.count() << " ms";
    std::this_thread::sleep_for(pause);
  }
}

Status ShellAm::CallRm(const std::string& method, const google::protobuf::MessageLite& request,
                       google::protobuf::MessageLite* response) {
  // With HA, a failover lands on an RM where this attempt is not registered
  // yet: its ApplicationMasterNotRegisteredException reaches the allocate
  // loop, which re-registers and resends the asks (AMRMClientImpl's resync).
  if (ha_proxy_ != nullptr) return ha_proxy_->Call(method, request, response);
  return CallRmWithRetry(&client_, AmSpec(), method, request, response, options_.retry);
}

Status ShellAm::Register() {
  y::RegisterApplicationMasterRequestProto request;
  request.set_host(options_.host);
  request.set_rpc_port(options_.rpc_port);
  if (!options_.tracking_url.empty()) request.set_tracking_url(options_.tracking_url);
  y::RegisterApplicationMasterResponseProto response;
  RETURN_NOT_OK(CallRm("registerApplicationMaster", request, &response));
  response_id_ = 0;
  registrations_.fetch_add(1);
  return Status::OK();
}

Status ShellAm::Resync(const std::string& why) {
  LOG(WARNING) << "the RM does not know this ApplicationMaster (" << why
               << "); re-registering and re-sending " << asks_.size() << " ask(s), "
               << options_.blacklist.size() << " blacklisted node(s) and "
               << pending_release_.size() << " release(s)";
  RETURN_NOT_OK(Register());
  resyncs_.fetch_add(1);
  send_asks_ = true;
  send_blacklist_ = !options_.blacklist.empty();
  // Releases already queued stay; those sent but not confirmed go again.
  std::set<std::string> queued;
  for (const auto& id : to_release_) queued.insert(IdString(id));
  for (const auto& [key, id] : pending_release_) {
    if (queued.count(key) == 0) to_release_.push_back(id);
  }
  return Status::OK();
}

Status ShellAm::Run() {
  RETURN_NOT_OK(Register());
  const ShellSpec& spec = options_.spec;
  LOG(INFO) << "registered; asking for " << spec.containers << " containers";
  const auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  while (completed_.load() < spec.containers) {
    if (std::chrono::steady_clock::now() > deadline) {
      return Finish(y::APP_FAILED, "timed out after " + std::to_string(completed_.load()) + " of " +
                                       std::to_string(spec.containers) + " containers");
    }
    y::AllocateRequestProto request;
    request.set_response_id(response_id_);
    request.set_progress(static_cast<float>(completed_.load()) /
                         static_cast<float>(spec.containers));
    if (send_asks_) {
      for (const auto& ask : asks_) *request.add_ask() = ask;
    }
    if (send_blacklist_) {
      for (const auto& node : options_.blacklist) {
        request.mutable_blacklist_request()->add_blacklist_additions(node);
      }
    }
    for (const auto& id : to_release_) *request.add_release() = id;
    y::AllocateResponseProto response;
    Status s = CallRm("allocate", request, &response);
    if (IsNotRegistered(s)) {
      // Allocate again at once, from response id 0; pace an RM that keeps
      // forgetting us.
      if (++resyncs_in_a_row_ > 1) std::this_thread::sleep_for(options_.heartbeat_interval);
      RETURN_NOT_OK(Resync(s.ToString()));
      continue;
    }
    RETURN_NOT_OK(s);
    resyncs_in_a_row_ = 0;
    // Sent: the RM has them now (a resync sends them again).
    send_asks_ = false;
    send_blacklist_ = false;
    to_release_.clear();
    if (response.has_a_m_command() && response.a_m_command() == y::AM_RESYNC) {
      RETURN_NOT_OK(Resync("AM_RESYNC"));
      continue;
    }
    response_id_ = response.response_id();
    for (const auto& nm : response.nm_tokens()) {
      nm_tokens_[rm::FromProto(nm.nodeid()).ToString()] = nm.token();
    }
    for (const auto& container : response.allocated_containers()) HandleAllocated(container);
    for (const auto& status : response.completed_container_statuses()) HandleCompleted(status);
    if (completed_.load() < spec.containers) {
      std::this_thread::sleep_for(options_.heartbeat_interval);
    }
  }
  if (failed_.load() == 0) return Finish(y::APP_SUCCEEDED, "");
  return Finish(y::APP_FAILED, std::to_string(failed_.load()) + " of " +
                                   std::to_string(spec.containers) + " containers failed");
}

void ShellAm::Release(const y::ContainerIdProto& id) {
  to_release_.push_back(id);
  pending_release_[IdString(id)] = id;
  released_.fetch_add(1);
}

void ShellAm::HandleAllocated(const y::ContainerProto& container) {
  const std::string id = IdString(container.id());
  if (!known_.insert(id).second) {
    // Already ours (started, or released): an RM that re-delivers it after
    // a restart must not make us start it twice.
    LOG(INFO) << "container " << id << " allocated again; already handled";
    return;
  }
  if (launched_.load() >= options_.spec.containers) {
    LOG(INFO) << "releasing " << id << ": all " << options_.spec.containers
              << " containers are running";
    Release(container.id());
    return;
  }
  launched_.fetch_add(1);
  const Status started = StartContainer(container);
  if (started.ok()) {
    running_.insert(id);
    LOG(INFO) << "started " << id << " on " << rm::FromProto(container.nodeid()).ToString();
    return;
  }
  LOG(WARNING) << "could not start " << id << ": " << started.ToString();
  completed_.fetch_add(1);
  failed_.fetch_add(1);
  Release(container.id());
}

void ShellAm::HandleCompleted(const y::ContainerStatusProto& status) {
  const std::string id = IdString(status.container_id());
  pending_release_.erase(id);
  if (running_.erase(id) == 0) {
    // Released, failed to start, or reported twice (e.g. again after an RM
    // restart): counted already or not ours to count.
    VLOG(1) << "completion of " << id << " ignored";
    return;
  }
  if (status.exit_status() == rm::kExitAborted) {
    // Lost with its node (or otherwise taken away by the framework): not a
    // result of the command. DistributedShell's onContainersCompleted
    // (2.6.5 and 3.3.0) neither counts it completed nor failed, and asks for
    // another container in its place.
    launched_.fetch_sub(1);
    lost_.fetch_add(1);
    asks_.front().set_num_containers(
        static_cast<int32_t>(options_.spec.containers - launched_.load()));
    send_asks_ = true;
    std::printf("container %s lost (exit status %d%s%s); asking for another\n", id.c_str(),
                status.exit_status(), status.diagnostics().empty() ? "" : ": ",
                status.diagnostics().c_str());
    std::fflush(stdout);
    return;
  }
  completed_.fetch_add(1);
  if (status.exit_status() != 0) failed_.fetch_add(1);
  std::printf("container %s completed, exit status %d%s%s\n", id.c_str(), status.exit_status(),
              status.diagnostics().empty() ? "" : ": ", status.diagnostics().c_str());
  std::fflush(stdout);
}

Status ShellAm::StartContainer(const y::ContainerProto& container) {
  const rm::NodeId node = rm::FromProto(container.nodeid());
  auto token = nm_tokens_.find(node.ToString());
  if (token == nm_tokens_.end()) return Status::NotFound("no NM token for " + node.ToString());
  y::StartContainersRequestProto request;
  y::StartContainerRequestProto* start = request.add_start_container_request();
  start->mutable_container_launch_context()->add_command(EncodedCommand(options_.spec.command));
  *start->mutable_container_token() = container.container_token();
  const ipc::ClientToken nm{token->second.identifier(), token->second.password(),
                            token->second.kind(), token->second.service()};
  const ipc::ConnectionSpec cmp{node.host, static_cast<uint16_t>(node.port),
                                nm_shim::kContainerManagementProtocol, options_.user, nm};
  y::StartContainersResponseProto response;
  for (int64_t retries = 0;; ++retries) {
    response.Clear();
    const Status s = client_.Call(cmp, "startContainers", request, &response);
    if (s.ok()) break;
    const auto delay = options_.nm_retry.NextDelay(s, retries);
    if (!delay.has_value()) return s;
    LOG(WARNING) << "startContainers on " << node.ToString() << ": " << s.ToString()
                 << "; retrying";
    std::this_thread::sleep_for(*delay);
  }
  if (response.failed_requests_size() > 0) {
    const auto& e = response.failed_requests(0).exception();
    return Status::Remote(e.class_name(), e.message());
  }
  return Status::OK();
}

Status ShellAm::Finish(y::FinalApplicationStatusProto final_status,
                       const std::string& diagnostics) {
  y::FinishApplicationMasterRequestProto request;
  request.set_final_application_status(final_status);
  request.set_diagnostics(diagnostics);
  if (!options_.tracking_url.empty()) request.set_tracking_url(options_.tracking_url);
  for (int i = 0; i < 100; ++i) {
    y::FinishApplicationMasterResponseProto response;
    Status s = CallRm("finishApplicationMaster", request, &response);
    if (IsNotRegistered(s)) {
      // As AMRMClientImpl.unregisterApplicationMaster: register, then again.
      RETURN_NOT_OK(Resync(s.ToString()));
      continue;
    }
    RETURN_NOT_OK(s);
    if (response.isunregistered()) return Status::OK();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return Status::TimedOut("the RM did not confirm unregistration");
}

}  // namespace spindle
