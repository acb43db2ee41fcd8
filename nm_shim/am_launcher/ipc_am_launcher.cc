#include "nm_shim/am_launcher/ipc_am_launcher.h"

#include <glog/logging.h>

#include "am_protocol/ipc/token_service.h"
#include "rm/security/credentials.h"
#include "rm/security/yarn_id_protos.h"
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
                             const rm::NmTokenSecretManager* nm_tokens, const Clock* clock)
    : client_(client),
      amrm_tokens_(amrm_tokens),
      container_tokens_(container_tokens),
      nm_tokens_(nm_tokens),
      clock_(clock) {}

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

  auto request = std::make_shared<y::StartContainersRequestProto>();
  auto* start = request->add_start_container_request();
  start->mutable_container_launch_context()->ParseFromString(*clc);
  rm::ToTokenProto(container_token, start->mutable_container_token());
  auto response = std::make_shared<y::StartContainersResponseProto>();
  LOG(INFO) << "launching AM container " << launch.container.ToString() << " on "
            << launch.node.ToString();
  client_->CallAsync(SpecFor(launch), "startContainers", *request, response.get(),
                     [request, response, done = std::move(done), launch](Status s) {
                       if (s.ok() && response->failed_requests_size() > 0) {
                         const auto& e = response->failed_requests(0).exception();
                         s = Status::Remote(e.class_name(), e.message());
                       }
                       if (!s.ok()) {
                         LOG(WARNING) << "AM container " << launch.container.ToString()
                                      << " failed to launch: " << s.ToString();
                       }
                       done(s);
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
