#include "am_protocol/client_service/client_rm_service.h"

#include <glog/logging.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "am_protocol/client_service/record_protos.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "rm/yarn_exceptions.h"
#include "security/authentication_method.h"
#include "security/delegation_token_access.h"

namespace spindle::client_service {

namespace y = hadoop::yarn;

namespace {

// ClientRMService.checkReservationSystem (Hadoop 3.3), through
// RPCUtil.getRemoteException: a YarnException.
constexpr char kReservationDisabled[] = "Reservation is not enabled. Please enable & try again";

constexpr char kResourceProfilesDisabled[] =
    "Resource profile is not enabled, please enable resource profile feature before using its "
    "functions. (by setting yarn.resourcemanager.resource-profiles.enabled to true)";

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// ClientRMService.ACTIVE_APP_STATES: tracked by the scheduler.
bool Active(rm::AppState state) {
  switch (state) {
    case rm::AppState::kNew:
    case rm::AppState::kNewSaving:
    case rm::AppState::kSubmitted:
    case rm::AppState::kAccepted:
    case rm::AppState::kRunning:
      return true;
    default:
      return false;
  }
}

// "1.2.3.4:567" or "[::1]:567" -> the address part.
std::string HostOf(const std::string& remote) {
  const size_t colon = remote.rfind(':');
  std::string host = colon == std::string::npos ? remote : remote.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return host;
}

std::string LocalHostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

bool UnderQueue(const rm::QueueTree& tree, const rm::CsQueue* leaf, const rm::CsQueue& queue) {
  for (const rm::CsQueue* q = leaf; q != nullptr;
       q = q->is_root() ? nullptr : &tree.parent_of(*q)) {
    if (q == &queue) return true;
  }
  return false;
}

}  // namespace

Result<ClientRmServiceOptions> ClientRmServiceOptions::FromConfiguration(
    const rm::Configuration& conf) {
  ClientRmServiceOptions options;
  std::string proxy = conf.GetTrimmed("yarn.web-proxy.address").value_or("");
  if (proxy.empty()) {
    options.reports.proxy_is_rm_webapp = true;
    proxy = conf.GetTrimmed("yarn.resourcemanager.webapp.address")
                .value_or(conf.GetTrimmed("yarn.resourcemanager.hostname").value_or("0.0.0.0") +
                          ":8088");
  }
  if (proxy.rfind("0.0.0.0:", 0) == 0) proxy = LocalHostName() + proxy.substr(7);
  options.reports.proxy_address = proxy;
  ASSIGN_OR_RETURN(options.reports.log_aggregation_enabled,
                   conf.GetBool("yarn.log-aggregation-enable", false));
  ASSIGN_OR_RETURN(options.access.acl_enabled, conf.GetBool("yarn.acl.enable", false));
  ASSIGN_OR_RETURN(options.submission.acl.line, rm::HadoopLineOf(conf));
  options.access.admin_acl = rm::AccessControlList::Parse(conf.Get("yarn.admin.acl", "*"));
  ASSIGN_OR_RETURN(const int64_t max_priority,
                   conf.GetInt("yarn.cluster.max-application-priority", 0));
  options.submission.max_application_priority = static_cast<int32_t>(
      std::clamp<int64_t>(max_priority, 0, std::numeric_limits<int32_t>::max()));
  ASSIGN_OR_RETURN(const security::AuthenticationMethod authentication,
                   security::AuthenticationMethodFromConfiguration(conf));
  options.security_enabled = authentication == security::AuthenticationMethod::kKerberos;
  return options;
}

namespace {

// yarn.acl.enable is read once, into the access options; the submission
// rule takes it from there.
ClientRmServiceOptions WithSubmitAclSwitch(ClientRmServiceOptions options) {
  options.submission.acl.acl_enabled = options.access.acl_enabled;
  return options;
}

}  // namespace

ClientRmService::ClientRmService(ClientRmServiceOptions options, rm::ClientFacade* core)
    : options_(WithSubmitAclSwitch(std::move(options))),
      core_(*core),
      access_(options_.access, &core_.groups()),
      reports_(options_.reports, core_.clock()) {}

std::unique_ptr<ipc::RpcService> ClientRmService::MakeRpcService() {
  auto service = std::make_unique<ipc::RpcService>(kApplicationClientProtocol);
#define SPINDLE_ACP_METHOD(name, Method, Req, Resp)                            \
  service->AddMethod<y::Req, y::Resp>(                                         \
      name, [this](const Who& who, const y::Req& request, y::Resp* response) { \
        VLOG(2) << name << " from " << who.user << "@" << who.remote_address;  \
        RETURN_NOT_OK(core_.CheckActive());                                    \
        return Method(who, request, response);                                 \
      })
  SPINDLE_ACP_METHOD("getNewApplication", GetNewApplication, GetNewApplicationRequestProto,
                     GetNewApplicationResponseProto);
  SPINDLE_ACP_METHOD("submitApplication", SubmitApplication, SubmitApplicationRequestProto,
                     SubmitApplicationResponseProto);
  SPINDLE_ACP_METHOD("getApplicationReport", GetApplicationReport, GetApplicationReportRequestProto,
                     GetApplicationReportResponseProto);
  SPINDLE_ACP_METHOD("getApplications", GetApplications, GetApplicationsRequestProto,
                     GetApplicationsResponseProto);
  SPINDLE_ACP_METHOD("forceKillApplication", ForceKillApplication, KillApplicationRequestProto,
                     KillApplicationResponseProto);
  SPINDLE_ACP_METHOD("getClusterMetrics", GetClusterMetrics, GetClusterMetricsRequestProto,
                     GetClusterMetricsResponseProto);
  SPINDLE_ACP_METHOD("getClusterNodes", GetClusterNodes, GetClusterNodesRequestProto,
                     GetClusterNodesResponseProto);
  SPINDLE_ACP_METHOD("getQueueInfo", GetQueueInfo, GetQueueInfoRequestProto,
                     GetQueueInfoResponseProto);
  SPINDLE_ACP_METHOD("getQueueUserAcls", GetQueueUserAcls, GetQueueUserAclsInfoRequestProto,
                     GetQueueUserAclsInfoResponseProto);
  SPINDLE_ACP_METHOD("getApplicationAttemptReport", GetApplicationAttemptReport,
                     GetApplicationAttemptReportRequestProto,
                     GetApplicationAttemptReportResponseProto);
  SPINDLE_ACP_METHOD("getApplicationAttempts", GetApplicationAttempts,
                     GetApplicationAttemptsRequestProto, GetApplicationAttemptsResponseProto);
  SPINDLE_ACP_METHOD("getContainers", GetContainers, GetContainersRequestProto,
                     GetContainersResponseProto);
  SPINDLE_ACP_METHOD("getContainerReport", GetContainerReport, GetContainerReportRequestProto,
                     GetContainerReportResponseProto);
  SPINDLE_ACP_METHOD("moveApplicationAcrossQueues", MoveApplicationAcrossQueues,
                     MoveApplicationAcrossQueuesRequestProto,
                     MoveApplicationAcrossQueuesResponseProto);
  SPINDLE_ACP_METHOD("updateApplicationPriority", UpdateApplicationPriority,
                     UpdateApplicationPriorityRequestProto, UpdateApplicationPriorityResponseProto);
  SPINDLE_ACP_METHOD("failApplicationAttempt", FailApplicationAttempt,
                     FailApplicationAttemptRequestProto, FailApplicationAttemptResponseProto);
  SPINDLE_ACP_METHOD("getClusterNodeLabels", GetClusterNodeLabels, GetClusterNodeLabelsRequestProto,
                     GetClusterNodeLabelsResponseProto);
  SPINDLE_ACP_METHOD("getResourceTypeInfo", GetResourceTypeInfo, GetAllResourceTypeInfoRequestProto,
                     GetAllResourceTypeInfoResponseProto);
  SPINDLE_ACP_METHOD("updateApplicationTimeouts", UpdateApplicationTimeouts,
                     UpdateApplicationTimeoutsRequestProto, UpdateApplicationTimeoutsResponseProto);
  SPINDLE_ACP_METHOD("signalToContainer", SignalToContainer, SignalContainerRequestProto,
                     SignalContainerResponseProto);
  SPINDLE_ACP_METHOD("getNodeToLabels", GetNodeToLabels, GetNodesToLabelsRequestProto,
                     GetNodesToLabelsResponseProto);
  SPINDLE_ACP_METHOD("getLabelsToNodes", GetLabelsToNodes, GetLabelsToNodesRequestProto,
                     GetLabelsToNodesResponseProto);
  SPINDLE_ACP_METHOD("getClusterNodeAttributes", GetClusterNodeAttributes,
                     GetClusterNodeAttributesRequestProto, GetClusterNodeAttributesResponseProto);
  SPINDLE_ACP_METHOD("getAttributesToNodes", GetAttributesToNodes, GetAttributesToNodesRequestProto,
                     GetAttributesToNodesResponseProto);
  SPINDLE_ACP_METHOD("getNodesToAttributes", GetNodesToAttributes, GetNodesToAttributesRequestProto,
                     GetNodesToAttributesResponseProto);
#undef SPINDLE_ACP_METHOD
  // Methods Spindle refuses whatever the request, with the exception Hadoop
  // 3.3 throws when the feature is off (the request is parsed first, as
  // Java's RPC layer does).
#define SPINDLE_ACP_REFUSED(name, Req, Resp, exception, message)                              \
  service->AddMethod<y::Req, y::Resp>(name, [this](const Who& who, const y::Req&, y::Resp*) { \
    VLOG(2) << name << " from " << who.user << "@" << who.remote_address << " refused";       \
    RETURN_NOT_OK(core_.CheckActive());                                                       \
    return Status::Remote(exception, message);                                                \
  })
  // The reservation system is off (yarn.resourcemanager.reservation-system.enable).
  SPINDLE_ACP_REFUSED("getNewReservation", GetNewReservationRequestProto,
                      GetNewReservationResponseProto, rm::yarn::kYarnException,
                      kReservationDisabled);
  SPINDLE_ACP_REFUSED("submitReservation", ReservationSubmissionRequestProto,
                      ReservationSubmissionResponseProto, rm::yarn::kYarnException,
                      kReservationDisabled);
  SPINDLE_ACP_REFUSED("updateReservation", ReservationUpdateRequestProto,
                      ReservationUpdateResponseProto, rm::yarn::kYarnException,
                      kReservationDisabled);
  SPINDLE_ACP_REFUSED("deleteReservation", ReservationDeleteRequestProto,
                      ReservationDeleteResponseProto, rm::yarn::kYarnException,
                      kReservationDisabled);
  SPINDLE_ACP_REFUSED("listReservations", ReservationListRequestProto, ReservationListResponseProto,
                      rm::yarn::kYarnException, kReservationDisabled);
  // Resource profiles are off (yarn.resourcemanager.resource-profiles.enabled):
  // ResourceProfilesManagerImpl.checkAndThrowExceptionWhenFeatureDisabled.
  SPINDLE_ACP_REFUSED("getResourceProfiles", GetAllResourceProfilesRequestProto,
                      GetAllResourceProfilesResponseProto, rm::yarn::kYarnFeatureNotEnabled,
                      kResourceProfilesDisabled);
  SPINDLE_ACP_REFUSED("getResourceProfile", GetResourceProfileRequestProto,
                      GetResourceProfileResponseProto, rm::yarn::kYarnFeatureNotEnabled,
                      kResourceProfilesDisabled);
  namespace c = hadoop::common;
#define SPINDLE_ACP_TOKEN_METHOD(name, Method, Req, Resp)                      \
  service->AddMethod<c::Req, c::Resp>(                                         \
      name, [this](const Who& who, const c::Req& request, c::Resp* response) { \
        VLOG(2) << name << " from " << who.user << "@" << who.remote_address;  \
        RETURN_NOT_OK(core_.CheckActive());                                    \
        return Method(who, request, response);                                 \
      })
  SPINDLE_ACP_TOKEN_METHOD("getDelegationToken", GetDelegationToken, GetDelegationTokenRequestProto,
                           GetDelegationTokenResponseProto);
  SPINDLE_ACP_TOKEN_METHOD("renewDelegationToken", RenewDelegationToken,
                           RenewDelegationTokenRequestProto, RenewDelegationTokenResponseProto);
  SPINDLE_ACP_TOKEN_METHOD("cancelDelegationToken", CancelDelegationToken,
                           CancelDelegationTokenRequestProto, CancelDelegationTokenResponseProto);
#undef SPINDLE_ACP_TOKEN_METHOD
#undef SPINDLE_ACP_REFUSED
  return service;
}

// ---- helpers ---------------------------------------------------------------

AppExtras ClientRmService::ExtrasFor(const rm::RmApp& app) {
  {
    MutexLock lock(&extras_mu_);
    auto it = extras_.find(app.submission.id);
    if (it != extras_.end()) return it->second;
  }
  // Not seen since this process started (e.g. recovered): parse the context.
  y::ApplicationSubmissionContextProto context;
  AppExtras extras =
      context.ParseFromString(app.submission.context_bytes) ? ExtrasOf(context) : AppExtras{};
  MutexLock lock(&extras_mu_);
  extras_[app.submission.id] = extras;
  return extras;
}

void ClientRmService::PruneExtras(const std::vector<rm::RmApp>& live) {
  MutexLock lock(&extras_mu_);
  if (extras_.size() <= live.size()) return;
  std::map<rm::ApplicationId, AppExtras> kept;
  for (const auto& app : live) {
    auto it = extras_.find(app.submission.id);
    if (it != extras_.end()) kept.emplace(it->first, std::move(it->second));
  }
  extras_.swap(kept);
}

Result<rm::RmApp> ClientRmService::FindApp(const rm::ApplicationId& id) const {
  auto app = core_.ApplicationReport(id);
  if (!app.ok() && app.status().java_class() != rm::yarn::kStandby) {
    return Status::Remote(rm::yarn::kApplicationNotFound,
                          "Application with id '" + id.ToString() +
                              "' doesn't exist in RM. Please check that the job submission was "
                              "successful.");
  }
  return app;
}

std::vector<rm::RmContainer> ClientRmService::LiveTaskContainers(
    const rm::ApplicationAttemptId& attempt) const {
  std::vector<rm::RmContainer> out;
  for (auto& container : core_.ContainerReports(attempt)) {
    if (!container.is_am) out.push_back(std::move(container));
  }
  return out;
}

std::optional<AppUsage> ClientRmService::UsageOf(const rm::RmApp& app) const {
  std::vector<pool::Resource> live = ReportBuilder::AmContainerOnly(app);
  if (const rm::RmAttempt* attempt = app.current_attempt(); attempt != nullptr) {
    for (const auto& container : LiveTaskContainers(attempt->id)) {
      live.push_back(container.placement.resource);
    }
  }
  std::optional<AppUsage> usage = ReportBuilder::LiveUsage(app, live);
  const std::shared_ptr<const rm::QueueTree> queues = core_.QueueReport();
  const rm::CsQueue* leaf = queues->FindLeaf(app.submission.queue);
  if (usage.has_value() && leaf != nullptr) {
    const rm::UsagePercentages share =
        rm::UsagePercentagesOf(usage->used, *leaf, core_.ClusterResourceReport().total);
    usage->queue_usage_percentage = share.queue;
    usage->cluster_usage_percentage = share.cluster;
  }
  return usage;
}

std::string ClientRmService::NodeHttpAddress(const rm::NodeId& node) const {
  auto report = core_.NodeReportOf(node);
  // A node that left: assume the default NM web port.
  return report.has_value() ? report->info.http_address : node.host + ":8042";
}

bool ClientRmService::Allowed(const Caller& caller, AppAccessType type, const rm::RmApp& app,
                              const rm::QueueTree& queues) {
  if (!access_.acl_enabled()) return true;
  return access_.Check(caller, type, app, ExtrasFor(app), queues);
}

bool ClientRmService::CanView(const std::string& user, const rm::RmApp& app) {
  return Allowed(access_.CallerOf(user), AppAccessType::kView, app, *core_.QueueReport());
}

Result<rm::RmApp> ClientRmService::AppToModify(const Caller& caller, const rm::ApplicationId& id) {
  ASSIGN_OR_RETURN(rm::RmApp app, FindApp(id));
  if (!Allowed(caller, AppAccessType::kModify, app, *core_.QueueReport())) {
    return Denied("User " + caller.user + " cannot perform operation MODIFY_APP on " +
                  id.ToString());
  }
  return app;
}

Status ClientRmService::Denied(const std::string& message) {
  return Status::Remote(rm::yarn::kYarnException,
                        "org.apache.hadoop.security.AccessControlException: " + message);
}

void ClientRmService::FillReport(const Who& who, const Caller& caller, const rm::RmApp& app,
                                 bool allow_access, y::ApplicationReportProto* report) {
  const AppExtras extras = ExtrasFor(app);
  ReportBuilder::AppView view;
  view.app = &app;
  view.extras = &extras;
  view.allow_access = allow_access;
  if (allow_access) {
    view.usage = UsageOf(app);
    view.seconds = core_.UsageSecondsOf(app.submission.id);
    const rm::RmAttempt* attempt = app.current_attempt();
    if (app.submission.unmanaged_am && caller.user == app.submission.user && attempt != nullptr &&
        attempt->state == rm::AttemptState::kLaunched) {
      if (auto token = core_.AmrmTokenOf(attempt->id); token.ok()) {
        view.amrm_token = rm::ToTokenProto(*token);
      }
    }
    if (attempt != nullptr) {
      const std::string& client =
          who.kerberos_principal.empty() ? who.user : who.kerberos_principal;
      if (std::optional<rm::Token> token = core_.ClientToAmTokenOf(attempt->id, client)) {
        view.client_to_am_token = rm::ToTokenProto(*token);
      }
    }
  }
  reports_.ApplicationReport(view, report);
}

// ---- applications ----------------------------------------------------------

Status ClientRmService::GetNewApplication(const Who&, const y::GetNewApplicationRequestProto&,
                                          y::GetNewApplicationResponseProto* response) {
  ASSIGN_OR_RETURN(const rm::ApplicationId id, core_.NewApplicationId());
  ASSIGN_OR_RETURN(const pool::Resource max_allocation, core_.MaximumAllocation());
  ToProto(id, response->mutable_application_id());
  ToProto(max_allocation, response->mutable_maximumcapability());
  VLOG(1) << "Allocated new applicationId: " << id.id;
  return Status::OK();
}

Status ClientRmService::SubmitApplication(const Who& who,
                                          const y::SubmitApplicationRequestProto& request,
                                          y::SubmitApplicationResponseProto*) {
  const y::ApplicationSubmissionContextProto& context = request.application_submission_context();
  if (context.has_application_id() &&
      core_.ApplicationReport(FromProto(context.application_id())).ok()) {
    // YarnClient re-submits after a lost answer: Hadoop answers success.
    LOG(INFO) << "This is an earlier submitted application: "
              << FromProto(context.application_id()).ToString();
    return Status::OK();
  }
  const Caller caller = access_.CallerOf(who.user);
  const std::shared_ptr<const rm::QueueTree> queues = core_.QueueReport();
  auto translated =
      TranslateSubmission(context, caller.user, caller.groups, *queues, options_.submission);
  if (!translated.ok()) {
    LOG(INFO) << "submitApplication from " << who.user
              << " refused: " << translated.status().message();
    return translated.status();
  }
  const rm::ApplicationId id = translated->submission.id;
  {
    MutexLock lock(&extras_mu_);
    extras_[id] = translated->extras;
  }
  Status submitted = core_.SubmitApplication(std::move(translated->submission));
  if (!submitted.ok()) {
    MutexLock lock(&extras_mu_);
    extras_.erase(id);
  }
  return submitted;
}

Status ClientRmService::GetApplicationReport(const Who& who,
                                             const y::GetApplicationReportRequestProto& request,
                                             y::GetApplicationReportResponseProto* response) {
  if (!request.has_application_id()) {
    return Status::Remote(rm::yarn::kApplicationNotFound, "Invalid application id: null");
  }
  ASSIGN_OR_RETURN(rm::RmApp app, core_.ApplicationReport(FromProto(request.application_id())));
  const Caller caller = access_.CallerOf(who.user);
  const auto queues = core_.QueueReport();
  const bool allow = Allowed(caller, AppAccessType::kView, app, *queues);
  FillReport(who, caller, app, allow, response->mutable_application_report());
  return Status::OK();
}

Status ClientRmService::GetApplications(const Who& who,
                                        const y::GetApplicationsRequestProto& request,
                                        y::GetApplicationsResponseProto* response) {
  const Caller caller = access_.CallerOf(who.user);
  const auto queues = core_.QueueReport();
  std::set<std::string> types;
  for (const auto& type : request.application_types()) types.insert(Lower(type));
  std::set<int> states(request.application_states().begin(), request.application_states().end());
  std::set<std::string> users(request.users().begin(), request.users().end());
  // Requested queues as the pool names of the leaves under them; names the
  // tree does not know match as written.
  std::set<std::string> queue_names;
  for (const auto& name : request.queues()) {
    const rm::CsQueue* q = queues->Find(name);
    if (q == nullptr) {
      queue_names.insert(name);
      continue;
    }
    for (const rm::CsQueue* leaf : queues->Leaves()) {
      if (UnderQueue(*queues, leaf, *q)) queue_names.insert(rm::QueueTree::PoolQueueName(*leaf));
    }
  }
  std::set<std::string> tags(request.applicationtags().begin(), request.applicationtags().end());
  const int64_t limit = request.has_limit() ? request.limit() : std::numeric_limits<int64_t>::max();
  const bool start_range = request.has_start_begin() || request.has_start_end();
  const int64_t start_begin = request.has_start_begin() ? request.start_begin() : 0;
  const int64_t start_end =
      request.has_start_end() ? request.start_end() : std::numeric_limits<int64_t>::max();
  const bool finish_range = request.has_finish_begin() || request.has_finish_end();
  const int64_t finish_begin = request.has_finish_begin() ? request.finish_begin() : 0;
  const int64_t finish_end =
      request.has_finish_end() ? request.finish_end() : std::numeric_limits<int64_t>::max();

  const std::vector<rm::RmApp> apps = core_.ApplicationReports();
  PruneExtras(apps);
  for (const rm::RmApp& app : apps) {
    if (response->applications_size() >= limit) break;
    const rm::Submission& s = app.submission;
    if (request.scope() == y::OWN && caller.user != s.user) continue;
    if (!types.empty() && types.count(Lower(s.type)) == 0) continue;
    if (!states.empty() && states.count(static_cast<int>(app.yarn_state())) == 0) continue;
    if (!users.empty() && users.count(s.user) == 0) continue;
    if (!queue_names.empty() && queue_names.count(s.queue) == 0) continue;
    if (start_range && (app.start_time_ms < start_begin || app.start_time_ms > start_end)) continue;
    if (finish_range && (app.finish_time_ms < finish_begin || app.finish_time_ms > finish_end)) {
      continue;
    }
    if (!tags.empty() && std::none_of(s.tags.begin(), s.tags.end(),
                                      [&](const std::string& t) { return tags.count(t) != 0; })) {
      continue;
    }
    if (request.has_name() && request.name() != s.name) continue;
    const bool allow = Allowed(caller, AppAccessType::kView, app, *queues);
    if (request.scope() == y::VIEWABLE && !allow) continue;
    FillReport(who, caller, app, allow, response->add_applications());
  }
  return Status::OK();
}

Status ClientRmService::ForceKillApplication(const Who& who,
                                             const y::KillApplicationRequestProto& request,
                                             y::KillApplicationResponseProto* response) {
  const rm::ApplicationId id = FromProto(request.application_id());
  auto found = core_.ApplicationReport(id);
  if (!found.ok()) {
    if (found.status().java_class() == rm::yarn::kStandby) return found.status();
    return Status::Remote(rm::yarn::kApplicationNotFound,
                          "Trying to kill an absent application " + id.ToString());
  }
  const rm::RmApp& app = *found;
  const Caller caller = access_.CallerOf(who.user);
  if (!Allowed(caller, AppAccessType::kModify, app, *core_.QueueReport())) {
    return Denied("User " + caller.user + " cannot perform operation MODIFY_APP on " +
                  id.ToString());
  }
  if (rm::IsFinal(app.state)) {
    response->set_is_kill_completed(true);
    return Status::OK();
  }
  std::string message = "Application " + id.ToString() + " was killed by user " + caller.user;
  if (!who.remote_address.empty()) message += " at " + HostOf(who.remote_address);
  const std::string& diagnostics = request.diagnostics();
  if (std::any_of(diagnostics.begin(), diagnostics.end(),
                  [](char c) { return !std::isspace(static_cast<unsigned char>(c)); })) {
    message += " with diagnostic message: " + diagnostics;
  }
  ASSIGN_OR_RETURN(const bool done, core_.KillApplication(id, message));
  LOG(INFO) << message;
  // Unmanaged AMs are told "done" at once so that they do not retry.
  response->set_is_kill_completed(done || app.submission.unmanaged_am);
  return Status::OK();
}

Status ClientRmService::MoveApplicationAcrossQueues(
    const Who& who, const y::MoveApplicationAcrossQueuesRequestProto& request,
    y::MoveApplicationAcrossQueuesResponseProto*) {
  const rm::ApplicationId id = FromProto(request.application_id());
  const Caller caller = access_.CallerOf(who.user);
  RETURN_NOT_OK(AppToModify(caller, id).status());
  Status moved = core_.MoveApplication(id, request.target_queue(), caller.user, caller.groups);
  // The core's AccessControlException reaches the client as
  // RPCUtil.getRemoteException makes it: a YarnException naming it.
  if (moved.java_class() == rm::yarn::kAccessControl) return Denied(moved.message());
  return moved;
}

Status ClientRmService::UpdateApplicationPriority(
    const Who& who, const y::UpdateApplicationPriorityRequestProto& request,
    y::UpdateApplicationPriorityResponseProto* response) {
  const rm::ApplicationId id = FromProto(request.applicationid());
  RETURN_NOT_OK(AppToModify(access_.CallerOf(who.user), id).status());
  // The scheduler caps priorities at the cluster maximum (0 by default).
  const int32_t wanted = std::min(request.applicationpriority().priority(),
                                  options_.submission.max_application_priority);
  ASSIGN_OR_RETURN(const int32_t now, core_.UpdateApplicationPriority(id, wanted));
  response->mutable_applicationpriority()->set_priority(now);
  return Status::OK();
}

Status ClientRmService::FailApplicationAttempt(const Who& who,
                                               const y::FailApplicationAttemptRequestProto& request,
                                               y::FailApplicationAttemptResponseProto*) {
  const rm::ApplicationAttemptId id = FromProto(request.application_attempt_id());
  RETURN_NOT_OK(AppToModify(access_.CallerOf(who.user), id.app).status());
  return core_.FailApplicationAttempt(id, "Attempt failed by user.");
}

// ---- attempts and containers -----------------------------------------------

Status ClientRmService::GetApplicationAttemptReport(
    const Who& who, const y::GetApplicationAttemptReportRequestProto& request,
    y::GetApplicationAttemptReportResponseProto* response) {
  const rm::ApplicationAttemptId id = FromProto(request.application_attempt_id());
  ASSIGN_OR_RETURN(const rm::RmApp app, FindApp(id.app));
  const Caller caller = access_.CallerOf(who.user);
  if (!Allowed(caller, AppAccessType::kView, app, *core_.QueueReport())) {
    return Status::Remote(rm::yarn::kYarnException, "User " + caller.user +
                                                        " does not have privilege to see this "
                                                        "attempt " +
                                                        id.ToString());
  }
  for (const auto& attempt : app.attempts) {
    if (attempt.id != id) continue;
    reports_.AttemptReport(app, attempt, response->mutable_application_attempt_report());
    return Status::OK();
  }
  return Status::Remote(rm::yarn::kApplicationAttemptNotFound,
                        "ApplicationAttempt with id '" + id.ToString() + "' doesn't exist in RM.");
}

Status ClientRmService::GetApplicationAttempts(const Who& who,
                                               const y::GetApplicationAttemptsRequestProto& request,
                                               y::GetApplicationAttemptsResponseProto* response) {
  const rm::ApplicationId id = FromProto(request.application_id());
  ASSIGN_OR_RETURN(const rm::RmApp app, FindApp(id));
  const Caller caller = access_.CallerOf(who.user);
  if (!Allowed(caller, AppAccessType::kView, app, *core_.QueueReport())) {
    return Status::Remote(rm::yarn::kYarnException,
                          "User " + caller.user +
                              " does not have privilege to see this application " + id.ToString());
  }
  for (const auto& attempt : app.attempts) {
    reports_.AttemptReport(app, attempt, response->add_application_attempts());
  }
  return Status::OK();
}

Status ClientRmService::GetContainers(const Who& who, const y::GetContainersRequestProto& request,
                                      y::GetContainersResponseProto* response) {
  const rm::ApplicationAttemptId id = FromProto(request.application_attempt_id());
  ASSIGN_OR_RETURN(const rm::RmApp app, FindApp(id.app));
  const Caller caller = access_.CallerOf(who.user);
  if (!Allowed(caller, AppAccessType::kView, app, *core_.QueueReport())) {
    return Status::Remote(rm::yarn::kYarnException,
                          "User " + caller.user +
                              " does not have privilege to see this application " +
                              id.app.ToString());
  }
  for (const auto& attempt : app.attempts) {
    if (attempt.id != id) continue;
    if (attempt.am_container.has_value()) {
      reports_.AmContainerReport(app, attempt, response->add_containers());
    }
    for (const auto& container : LiveTaskContainers(id)) {
      reports_.LiveContainerReport(app, container, NodeHttpAddress(container.node),
                                   response->add_containers());
    }
    return Status::OK();
  }
  return Status::Remote(rm::yarn::kApplicationAttemptNotFound,
                        "ApplicationAttempt with id '" + id.ToString() + "' doesn't exist in RM.");
}

Status ClientRmService::GetContainerReport(const Who& who,
                                           const y::GetContainerReportRequestProto& request,
                                           y::GetContainerReportResponseProto* response) {
  const rm::ContainerId id = FromProto(request.container_id());
  ASSIGN_OR_RETURN(const rm::RmApp app, FindApp(id.attempt.app));
  const Caller caller = access_.CallerOf(who.user);
  if (!Allowed(caller, AppAccessType::kView, app, *core_.QueueReport())) {
    return Status::Remote(rm::yarn::kYarnException,
                          "User " + caller.user +
                              " does not have privilege to see this application " +
                              id.attempt.app.ToString());
  }
  for (const auto& attempt : app.attempts) {
    if (attempt.id != id.attempt) continue;
    if (attempt.am_container.has_value() && attempt.am_container->id == id) {
      reports_.AmContainerReport(app, attempt, response->mutable_container_report());
      return Status::OK();
    }
    for (const auto& container : LiveTaskContainers(id.attempt)) {
      if (container.id != id) continue;
      reports_.LiveContainerReport(app, container, NodeHttpAddress(container.node),
                                   response->mutable_container_report());
      return Status::OK();
    }
    return Status::Remote(rm::yarn::kContainerNotFound,
                          "Container with id '" + id.ToString() + "' doesn't exist in RM.");
  }
  return Status::Remote(
      rm::yarn::kApplicationAttemptNotFound,
      "ApplicationAttempt with id '" + id.attempt.ToString() + "' doesn't exist in RM.");
}

// ---- cluster ---------------------------------------------------------------

Status ClientRmService::GetClusterMetrics(const Who&, const y::GetClusterMetricsRequestProto&,
                                          y::GetClusterMetricsResponseProto* response) {
  const rm::ClusterNodeCounts counts = core_.NodeCounts();
  y::YarnClusterMetricsProto* m = response->mutable_cluster_metrics();
  // Hadoop counts the nodes of its active map: running (also decommissioning)
  // and unhealthy ones.
  m->set_num_node_managers(counts.active + counts.unhealthy);
  m->set_num_decommissioned_nms(counts.decommissioned);
  m->set_num_active_nms(counts.active - counts.decommissioning);
  m->set_num_lost_nms(counts.lost);
  m->set_num_unhealthy_nms(counts.unhealthy);
  m->set_num_rebooted_nms(counts.rebooted);
  return Status::OK();
}

Status ClientRmService::GetClusterNodes(const Who&, const y::GetClusterNodesRequestProto& request,
                                        y::GetClusterNodesResponseProto* response) {
  std::set<int> states(request.nodestates().begin(), request.nodestates().end());
  // num_containers: what the RM has placed there (SchedulerNodeReport).
  for (const rm::NodeReport& node : core_.NodeReports()) {
    if (!states.empty() && states.count(static_cast<int>(node.state)) == 0) continue;
    ReportBuilder::NodeReport(node, response->add_nodereports());
  }
  return Status::OK();
}

Status ClientRmService::GetResourceTypeInfo(const Who&,
                                            const y::GetAllResourceTypeInfoRequestProto&,
                                            y::GetAllResourceTypeInfoResponseProto* response) {
  const pool::ResourceTypes& types = options_.submission.resource_types;
  for (int i = 0; i < types.size(); ++i) {
    y::ResourceTypeInfoProto* info = response->add_resource_type_info();
    info->set_name(types.name(i));
    info->set_units(i == pool::kMemoryIndex ? "Mi" : "");
    info->set_type(y::COUNTABLE);
  }
  return Status::OK();
}

// ---- queues ----------------------------------------------------------------

void ClientRmService::FillQueueInfo(const rm::QueueTree& tree, const rm::CsQueue& queue,
                                    bool include_children, bool recursive,
                                    const rm::QueueStatsSnapshot& snapshot,
                                    y::QueueInfoProto* info) const {
  const size_t index = static_cast<size_t>(&queue - tree.queues().data());
  const rm::QueueStats& stats = snapshot.stats[index];
  const pool::Resource& cluster = snapshot.cluster;
  info->set_queuename(queue.name);
  info->set_capacity(static_cast<float>(queue.capacity / 100));
  info->set_maximumcapacity(static_cast<float>(queue.maximum_capacity / 100));
  const double guaranteed_mb = static_cast<double>(cluster.memory_mb()) * queue.absolute_capacity;
  info->set_currentcapacity(
      guaranteed_mb > 0
          ? static_cast<float>(static_cast<double>(stats.used.memory_mb()) / guaranteed_mb)
          : 0.0f);
  info->set_state(queue.state == rm::QueueState::kRunning ? y::Q_RUNNING : y::Q_STOPPED);
  if (include_children) {
    for (int child : queue.children) {
      FillQueueInfo(tree, tree.queues()[static_cast<size_t>(child)], recursive, recursive, snapshot,
                    info->add_childqueues());
    }
  }
  for (const auto& label : queue.accessible_node_labels) info->add_accessiblenodelabels(label);

  auto scaled = [&](double fraction) { return rm::ScaledResource(cluster, fraction); };
  const pool::Resource guaranteed = scaled(queue.absolute_capacity);
  const pool::Resource max = scaled(queue.absolute_maximum_capacity);
  const pool::Resource available = rm::AvailableToQueue(guaranteed, stats.used);
  y::QueueStatisticsProto* s = info->mutable_queuestatistics();
  s->set_numappssubmitted(stats.submitted);
  s->set_numappsrunning(stats.running);
  s->set_numappspending(stats.pending);
  s->set_numappscompleted(stats.completed);
  s->set_numappskilled(stats.killed);
  s->set_numappsfailed(stats.failed);
  s->set_numactiveusers(static_cast<int64_t>(stats.active_users.size()));
  s->set_availablememorymb(available.memory_mb());
  s->set_allocatedmemorymb(stats.used.memory_mb());
  s->set_pendingmemorymb(stats.pending_resource.memory_mb());
  s->set_reservedmemorymb(0);
  s->set_availablevcores(available.vcores());
  s->set_allocatedvcores(stats.used.vcores());
  s->set_pendingvcores(stats.pending_resource.vcores());
  s->set_reservedvcores(0);
  s->set_allocatedcontainers(stats.allocated_containers);
  s->set_pendingcontainers(stats.pending_containers);
  s->set_reservedcontainers(0);
  // The preemption monitor's view of the queue (queue_config.h).
  info->set_preemptiondisabled(queue.preemption_disabled);
  y::QueueConfigurationsMapProto* partition = info->add_queueconfigurationsmap();
  partition->set_partitionname("");
  y::QueueConfigurationsProto* c = partition->mutable_queueconfigurations();
  c->set_capacity(static_cast<float>(queue.capacity / 100));
  c->set_absolutecapacity(static_cast<float>(queue.absolute_capacity));
  c->set_maxcapacity(static_cast<float>(queue.maximum_capacity / 100));
  c->set_absolutemaxcapacity(static_cast<float>(queue.absolute_maximum_capacity));
  c->set_maxampercentage(static_cast<float>(queue.maximum_am_resource_fraction));
  ToProto(guaranteed, c->mutable_effectivemincapacity());
  ToProto(max, c->mutable_effectivemaxcapacity());
  ToProto(pool::Resource(), c->mutable_configuredmincapacity());
  ToProto(pool::Resource(), c->mutable_configuredmaxcapacity());
  // The node labels', as 3.3's AbstractCSQueue.getQueueConfigurations over
  // getNodeLabelsForQueue: the labels the queue may access, or with "*"
  // those it has capacities for; effective resources of each partition's.
  const bool any_label =
      std::find(queue.accessible_node_labels.begin(), queue.accessible_node_labels.end(), "*") !=
      queue.accessible_node_labels.end();
  std::vector<std::string> labels;
  if (any_label) {
    for (const auto& [label, capacity] : queue.label_capacities) labels.push_back(label);
  } else {
    labels = queue.accessible_node_labels;
  }
  for (const std::string& label : labels) {
    if (label.empty()) continue;
    const rm::LabelCapacity share = queue.CapacityIn(label);
    auto resources = snapshot.label_resources.find(label);
    const pool::Resource partition_resources =
        resources == snapshot.label_resources.end() ? pool::Resource() : resources->second;
    y::QueueConfigurationsMapProto* entry = info->add_queueconfigurationsmap();
    entry->set_partitionname(label);
    y::QueueConfigurationsProto* lc = entry->mutable_queueconfigurations();
    lc->set_capacity(static_cast<float>(share.capacity));
    lc->set_absolutecapacity(static_cast<float>(share.absolute_capacity));
    lc->set_maxcapacity(static_cast<float>(share.maximum_capacity));
    lc->set_absolutemaxcapacity(static_cast<float>(share.absolute_maximum_capacity));
    lc->set_maxampercentage(static_cast<float>(queue.maximum_am_resource_fraction));
    ToProto(rm::ScaledResource(partition_resources, share.absolute_capacity),
            lc->mutable_effectivemincapacity());
    ToProto(rm::ScaledResource(partition_resources, share.absolute_maximum_capacity),
            lc->mutable_effectivemaxcapacity());
    ToProto(pool::Resource(), lc->mutable_configuredmincapacity());
    ToProto(pool::Resource(), lc->mutable_configuredmaxcapacity());
  }
  info->set_intraqueuepreemptiondisabled(true);
}

Status ClientRmService::GetQueueInfo(const Who& who, const y::GetQueueInfoRequestProto& request,
                                     y::GetQueueInfoResponseProto* response) {
  // The statistics and the tree they index, taken together.
  const rm::QueueStatsSnapshot snapshot = core_.QueueStatistics();
  const std::shared_ptr<const rm::QueueTree> tree = snapshot.tree;
  const rm::CsQueue* queue = tree != nullptr ? tree->Find(request.queuename()) : nullptr;
  if (queue == nullptr) {
    // Hadoop 3 logs "Unknown queue" and answers without a QueueInfo; clients
    // report that the queue was not found.
    VLOG(1) << "getQueueInfo: unknown queue '" << request.queuename() << "'";
    return Status::OK();
  }
  y::QueueInfoProto* info = response->mutable_queueinfo();
  FillQueueInfo(*tree, *queue, request.includechildqueues(), request.recursive(), snapshot, info);
  if (request.includeapplications()) {
    // The applications the scheduler holds in the queue or below it.
    const Caller caller = access_.CallerOf(who.user);
    for (const rm::RmApp& app : core_.ApplicationReports()) {
      if (!Active(app.state) || !app.in_pool) continue;
      if (!UnderQueue(*tree, tree->FindLeaf(app.submission.queue), *queue)) continue;
      if (!Allowed(caller, AppAccessType::kView, app, *tree)) continue;
      FillReport(who, caller, app, true, info->add_applications());
    }
  }
  return Status::OK();
}

Status ClientRmService::GetQueueUserAcls(const Who& who, const y::GetQueueUserAclsInfoRequestProto&,
                                         y::GetQueueUserAclsInfoResponseProto* response) {
  const auto tree = core_.QueueReport();
  const Caller caller = access_.CallerOf(who.user);
  for (const rm::CsQueue& queue : tree->queues()) {
    y::QueueUserACLInfoProto* acls = response->add_queueuseracls();
    acls->set_queuename(queue.name);
    if (tree->HasAccess(queue, rm::QueueAcl::kSubmitApplications, caller.user, caller.groups)) {
      acls->add_useracls(y::QACL_SUBMIT_APPLICATIONS);
    }
    if (tree->HasAccess(queue, rm::QueueAcl::kAdministerQueue, caller.user, caller.groups)) {
      acls->add_useracls(y::QACL_ADMINISTER_QUEUE);
    }
  }
  return Status::OK();
}

// ---- delegation tokens -------------------------------------------------------
//
// Java's ClientRMService checks isAllowedDelegationTokenOp() first
// (security/delegation_token_access.h): with security on only a caller that
// authenticated with Kerberos may get, renew or cancel; with it off, anyone.
// Its IOExceptions reach the client through RPCUtil.getRemoteException: a
// YarnException whose message is the cause's toString(), "<class>: <message>".

namespace {

// UGI.getUserName() of the caller: a Kerberos caller's full principal
// ("alice@REALM"; a proxy user's name as its context gave it), else the
// connection's user.
const std::string& FullUserName(const ClientRmService::Who& who) {
  return who.auth_method == ipc::AuthMethod::kKerberos && who.real_user.empty() &&
                 !who.kerberos_principal.empty()
             ? who.kerberos_principal
             : who.user;
}

Status AsYarnException(const Status& cause) {
  if (cause.java_class() == rm::yarn::kStandby) return cause;
  const std::string& java_class =
      cause.java_class().empty() ? std::string("java.io.IOException") : cause.java_class();
  return Status::Remote(rm::yarn::kYarnException, java_class + ": " + cause.message());
}

}  // namespace

Status ClientRmService::GetDelegationToken(
    const Who& who, const hadoop::common::GetDelegationTokenRequestProto& request,
    hadoop::common::GetDelegationTokenResponseProto* response) {
  Status allowed = security::CheckDelegationTokenOp(options_.security_enabled, who.auth_method,
                                                    security::DelegationTokenOp::kGet);
  if (!allowed.ok()) return AsYarnException(allowed);
  // Java (3.3 and 2.6): owner = the caller's UGI user name (under Kerberos
  // its full principal, not the short name calls run as), realUser = its
  // real user's name (proxy users: under Kerberos the real user's
  // principal), renewer = new Text(request.getRenewer()) reduced to a short
  // name.
  const std::string& real_user =
      !who.real_user.empty() && who.auth_method == ipc::AuthMethod::kKerberos
          ? who.kerberos_principal
          : who.real_user;
  ASSIGN_OR_RETURN(const rm::Token token,
                   core_.CreateDelegationToken(FullUserName(who), request.renewer(), real_user));
  rm::ToTokenProto(token, response->mutable_token());
  return Status::OK();
}

Status ClientRmService::RenewDelegationToken(
    const Who& who, const hadoop::common::RenewDelegationTokenRequestProto& request,
    hadoop::common::RenewDelegationTokenResponseProto* response) {
  Status allowed = security::CheckDelegationTokenOp(options_.security_enabled, who.auth_method,
                                                    security::DelegationTokenOp::kRenew);
  if (!allowed.ok()) return AsYarnException(allowed);
  // Java renews as the caller's short name (getRenewerForToken; its
  // exception for the RM's own login user does not arise: Spindle's RM makes
  // no RPCs to itself).
  auto expiry = core_.RenewDelegationToken(rm::FromTokenProto(request.token()),
                                           rm::RmDelegationTokenSecretManager::ShortName(who.user));
  if (!expiry.ok()) return AsYarnException(expiry.status());
  response->set_newexpirytime(static_cast<uint64_t>(*expiry));
  return Status::OK();
}

Status ClientRmService::CancelDelegationToken(
    const Who& who, const hadoop::common::CancelDelegationTokenRequestProto& request,
    hadoop::common::CancelDelegationTokenResponseProto* /*response*/) {
  Status allowed = security::CheckDelegationTokenOp(options_.security_enabled, who.auth_method,
                                                    security::DelegationTokenOp::kCancel);
  if (!allowed.ok()) return AsYarnException(allowed);
  // Java cancels as the caller's UGI user name (the owner's full name).
  Status cancelled =
      core_.CancelDelegationToken(rm::FromTokenProto(request.token()), FullUserName(who));
  if (!cancelled.ok()) return AsYarnException(cancelled);
  return Status::OK();
}

}  // namespace spindle::client_service
