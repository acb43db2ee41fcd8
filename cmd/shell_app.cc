#include "cmd/shell_app.h"

#include <glog/logging.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include "am_protocol/am_service/am_service.h"
#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/ipc/rpc_client.h"
#include "base/base64.h"
#include "nm_shim/am_launcher/ipc_am_launcher.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/credentials.h"
#include "rm/security/yarn_id_protos.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

namespace y = hadoop::yarn;

// The AMRM token's kind (AMRMTokenIdentifier.KIND_NAME).
constexpr char kAmrmTokenKind[] = "YARN_AM_RM_TOKEN";

struct HostPort {
  std::string host;
  uint16_t port = 0;
};

Result<HostPort> ParseHostPort(const std::string& text, const std::string& flag) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Status::InvalidArgument("--" + flag + " must be host:port, not '" + text + "'");
  }
  char* end = nullptr;
  const long port = std::strtol(text.c_str() + colon + 1, &end, 10);
  if (*end != '\0' || port <= 0 || port > 65535) {
    return Status::InvalidArgument("--" + flag + ": bad port in '" + text + "'");
  }
  return HostPort{text.substr(0, colon), static_cast<uint16_t>(port)};
}

// Quotes `s` for a POSIX shell.
std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string CurrentUser() {
  const char* user = std::getenv("USER");
  return user != nullptr && *user != '\0' ? user : "spindle";
}

std::string SelfExecutable() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) return "spindle";
  return std::string(path, static_cast<size_t>(n));
}

int Fail(const char* command, const Status& status) {
  std::fprintf(stderr, "spindle %s: %s\n", command, status.ToString().c_str());
  return 1;
}

// ---- the client -------------------------------------------------------------

struct ShellSpec {
  int64_t containers = 1;
  int64_t memory_mb = 128;
  int64_t vcores = 1;
  std::string command;
};

// A NodeManager runs a launch command as `bash -c "<command>"` without
// escaping it (Hadoop's launch script does the same), so the user's command
// travels in base64, whose alphabet means nothing to a shell, and is decoded
// by the shell that runs it. DistributedShell ships it in a file for the
// same reason.
std::string EncodedCommand(const std::string& command) {
  return "echo " + Base64Encode(command) + " | base64 -d | /bin/bash";
}

std::string AmCommand(const ShellSpec& spec, const std::string& scheduler) {
  std::ostringstream out;
  out << ShellQuote(SelfExecutable()) << " shell-am --rm-scheduler " << scheduler
      << " --num-containers " << spec.containers << " --memory-mb " << spec.memory_mb
      << " --vcores " << spec.vcores << " --command-base64 " << Base64Encode(spec.command)
      << " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr";
  return out.str();
}

const char* StateName(y::YarnApplicationStateProto state) {
  return y::YarnApplicationStateProto_Name(state).c_str();
}

}  // namespace

int ShellClientMain(const CommandLine& flags) {
  Status known =
      flags.CheckKnown({"rm", "rm-scheduler", "num-containers", "memory-mb", "vcores", "command",
                        "am-memory-mb", "queue", "name", "user", "timeout-seconds"});
  if (!known.ok()) return Fail("shell", known);
  auto rm = ParseHostPort(flags.GetString("rm", "127.0.0.1:8032"), "rm");
  if (!rm.ok()) return Fail("shell", rm.status());
  const std::string scheduler = flags.GetString("rm-scheduler", rm->host + ":8030");
  if (auto s = ParseHostPort(scheduler, "rm-scheduler"); !s.ok()) return Fail("shell", s.status());
  ShellSpec spec;
  spec.command = flags.GetString("command", "");
  if (spec.command.empty()) return Fail("shell", Status::InvalidArgument("--command is required"));
  auto containers = flags.GetInt("num-containers", 1);
  auto memory = flags.GetInt("memory-mb", 128);
  auto vcores = flags.GetInt("vcores", 1);
  auto am_memory = flags.GetInt("am-memory-mb", 256);
  auto timeout = flags.GetInt("timeout-seconds", 600);
  for (const auto* r : {&containers, &memory, &vcores, &am_memory, &timeout}) {
    if (!r->ok()) return Fail("shell", r->status());
    if (**r <= 0) return Fail("shell", Status::InvalidArgument("numeric flags must be positive"));
  }
  spec.containers = *containers;
  spec.memory_mb = *memory;
  spec.vcores = *vcores;

  ipc::RpcClient client;
  const ipc::ConnectionSpec acp{rm->host, rm->port, client_service::kApplicationClientProtocol,
                                flags.GetString("user", CurrentUser()), std::nullopt};
  y::GetNewApplicationRequestProto new_request;
  y::GetNewApplicationResponseProto new_response;
  Status s = client.Call(acp, "getNewApplication", new_request, &new_response);
  if (!s.ok()) return Fail("shell", s);
  const rm::ApplicationId id = rm::FromProto(new_response.application_id());

  y::SubmitApplicationRequestProto submit;
  y::ApplicationSubmissionContextProto* context = submit.mutable_application_submission_context();
  *context->mutable_application_id() = new_response.application_id();
  context->set_application_name(flags.GetString("name", "spindle-shell"));
  context->set_queue(flags.GetString("queue", "default"));
  context->set_applicationtype("SPINDLE-SHELL");
  context->set_maxappattempts(1);
  context->mutable_resource()->set_memory(*am_memory);
  context->mutable_resource()->set_virtual_cores(1);
  context->mutable_am_container_spec()->add_command(AmCommand(spec, scheduler));
  y::SubmitApplicationResponseProto submitted;
  s = client.Call(acp, "submitApplication", submit, &submitted);
  if (!s.ok()) return Fail("shell", s);
  std::printf("Submitted application %s\n", id.ToString().c_str());
  std::fflush(stdout);

  y::GetApplicationReportRequestProto report_request;
  *report_request.mutable_application_id() = new_response.application_id();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(*timeout);
  y::YarnApplicationStateProto last = y::NEW;
  while (true) {
    y::GetApplicationReportResponseProto report;
    s = client.Call(acp, "getApplicationReport", report_request, &report);
    if (!s.ok()) return Fail("shell", s);
    const y::ApplicationReportProto& r = report.application_report();
    if (r.yarn_application_state() != last) {
      last = r.yarn_application_state();
      std::printf("Application %s is %s\n", id.ToString().c_str(), StateName(last));
      std::fflush(stdout);
    }
    if (last == y::FINISHED || last == y::FAILED || last == y::KILLED) {
      std::printf("Application %s ended: %s, final status %s%s%s\n", id.ToString().c_str(),
                  StateName(last),
                  y::FinalApplicationStatusProto_Name(r.final_application_status()).c_str(),
                  r.diagnostics().empty() ? "" : ", diagnostics: ", r.diagnostics().c_str());
      return r.final_application_status() == y::APP_SUCCEEDED ? 0 : 1;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return Fail("shell", Status::TimedOut("application " + id.ToString() + " did not end in " +
                                            std::to_string(*timeout) + " s"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

namespace {

// ---- the ApplicationMaster --------------------------------------------------

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot read " + path);
  std::ostringstream data;
  data << in.rdbuf();
  return data.str();
}

Result<ipc::ClientToken> AmrmTokenFromEnvironment(const HostPort& scheduler) {
  const char* path = std::getenv("HADOOP_TOKEN_FILE_LOCATION");
  if (path == nullptr) return Status::InvalidArgument("HADOOP_TOKEN_FILE_LOCATION is not set");
  ASSIGN_OR_RETURN(const std::string data, ReadFile(path));
  ASSIGN_OR_RETURN(const rm::Credentials credentials, rm::Credentials::Parse(data));
  for (const auto& entry : credentials.tokens()) {
    if (entry.token.kind == kAmrmTokenKind) {
      return ipc::ClientToken{entry.token.identifier, entry.token.password, entry.token.kind,
                              scheduler.host + ":" + std::to_string(scheduler.port)};
    }
  }
  return Status::NotFound(std::string("no ") + kAmrmTokenKind + " in " + path);
}

class ShellAm {
 public:
  ShellAm(HostPort scheduler, ipc::ClientToken amrm, ShellSpec spec, std::string user)
      : scheduler_(std::move(scheduler)),
        amrm_(std::move(amrm)),
        spec_(std::move(spec)),
        user_(std::move(user)) {}

  Status Run(std::chrono::seconds timeout) {
    y::RegisterApplicationMasterRequestProto reg;
    const char* host = std::getenv("NM_HOST");
    reg.set_host(host != nullptr ? host : "localhost");
    reg.set_rpc_port(-1);
    y::RegisterApplicationMasterResponseProto registered;
    RETURN_NOT_OK(client_.Call(AmSpec(), "registerApplicationMaster", reg, &registered));
    LOG(INFO) << "registered; asking for " << spec_.containers << " containers";

    const auto deadline = std::chrono::steady_clock::now() + timeout;
    bool asked = false;
    while (completed_ < spec_.containers) {
      if (std::chrono::steady_clock::now() > deadline) {
        return Finish(y::APP_FAILED, "timed out after " + std::to_string(completed_) + " of " +
                                         std::to_string(spec_.containers) + " containers");
      }
      y::AllocateRequestProto request;
      request.set_response_id(response_id_);
      request.set_progress(static_cast<float>(completed_) / static_cast<float>(spec_.containers));
      if (!asked) {
        y::ResourceRequestProto* ask = request.add_ask();
        ask->mutable_priority()->set_priority(0);
        ask->set_resource_name("*");
        ask->mutable_capability()->set_memory(spec_.memory_mb);
        ask->mutable_capability()->set_virtual_cores(static_cast<int32_t>(spec_.vcores));
        ask->set_num_containers(static_cast<int32_t>(spec_.containers));
        asked = true;
      }
      for (const auto& id : to_release_) *request.add_release() = id;
      to_release_.clear();
      y::AllocateResponseProto response;
      RETURN_NOT_OK(client_.Call(AmSpec(), "allocate", request, &response));
      response_id_ = response.response_id();
      for (const auto& nm : response.nm_tokens()) {
        nm_tokens_[rm::FromProto(nm.nodeid()).ToString()] = nm.token();
      }
      for (const auto& container : response.allocated_containers()) Launch(container);
      for (const auto& status : response.completed_container_statuses()) {
        ++completed_;
        if (status.exit_status() != 0) ++failed_;
        std::printf("container %s completed, exit status %d%s%s\n",
                    rm::FromProto(status.container_id()).ToString().c_str(), status.exit_status(),
                    status.diagnostics().empty() ? "" : ": ", status.diagnostics().c_str());
        std::fflush(stdout);
      }
      if (completed_ < spec_.containers)
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    if (failed_ == 0) return Finish(y::APP_SUCCEEDED, "");
    return Finish(y::APP_FAILED, std::to_string(failed_) + " of " +
                                     std::to_string(spec_.containers) + " containers failed");
  }

 private:
  ipc::ConnectionSpec AmSpec() const {
    return {scheduler_.host, scheduler_.port, am_protocol::kApplicationMasterProtocol, user_,
            amrm_};
  }

  // Starts the command in `container`; a container that cannot be started
  // counts as a failed one.
  void Launch(const y::ContainerProto& container) {
    const rm::ContainerId id = rm::FromProto(container.id());
    if (launched_ >= spec_.containers) {
      to_release_.push_back(container.id());  // more than we asked for
      return;
    }
    ++launched_;
    const rm::NodeId node = rm::FromProto(container.nodeid());
    auto token = nm_tokens_.find(node.ToString());
    Status started;
    if (token == nm_tokens_.end()) {
      started = Status::NotFound("no NM token for " + node.ToString());
    } else {
      y::StartContainersRequestProto request;
      y::StartContainerRequestProto* start = request.add_start_container_request();
      start->mutable_container_launch_context()->add_command(EncodedCommand(spec_.command));
      *start->mutable_container_token() = container.container_token();
      const ipc::ClientToken nm{token->second.identifier(), token->second.password(),
                                token->second.kind(), token->second.service()};
      const ipc::ConnectionSpec cmp{node.host, static_cast<uint16_t>(node.port),
                                    nm_shim::kContainerManagementProtocol, user_, nm};
      y::StartContainersResponseProto response;
      started = client_.Call(cmp, "startContainers", request, &response);
      if (started.ok() && response.failed_requests_size() > 0) {
        const auto& e = response.failed_requests(0).exception();
        started = Status::Remote(e.class_name(), e.message());
      }
    }
    if (started.ok()) {
      LOG(INFO) << "started " << id.ToString() << " on " << node.ToString();
      return;
    }
    LOG(WARNING) << "could not start " << id.ToString() << ": " << started.ToString();
    ++completed_;
    ++failed_;
    to_release_.push_back(container.id());
  }

  Status Finish(y::FinalApplicationStatusProto final_status, const std::string& diagnostics) {
    y::FinishApplicationMasterRequestProto request;
    request.set_final_application_status(final_status);
    request.set_diagnostics(diagnostics);
    for (int i = 0; i < 100; ++i) {
      y::FinishApplicationMasterResponseProto response;
      RETURN_NOT_OK(client_.Call(AmSpec(), "finishApplicationMaster", request, &response));
      if (response.isunregistered()) return Status::OK();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return Status::TimedOut("the RM did not confirm unregistration");
  }

  const HostPort scheduler_;
  const ipc::ClientToken amrm_;
  const ShellSpec spec_;
  const std::string user_;
  ipc::RpcClient client_;
  int32_t response_id_ = 0;
  int64_t launched_ = 0;
  int64_t completed_ = 0;
  int64_t failed_ = 0;
  std::map<std::string, hadoop::common::TokenProto> nm_tokens_;
  std::vector<y::ContainerIdProto> to_release_;
};

}  // namespace

int ShellAmMain(const CommandLine& flags) {
  Status known = flags.CheckKnown({"rm-scheduler", "num-containers", "memory-mb", "vcores",
                                   "command-base64", "timeout-seconds"});
  if (!known.ok()) return Fail("shell-am", known);
  auto scheduler = ParseHostPort(flags.GetString("rm-scheduler", ""), "rm-scheduler");
  if (!scheduler.ok()) return Fail("shell-am", scheduler.status());
  ShellSpec spec;
  auto command = Base64Decode(flags.GetString("command-base64", ""));
  if (!command.ok() || command->empty()) {
    return Fail("shell-am",
                Status::InvalidArgument("--command-base64 must be a command in base64"));
  }
  spec.command = *command;
  auto containers = flags.GetInt("num-containers", 1);
  auto memory = flags.GetInt("memory-mb", 128);
  auto vcores = flags.GetInt("vcores", 1);
  auto timeout = flags.GetInt("timeout-seconds", 600);
  for (const auto* r : {&containers, &memory, &vcores, &timeout}) {
    if (!r->ok()) return Fail("shell-am", r->status());
    if (**r <= 0)
      return Fail("shell-am", Status::InvalidArgument("numeric flags must be positive"));
  }
  spec.containers = *containers;
  spec.memory_mb = *memory;
  spec.vcores = *vcores;
  auto amrm = AmrmTokenFromEnvironment(*scheduler);
  if (!amrm.ok()) return Fail("shell-am", amrm.status());
  ShellAm am(*scheduler, *amrm, spec, CurrentUser());
  Status s = am.Run(std::chrono::seconds(*timeout));
  if (!s.ok()) return Fail("shell-am", s);
  return 0;
}

}  // namespace spindle
