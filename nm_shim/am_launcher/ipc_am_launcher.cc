#include "nm_shim/am_launcher/ipc_am_launcher.h"

#include <glog/logging.h>

#include "rm/security/credentials.h"
#include "rm/security/yarn_id_protos.h"
#include "wire/ipc/token_service.h"
#include "yarn_service_protos.pb.h"

namespace spindle::nm_shim {

namespace y = hadoop::yarn;

namespace {

void SetEnv(y::ContainerLaunchContextProto* clc, const std::string& key, const std::string& value) {
  for (auto& entry : *clc->mutable_environment()) {
    if (entry.key() == key) {
      entry.set_value(value);
      return;
    }
  }
  auto* entry = clc->add_environment();
  entry->set_key(key);
  entry->set_value(value);
}

}  // namespace

IpcAmLauncher::IpcAmLauncher(ipc::RpcClient* client, rm::AmrmTokenSecretManager* amrm_tokens,
                             const rm::ContainerTokenSecretManager* container_tokens,
                             const rm::NmTokenSecretManager* nm_tokens, const Clock* clock,
                             NmConnectRetryPolicy retry)
    : client_(client),
      amrm_tokens_(amrm_tokens),
      container_tokens_(container_tokens),
      nm_tokens_(nm_tokens),
      clock_(clock),
      retry_(retry),
      work_(boost::asio::make_work_guard(timers_)),
      timer_thread_([this] { timers_.run(); }) {}

IpcAmLauncher::~IpcAmLauncher() {
  work_.reset();
  timers_.stop();
  if (timer_thread_.joinable()) timer_thread_.join();
}

// A startContainers call and its tries so far.
struct IpcAmLauncher::StartCall {
  rm::AmLaunch launch;
  ipc::ConnectionSpec spec;
  y::StartContainersRequestProto request;
  y::StartContainersResponseProto response;
  std::function<void(Status)> done;
  int64_t retries = 0;
  std::unique_ptr<boost::asio::steady_timer> timer;
};

Result<std::string> IpcAmLauncher::BuildLaunchContext(const rm::AmLaunch& launch) const {
  y::ApplicationSubmissionContextProto submission;
  if (!submission.ParseFromString(launch.submission_context)) {
    return Status::InvalidArgument("the stored submission context of " +
                                   launch.attempt.app.ToString() + " does not parse");
  }
  y::ContainerLaunchContextProto clc = submission.am_container_spec();
  rm::Credentials credentials;
  if (!clc.tokens().empty()) {
    auto parsed = rm::Credentials::Parse(clc.tokens());
    if (!parsed.ok()) {
      return Status::InvalidArgument("the application's credentials do not parse: " +
                                     parsed.status().message());
    }
    credentials = std::move(parsed).value();
  }
  // The AMRM token goes in under its service, the empty string, as Java does.
  credentials.AddToken("", amrm_tokens_->CreateToken(launch.attempt));
  clc.set_tokens(credentials.Serialize(rm::CredentialsFormat::kWritable));
  SetEnv(&clc, "APPLICATION_WEB_PROXY_BASE", "/proxy/" + launch.attempt.app.ToString());
  SetEnv(&clc, "APP_SUBMIT_TIME_ENV", std::to_string(launch.submit_time_ms));
  SetEnv(&clc, "MAX_APP_ATTEMPTS", std::to_string(launch.max_attempts));
  return clc.SerializeAsString();
}

ipc::ConnectionSpec IpcAmLauncher::SpecFor(const rm::AmLaunch& launch) const {
  const std::string service = ipc::TokenService(launch.node.host, launch.node.port);
  const rm::Token nm_token =
      nm_tokens_->CreateToken(launch.attempt, launch.node, launch.user, service);
  ipc::ConnectionSpec spec;
  spec.host = launch.node.host;
  spec.port = static_cast<uint16_t>(launch.node.port);
  spec.protocol = kContainerManagementProtocol;
  spec.user = launch.attempt.ToString();
  spec.token =
      ipc::ClientToken{nm_token.identifier, nm_token.password, nm_token.kind, nm_token.service};
  return spec;
}

void IpcAmLauncher::Launch(const rm::AmLaunch& launch, std::function<void(Status)> done) {
  auto clc = BuildLaunchContext(launch);
  if (!clc.ok()) {
    done(clc.status());
    return;
  }
  rm::ContainerTokenRequest token_request;
  token_request.container_id = launch.container;
  token_request.node_id = launch.node;
  token_request.nm_service = ipc::TokenService(launch.node.host, launch.node.port);
  token_request.app_submitter = launch.user;
  token_request.resource.set_memory(launch.resource.memory_mb());
  token_request.resource.set_virtual_cores(static_cast<int32_t>(launch.resource.vcores()));
  token_request.priority = 0;
  token_request.creation_time_ms = clock_->WallMillis();
  token_request.container_type = rm::ContainerType::kApplicationMaster;
  const rm::Token container_token = container_tokens_->CreateContainerToken(token_request);

  auto call = std::make_shared<StartCall>();
  call->launch = launch;
  call->spec = SpecFor(launch);
  call->done = std::move(done);
  auto* start = call->request.add_start_container_request();
  start->mutable_container_launch_context()->ParseFromString(*clc);
  rm::ToTokenProto(container_token, start->mutable_container_token());
  LOG(INFO) << "launching AM container " << launch.container.ToString() << " on "
            << launch.node.ToString();
  TryStart(std::move(call));
}

void IpcAmLauncher::TryStart(std::shared_ptr<StartCall> call) {
  call->response.Clear();
  client_->CallAsync(
      call->spec, "startContainers", call->request, &call->response, [this, call](Status s) {
        if (s.ok() && call->response.failed_requests_size() > 0) {
          const auto& e = call->response.failed_requests(0).exception();
          s = Status::Remote(e.class_name(), e.message());
        }
        if (s.ok()) {
          call->done(s);
          return;
        }
        if (const auto delay = retry_.NextDelay(s, call->retries); delay.has_value()) {
          ++call->retries;
          LOG(WARNING) << "AM container " << call->launch.container.ToString() << ": "
                       << s.ToString() << "; retry " << call->retries << " in "
                       << std::chrono::duration_cast<std::chrono::milliseconds>(*delay).count()
                       << " ms";
          call->timer = std::make_unique<boost::asio::steady_timer>(timers_, *delay);
          call->timer->async_wait([this, call](const boost::system::error_code& ec) {
            if (!ec) TryStart(call);
          });
          return;
        }
        LOG(WARNING) << "AM container " << call->launch.container.ToString()
                     << " failed to launch: " << s.ToString();
        call->done(s);
      });
}

void IpcAmLauncher::Cleanup(const rm::AmLaunch& launch) {
  auto request = std::make_shared<y::StopContainersRequestProto>();
  rm::ToProto(launch.container, request->add_container_id());
  auto response = std::make_shared<y::StopContainersResponseProto>();
  client_->CallAsync(SpecFor(launch), "stopContainers", *request, response.get(),
                     [request, response, launch](Status s) {
                       // "Not handled by this NodeManager" and the like are expected
                       // once the container is gone.
                       if (!s.ok()) {
                         VLOG(1) << "stopContainers for " << launch.container.ToString() << ": "
                                 << s.ToString();
                       }
                     });
}

}  // namespace spindle::nm_shim
