#include "cmd/shell_app.h"

#include <glog/logging.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "am_protocol/client_service/client_rm_service.h"
#include "am_protocol/client_service/record_protos.h"
#include "base/base64.h"
#include "cmd/client_configuration.h"
#include "cmd/shell_am.h"
#include "rm/config/socket_address.h"
#include "rm/records/yarn_ids.h"
#include "rm/security/credentials.h"
#include "rm/security/yarn_id_protos.h"
#include "security/authentication_method.h"
#include "security/kerberos_credentials.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/sasl_qop.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

namespace y = hadoop::yarn;

// The AMRM token's kind (AMRMTokenIdentifier.KIND_NAME).
constexpr char kAmrmTokenKind[] = "YARN_AM_RM_TOKEN";

using HostPort = rm::SocketAddress;

// An address to connect to: port 0 is no port.
Result<HostPort> ParseHostPort(const std::string& text, const std::string& flag) {
  std::optional<HostPort> address = rm::ParseSocketAddress(text);
  if (!address.has_value() || address->port == 0) {
    return Status::InvalidArgument("--" + flag + " must be host:port, not '" + text + "'");
  }
  return *std::move(address);
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

// ---- the client -------------------------------------------------------------

// `rpc_protection`: the client's hadoop.rpc.protection, handed on as the AM's
// (a Java AM reads the job's configuration; this one has only its command
// line and its container's environment).
std::string AmCommand(const ShellSpec& spec, const std::string& scheduler,
                      const std::string& rpc_protection) {
  std::ostringstream out;
  out << ShellQuote(SelfExecutable()) << " shell-am --rm-scheduler " << scheduler;
  if (!rpc_protection.empty()) out << " --rpc-protection " << ShellQuote(rpc_protection);
  out << " --num-containers " << spec.containers << " --memory-mb " << spec.memory_mb
      << " --vcores " << spec.vcores << " --command-base64 " << Base64Encode(spec.command)
      << " 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr";
  return out.str();
}

// The configuration of `spindle shell` and its AM: --conf DIR, else the
// environment's (LoadClientConfiguration).
Result<rm::Configuration> LoadConfiguration(const CommandLine& flags) {
  return LoadClientConfiguration(flags.GetString("conf", ""));
}

const char* StateName(y::YarnApplicationStateProto state) {
  return y::YarnApplicationStateProto_Name(state).c_str();
}

// The final status as Hadoop prints it: SUCCEEDED, not the proto's
// APP_SUCCEEDED (ProtoUtils.convertFromProtoFormat drops the "APP_" prefix).
std::string FinalStatusName(y::FinalApplicationStatusProto status) {
  return std::string(rm::Name(client_service::FromProto(status)));
}

// With yarn.resourcemanager.ha.enabled in `conf`: every rm-id's `key`
// address and RMProxy's HA policy; nothing without HA.
Status UseRmIdsIfHa(const rm::Configuration& conf, const std::string& key,
                    std::vector<am_protocol::RmProxyTarget>* targets,
                    am_protocol::RmRetryPolicy* policy) {
  ASSIGN_OR_RETURN(const bool ha, conf.GetBool("yarn.resourcemanager.ha.enabled", false));
  if (!ha) return Status::OK();
  ASSIGN_OR_RETURN(*targets, am_protocol::RmProxyTargets(conf, key));
  ASSIGN_OR_RETURN(*policy, am_protocol::RmRetryPolicy::FromConfiguration(conf, true));
  return Status::OK();
}

}  // namespace

const CommandSpec& ShellCommand() {
  static const CommandSpec kSpec{
      "shell",
      "run a command in N containers (our DistributedShell) and wait for it",
      {FlagSpec::String("command", "CMD", "", "the shell command each container runs").Required(),
       FlagSpec::Int("num-containers", ShellSpec{}.containers, "containers to run it in")
           .InRange(1, 1e6),
       FlagSpec::Int("memory-mb", ShellSpec{}.memory_mb, "memory of each container")
           .InRange(1, 1e9),
       FlagSpec::Int("vcores", ShellSpec{}.vcores, "vcores of each container").InRange(1, 1e6),
       FlagSpec::String("rm", "HOST:PORT", "127.0.0.1:8032", "the RM's client address"),
       FlagSpec::String("rm-scheduler", "HOST:PORT", "",
                        "the RM's scheduler address, as its AM reaches it")
           .ComputedDefault("the --rm host, port 8030"),
       FlagSpec::Int("am-memory-mb", 256, "memory of the AM container").InRange(1, 1e9),
       FlagSpec::String("queue", "QUEUE", "default", "the queue to submit to"),
       FlagSpec::String("name", "NAME", "spindle-shell", "the application's name"),
       FlagSpec::String("user", "USER", "", "the user to submit as (SIMPLE authentication)")
           .ComputedDefault("$USER"),
       FlagSpec::String("principal", "PRINCIPAL", "",
                        "with hadoop.security.authentication=kerberos: log in as this principal "
                        "from --keytab")
           .ComputedDefault("the ticket cache of kinit ($KRB5CCNAME)"),
       FlagSpec::String("keytab", "FILE", "", "the keytab of --principal"),
       FlagSpec::Int("timeout-seconds", 600,
                     "give up (exit 1) after this long, reaching the RM included")
           .InRange(1, 1e7),
       FlagSpec::String("conf", "DIR", "",
                        "Hadoop configuration directory (yarn.resourcemanager.connect.*)")
           .ComputedDefault("$HADOOP_CONF_DIR, else $YARN_CONF_DIR")},
      "exit status: 0 if the application SUCCEEDED, 1 if it did not or could not run, 2 for a "
      "usage error"};
  return kSpec;
}

// `spindle shell`'s Kerberos identity with hadoop.security.authentication
// =kerberos: --principal/--keytab logged in (the login is kept in *login),
// else the default ticket cache (cache_name ""). nullopt in SIMPLE mode.
struct ShellKerberos {
  std::string cache_name;
  std::shared_ptr<security::KerberosCredentials> login;
};

Result<std::optional<ShellKerberos>> ShellKerberosLogin(const rm::Configuration& conf,
                                                        const CommandLine& flags) {
  ASSIGN_OR_RETURN(const security::AuthenticationMethod method,
                   security::AuthenticationMethodFromConfiguration(conf));
  if (method != security::AuthenticationMethod::kKerberos) return std::optional<ShellKerberos>();
  const std::string principal = flags.GetString("principal", "");
  const std::string keytab = flags.GetString("keytab", "");
  if (principal.empty() != keytab.empty()) {
    return Status::InvalidArgument("--principal and --keytab go together");
  }
  if (principal.empty()) return std::optional<ShellKerberos>(ShellKerberos{});
  ASSIGN_OR_RETURN(std::unique_ptr<security::KerberosCredentials> login,
                   security::KerberosCredentials::LoginFromKeytab(principal, keytab));
  std::string cache = login->cache_name();
  return std::optional<ShellKerberos>(ShellKerberos{std::move(cache), std::move(login)});
}

int ShellClientMain(const CommandLine& flags) {
  constexpr char kName[] = "shell";
  const auto timeout = std::chrono::seconds(flags.GetInt("timeout-seconds"));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto rm = ParseHostPort(flags.GetString("rm"), "rm");
  if (!rm.ok()) return ReportUsageError(kName, rm.status());
  const std::string scheduler = flags.GetString("rm-scheduler", rm->host + ":8030");
  if (auto s = ParseHostPort(scheduler, "rm-scheduler"); !s.ok()) {
    return ReportUsageError(kName, s.status());
  }
  ShellSpec spec;
  spec.command = flags.GetString("command");
  if (spec.command.empty()) {
    return ReportUsageError(kName, Status::InvalidArgument("--command is empty"));
  }
  spec.containers = flags.GetInt("num-containers");
  spec.memory_mb = flags.GetInt("memory-mb");
  spec.vcores = flags.GetInt("vcores");

  auto conf = LoadConfiguration(flags);
  if (!conf.ok()) return ReportFailure(kName, conf.status());
  auto retry = RmConnectRetry::FromConfiguration(*conf);
  if (!retry.ok()) return ReportFailure(kName, retry.status());
  // --timeout-seconds bounds everything: the retries while the RM cannot be
  // reached, and each connection attempt and call.
  retry->deadline = deadline;
  ipc::RpcClientOptions client_options;
  client_options.connect_timeout =
      std::min<std::chrono::milliseconds>(client_options.connect_timeout, timeout);
  client_options.call_timeout =
      std::min<std::chrono::milliseconds>(client_options.call_timeout, timeout);
  auto qops = ipc::ParseRpcProtection(conf->GetTrimmed(ipc::kRpcProtectionKey).value_or(""));
  if (!qops.ok()) return ReportFailure(kName, qops.status());
  client_options.qops = *qops;
  ipc::RpcClient client(client_options);
  ipc::ConnectionSpec acp{rm->host, rm->port, client_service::kApplicationClientProtocol,
                          flags.GetString("user", CurrentUser()), std::nullopt};
  // Secure mode: KERBEROS with the kinit'd ticket cache, or a keytab log-in.
  auto kerberos = ShellKerberosLogin(*conf, flags);
  if (!kerberos.ok()) return ReportFailure(kName, kerberos.status());
  if (kerberos->has_value()) acp.kerberos = ipc::ClientKerberos{(*kerberos)->cache_name};
  // With HA on in the configuration, the rm-ids' client addresses with
  // RMProxy's failover (--rm is then not used), else --rm.
  std::vector<am_protocol::RmProxyTarget> ha_targets;
  am_protocol::RmRetryPolicy ha_policy;
  if (Status ha = UseRmIdsIfHa(*conf, "yarn.resourcemanager.address", &ha_targets, &ha_policy);
      !ha.ok()) {
    return ReportFailure(kName, ha);
  }
  std::unique_ptr<am_protocol::RmFailoverProxy> ha_proxy;
  if (!ha_targets.empty() && acp.kerberos.has_value()) {
    return ReportFailure(kName, Status::NotSupported("Kerberos with RM HA is not supported by "
                                                     "spindle shell yet"));
  }
  if (!ha_targets.empty()) {
    am_protocol::RmFailoverProxyOptions proxy;
    proxy.protocol = acp.protocol;
    proxy.user = acp.user;
    proxy.policy = ha_policy;
    proxy.deadline = deadline;
    ha_proxy = std::make_unique<am_protocol::RmFailoverProxy>(&client, ha_targets, proxy);
  }
  auto call_rm = [&](const std::string& method, const google::protobuf::MessageLite& request,
                     google::protobuf::MessageLite* response) {
    if (ha_proxy != nullptr) return ha_proxy->Call(method, request, response);
    return CallRmWithRetry(&client, acp, method, request, response, *retry);
  };
  y::GetNewApplicationRequestProto new_request;
  y::GetNewApplicationResponseProto new_response;
  Status s = call_rm("getNewApplication", new_request, &new_response);
  if (!s.ok()) return ReportFailure(kName, s);
  const rm::ApplicationId id = rm::FromProto(new_response.application_id());

  y::SubmitApplicationRequestProto submit;
  y::ApplicationSubmissionContextProto* context = submit.mutable_application_submission_context();
  *context->mutable_application_id() = new_response.application_id();
  context->set_application_name(flags.GetString("name"));
  context->set_queue(flags.GetString("queue"));
  context->set_applicationtype("SPINDLE-SHELL");
  context->set_maxappattempts(1);
  context->mutable_resource()->set_memory(flags.GetInt("am-memory-mb"));
  context->mutable_resource()->set_virtual_cores(1);
  context->mutable_am_container_spec()->add_command(
      AmCommand(spec, scheduler, conf->GetTrimmed(ipc::kRpcProtectionKey).value_or("")));
  y::SubmitApplicationResponseProto submitted;
  s = call_rm("submitApplication", submit, &submitted);
  if (!s.ok()) return ReportFailure(kName, s);
  std::printf("Submitted application %s\n", id.ToString().c_str());
  std::fflush(stdout);

  y::GetApplicationReportRequestProto report_request;
  *report_request.mutable_application_id() = new_response.application_id();
  y::YarnApplicationStateProto last = y::NEW;
  while (true) {
    y::GetApplicationReportResponseProto report;
    s = call_rm("getApplicationReport", report_request, &report);
    if (!s.ok()) return ReportFailure(kName, s);
    const y::ApplicationReportProto& r = report.application_report();
    if (r.yarn_application_state() != last) {
      last = r.yarn_application_state();
      std::printf("Application %s is %s\n", id.ToString().c_str(), StateName(last));
      std::fflush(stdout);
    }
    if (last == y::FINISHED || last == y::FAILED || last == y::KILLED) {
      std::printf("Application %s ended: %s, final status %s%s%s\n", id.ToString().c_str(),
                  StateName(last), FinalStatusName(r.final_application_status()).c_str(),
                  r.diagnostics().empty() ? "" : ", diagnostics: ", r.diagnostics().c_str());
      return r.final_application_status() == y::APP_SUCCEEDED ? 0 : 1;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return ReportFailure(kName,
                           Status::TimedOut("application " + id.ToString() + " did not end in " +
                                            std::to_string(timeout.count()) + " s"));
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

}  // namespace

const CommandSpec& ShellAmCommand() {
  static const CommandSpec kSpec{
      "shell-am",
      "the ApplicationMaster `spindle shell` submits (runs in its container)",
      {FlagSpec::String("rm-scheduler", "HOST:PORT", "", "the RM's scheduler address").Required(),
       FlagSpec::String("command-base64", "BASE64", "", "the command to run, base64-encoded")
           .Required(),
       FlagSpec::Int("num-containers", ShellSpec{}.containers, "containers to run it in")
           .InRange(1, 1e6),
       FlagSpec::Int("memory-mb", ShellSpec{}.memory_mb, "memory of each container")
           .InRange(1, 1e9),
       FlagSpec::Int("vcores", ShellSpec{}.vcores, "vcores of each container").InRange(1, 1e6),
       FlagSpec::Int("timeout-seconds", ShellAmOptions{}.timeout.count(),
                     "unregister FAILED after this long")
           .InRange(1, 1e7),
       FlagSpec::String("conf", "DIR", "",
                        "Hadoop configuration directory (yarn.resourcemanager.connect.*)")
           .ComputedDefault("$HADOOP_CONF_DIR, else $YARN_CONF_DIR"),
       FlagSpec::String("rpc-protection", "QOPS", "",
                        "hadoop.rpc.protection for its calls (the submitting client's)")
           .ComputedDefault("the configuration's hadoop.rpc.protection")},
      "reads its AMRM token from $HADOOP_TOKEN_FILE_LOCATION, as every YARN AM does"};
  return kSpec;
}

int ShellAmMain(const CommandLine& flags) {
  constexpr char kName[] = "shell-am";
  auto scheduler = ParseHostPort(flags.GetString("rm-scheduler"), "rm-scheduler");
  if (!scheduler.ok()) return ReportUsageError(kName, scheduler.status());
  ShellAmOptions options;
  ShellSpec& spec = options.spec;
  auto command = Base64Decode(flags.GetString("command-base64"));
  if (!command.ok() || command->empty()) {
    return ReportUsageError(
        kName, Status::InvalidArgument("--command-base64 must be a command in base64"));
  }
  spec.command = *command;
  spec.containers = flags.GetInt("num-containers");
  spec.memory_mb = flags.GetInt("memory-mb");
  spec.vcores = flags.GetInt("vcores");
  auto conf = LoadConfiguration(flags);
  if (!conf.ok()) return ReportFailure(kName, conf.status());
  auto retry = RmConnectRetry::FromConfiguration(*conf);
  if (!retry.ok()) return ReportFailure(kName, retry.status());
  auto nm_retry = nm_shim::NmConnectRetryPolicy::FromConfiguration(*conf);
  if (!nm_retry.ok()) return ReportFailure(kName, nm_retry.status());
  auto amrm = AmrmTokenFromEnvironment(*scheduler);
  if (!amrm.ok()) return ReportFailure(kName, amrm.status());
  options.scheduler_host = scheduler->host;
  options.scheduler_port = scheduler->port;
  options.amrm = *amrm;
  options.user = CurrentUser();
  const char* host = std::getenv("NM_HOST");
  options.host = host != nullptr ? host : "localhost";
  options.retry = *retry;
  options.nm_retry = *nm_retry;
  auto am_qops = ipc::ParseRpcProtection(
      flags.Has("rpc-protection") ? flags.GetString("rpc-protection", "")
                                  : conf->GetTrimmed(ipc::kRpcProtectionKey).value_or(""));
  if (!am_qops.ok()) return ReportFailure(kName, am_qops.status());
  options.client.qops = *am_qops;
  if (Status ha = UseRmIdsIfHa(*conf, "yarn.resourcemanager.scheduler.address",
                               &options.ha_schedulers, &options.ha_policy);
      !ha.ok()) {
    return ReportFailure(kName, ha);
  }
  options.timeout = std::chrono::seconds(flags.GetInt("timeout-seconds"));
  ShellAm am(std::move(options));
  Status s = am.Run();
  if (!s.ok()) return ReportFailure(kName, s);
  return 0;
}

}  // namespace spindle
