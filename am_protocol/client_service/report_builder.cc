#include "am_protocol/client_service/report_builder.h"

#include <algorithm>

#include "am_protocol/client_service/iso8601_time.h"
#include "am_protocol/client_service/record_protos.h"

namespace spindle::client_service {

namespace y = hadoop::yarn;

namespace {

constexpr char kUnavailable[] = "N/A";
// RMAppImpl.DUMMY_APPLICATION_ATTEMPT_NUMBER.
constexpr int32_t kDummyAttemptNumber = -1;
// ContainerExitStatus.ABORTED: the container went away with its attempt.
constexpr int32_t kExitAborted = -100;

std::string Sanitize(const std::string& url) {
  const bool blank =
      std::all_of(url.begin(), url.end(), [](char c) { return c == ' ' || c == '\t'; });
  return blank ? kUnavailable : url;
}

bool Unregistered(const rm::RmAttempt& attempt) {
  const rm::AttemptState s =
      attempt.state == rm::AttemptState::kFinalSaving ? attempt.after_saving : attempt.state;
  return s == rm::AttemptState::kFinishing || s == rm::AttemptState::kFinished;
}

// Whether the attempt's AM container was ever launched (or, unmanaged,
// handed to its submitter).
bool Launched(const rm::RmAttempt& attempt) {
  switch (attempt.state) {
    case rm::AttemptState::kLaunched:
    case rm::AttemptState::kRunning:
    case rm::AttemptState::kFinishing:
    case rm::AttemptState::kFinished:
      return true;
    default:
      return attempt.am_exit_status.has_value() || attempt.rpc_port != -1 ||
             attempt.host != kUnavailable;
  }
}

// `seconds`: the app's aggregate allocation, which Hadoop sets even on the
// dummy report; null where the report is redacted.
void FillUsage(const std::optional<AppUsage>& usage, const rm::ResourceSeconds* seconds,
               bool with_maps, y::ApplicationResourceUsageReportProto* out) {
  const int64_t memory_seconds = seconds == nullptr ? 0 : seconds->memory_seconds;
  const int64_t vcore_seconds = seconds == nullptr ? 0 : seconds->vcore_seconds;
  // RMAppMetrics' preempted figures, on the dummy report too (3.3's
  // createAndGetApplicationReport sets them from the app's metrics).
  const int64_t preempted_memory_seconds =
      seconds == nullptr ? 0 : seconds->preempted_memory_seconds;
  const int64_t preempted_vcore_seconds = seconds == nullptr ? 0 : seconds->preempted_vcore_seconds;
  if (!usage.has_value()) {
    // RMServerUtils.DUMMY_APPLICATION_RESOURCE_USAGE_REPORT.
    const pool::Resource minus_one = pool::Resource::Of(-1, -1);
    out->set_num_used_containers(-1);
    out->set_num_reserved_containers(-1);
    ToProto(minus_one, out->mutable_used_resources());
    ToProto(minus_one, out->mutable_reserved_resources());
    ToProto(minus_one, out->mutable_needed_resources());
    out->set_memory_seconds(memory_seconds);
    out->set_vcore_seconds(vcore_seconds);
    out->set_preempted_memory_seconds(preempted_memory_seconds);
    out->set_preempted_vcore_seconds(preempted_vcore_seconds);
    return;
  }
  out->set_num_used_containers(usage->num_used_containers);
  out->set_num_reserved_containers(usage->num_reserved_containers);
  ToProto(usage->used, out->mutable_used_resources());
  ToProto(usage->reserved, out->mutable_reserved_resources());
  ToProto(usage->needed, out->mutable_needed_resources());
  out->set_memory_seconds(memory_seconds);
  out->set_vcore_seconds(vcore_seconds);
  out->set_queue_usage_percentage(usage->queue_usage_percentage);
  out->set_cluster_usage_percentage(usage->cluster_usage_percentage);
  out->set_preempted_memory_seconds(preempted_memory_seconds);
  out->set_preempted_vcore_seconds(preempted_vcore_seconds);
  if (!with_maps) return;
  auto add = [](google::protobuf::RepeatedPtrField<y::StringLongMapProto>* map, const char* key,
                int64_t value) {
    auto* entry = map->Add();
    entry->set_key(key);
    entry->set_value(value);
  };
  add(out->mutable_application_resource_usage_map(), "memory-mb", memory_seconds);
  add(out->mutable_application_resource_usage_map(), "vcores", vcore_seconds);
  add(out->mutable_application_preempted_resource_usage_map(), "memory-mb",
      preempted_memory_seconds);
  add(out->mutable_application_preempted_resource_usage_map(), "vcores", preempted_vcore_seconds);
}

}  // namespace

std::string ReportBuilder::ProxyUrl(const rm::ApplicationId& app) const {
  std::string address = options_.proxy_address;
  const uint16_t bound = web_app_port_.load();
  if (options_.proxy_is_rm_webapp && bound != 0) {
    address = address.substr(0, address.rfind(':')) + ":" + std::to_string(bound);
  }
  return "http://" + address + "/proxy/" + app.ToString() + "/";
}

std::string ReportBuilder::AttemptTrackingUrl(const rm::RmApp& app,
                                              const rm::RmAttempt& attempt) const {
  // An unmanaged AM's tracking URL is its own; others go through the proxy.
  if (app.submission.unmanaged_am) return Sanitize(attempt.tracking_url);
  return ProxyUrl(app.submission.id);
}

std::string ReportBuilder::TrackingUrl(const rm::RmApp& app) const {
  const rm::RmAttempt* attempt = app.current_attempt();
  return attempt == nullptr ? ProxyUrl(app.submission.id) : AttemptTrackingUrl(app, *attempt);
}

float ReportBuilder::Progress(const rm::RmApp& app) {
  const rm::RmAttempt* attempt = app.current_attempt();
  if (attempt == nullptr) return 0;
  // RMAppAttemptImpl's FinalTransition sets 1.0 for every final attempt
  // (FINISHED, FAILED, KILLED), as an unregister does.
  return Unregistered(*attempt) || rm::IsFinal(attempt->state) ? 1.0f : app.progress;
}

std::string ReportBuilder::Diagnostics(const rm::RmApp& app) {
  const rm::RmAttempt* attempt = app.current_attempt();
  // RMAppImpl.getDiagnostics: the app's own, else the current attempt's
  // (RMAppAttemptImpl.getDiagnostics: its own, else 3.3's AM launch
  // diagnostics, e.g. why it waits under the AM limit).
  return app.diagnostics.empty() && attempt != nullptr ? rm::ReportedDiagnostics(*attempt)
                                                       : app.diagnostics;
}

int64_t ReportBuilder::LaunchTime(const rm::RmApp& app) {
  for (const auto& a : app.attempts) {
    if (Launched(a)) return a.start_time_ms;
  }
  return 0;
}

ReportBuilder::Lifetime ReportBuilder::LifetimeOf(const rm::RmApp& app) const {
  Lifetime out;
  if (!app.lifetime_expiry_ms.has_value()) return out;
  out.expiry_time = FormatIso8601(*app.lifetime_expiry_ms);
  // RMAppImpl.isAppInCompletedStates.
  switch (app.state) {
    case rm::AppState::kFinished:
    case rm::AppState::kFinishing:
    case rm::AppState::kFailed:
    case rm::AppState::kKilled:
    case rm::AppState::kFinalSaving:
    case rm::AppState::kKilling:
      out.remaining_seconds = 0;
      break;
    default:
      out.remaining_seconds =
          std::max<int64_t>((*app.lifetime_expiry_ms - clock_->WallMillis()) / 1000, 0);
      break;
  }
  return out;
}

int64_t ReportBuilder::WallMillis(TimePoint t) const {
  const auto ago = std::chrono::duration_cast<std::chrono::milliseconds>(clock_->Now() - t);
  return clock_->WallMillis() - ago.count();
}

std::vector<pool::Resource> ReportBuilder::AmContainerOnly(const rm::RmApp& app) {
  const rm::RmAttempt* attempt = app.current_attempt();
  if (attempt == nullptr || !attempt->am_container.has_value() ||
      attempt->am_exit_status.has_value()) {
    return {};
  }
  return {attempt->am_container->placement.resource};
}

std::optional<AppUsage> ReportBuilder::LiveUsage(const rm::RmApp& app,
                                                 const std::vector<pool::Resource>& live) {
  const rm::RmAttempt* attempt = app.current_attempt();
  if (attempt == nullptr || !app.in_pool || rm::IsFinal(attempt->state) ||
      attempt->state == rm::AttemptState::kFinalSaving) {
    return std::nullopt;
  }
  AppUsage usage;
  usage.num_used_containers = static_cast<int32_t>(live.size());
  for (const auto& r : live) usage.used += r;
  usage.needed = usage.used;
  return usage;
}

void ReportBuilder::ApplicationReport(const AppView& view, y::ApplicationReportProto* r) const {
  const rm::RmApp& app = *view.app;
  const rm::Submission& s = app.submission;
  const rm::RmAttempt* attempt = app.current_attempt();
  ToProto(s.id, r->mutable_applicationid());
  r->set_user(s.user);
  r->set_queue(s.queue);
  r->set_name(s.name);
  r->set_yarn_application_state(ToProto(app.yarn_state()));
  r->set_starttime(app.start_time_ms);
  r->set_finishtime(app.finish_time_ms);
  r->set_final_application_status(ToProto(app.final_status));
  r->set_applicationtype(s.type);
  for (const auto& tag : s.tags) r->add_applicationtags(tag);
  r->mutable_priority()->set_priority(s.priority);
  r->set_unmanaged_application(s.unmanaged_am);
  r->set_appnodelabelexpression(ReportedAppNodeLabel(view.extras));
  if (view.extras != nullptr && view.extras->am_node_label.has_value()) {
    r->set_amnodelabelexpression(*view.extras->am_node_label);
  }
  const Lifetime lifetime = LifetimeOf(app);
  auto* timeout = r->add_apptimeouts();
  timeout->set_application_timeout_type(y::APP_TIMEOUT_LIFETIME);
  timeout->mutable_application_timeout()->set_application_timeout_type(y::APP_TIMEOUT_LIFETIME);
  timeout->mutable_application_timeout()->set_expire_time(lifetime.expiry_time);
  timeout->mutable_application_timeout()->set_remaining_time(lifetime.remaining_seconds);
  r->set_launchtime(LaunchTime(app));
  r->set_submittime(app.submit_time_ms);

  if (!view.allow_access) {
    r->set_host(kUnavailable);
    r->set_rpc_port(-1);
    r->set_trackingurl(kUnavailable);
    r->set_originaltrackingurl(kUnavailable);
    r->set_diagnostics(kUnavailable);
    r->set_progress(0);
    FillUsage(std::nullopt, nullptr, false, r->mutable_app_resource_usage());
    ToProto(rm::ApplicationAttemptId{s.id, kDummyAttemptNumber},
            r->mutable_currentapplicationattemptid());
    return;
  }
  if (attempt == nullptr) {
    r->set_host(kUnavailable);
    r->set_rpc_port(-1);
    r->set_trackingurl(ProxyUrl(s.id));
    r->set_originaltrackingurl(kUnavailable);
    r->set_progress(0);
    ToProto(rm::ApplicationAttemptId{s.id, kDummyAttemptNumber},
            r->mutable_currentapplicationattemptid());
  } else {
    r->set_host(attempt->host);
    r->set_rpc_port(attempt->rpc_port);
    r->set_trackingurl(TrackingUrl(app));
    r->set_originaltrackingurl(Sanitize(attempt->tracking_url));
    r->set_progress(Progress(app));
    ToProto(attempt->id, r->mutable_currentapplicationattemptid());
    r->set_log_aggregation_status(options_.log_aggregation_enabled ? y::LOG_NOT_START
                                                                   : y::LOG_DISABLED);
    if (view.amrm_token.has_value()) *r->mutable_am_rm_token() = *view.amrm_token;
    if (view.client_to_am_token.has_value()) {
      *r->mutable_client_to_am_token() = *view.client_to_am_token;
    }
  }
  r->set_diagnostics(Diagnostics(app));
  FillUsage(view.usage, &view.seconds, true, r->mutable_app_resource_usage());
}

void ReportBuilder::AttemptReport(const rm::RmApp& app, const rm::RmAttempt& attempt,
                                  y::ApplicationAttemptReportProto* r) const {
  ToProto(attempt.id, r->mutable_application_attempt_id());
  r->set_host(attempt.host);
  r->set_rpc_port(attempt.rpc_port);
  r->set_tracking_url(AttemptTrackingUrl(app, attempt));
  r->set_original_tracking_url(Sanitize(attempt.tracking_url));
  r->set_diagnostics(rm::ReportedDiagnostics(attempt));
  r->set_yarn_application_attempt_state(AttemptStateProto(attempt));
  if (attempt.am_container.has_value()) {
    ToProto(attempt.am_container->id, r->mutable_am_container_id());
  }
  r->set_starttime(attempt.start_time_ms);
  r->set_finishtime(attempt.finish_time_ms);
}

void ReportBuilder::AmContainerReport(const rm::RmApp& app, const rm::RmAttempt& attempt,
                                      y::ContainerReportProto* r) const {
  const rm::AmContainer& am = *attempt.am_container;
  ToProto(am.id, r->mutable_container_id());
  ToProto(am.placement.resource, r->mutable_resource());
  ToProto(am.node, r->mutable_node_id());
  r->mutable_priority()->set_priority(0);
  r->set_creation_time(am.created_ms != 0 ? am.created_ms : WallMillis(am.placement.committed_at));
  const bool ended = attempt.am_exit_status.has_value() || rm::IsFinal(attempt.state);
  r->set_finish_time(ended ? std::max(attempt.finish_time_ms, attempt.start_time_ms) : 0);
  r->set_diagnostics_info(ended ? attempt.diagnostics : "");
  const std::string node_http = "http://" + am.node_http_address;
  r->set_log_url(node_http + "/node/containerlogs/" + am.id.ToString() + "/" + app.submission.user);
  r->set_container_exit_status(ended ? attempt.am_exit_status.value_or(kExitAborted) : 0);
  r->set_container_state(ended ? y::C_COMPLETE : y::C_RUNNING);
  r->set_node_http_address(node_http);
  r->set_executiontype(y::GUARANTEED);
}

void ReportBuilder::LiveContainerReport(const rm::RmApp& app, const rm::RmContainer& container,
                                        const std::string& node_http_address,
                                        y::ContainerReportProto* r) const {
  ToProto(container.id, r->mutable_container_id());
  ToProto(container.placement.resource, r->mutable_resource());
  ToProto(container.node, r->mutable_node_id());
  r->mutable_priority()->set_priority(container.placement.priority);
  r->set_creation_time(container.created_ms);
  r->set_finish_time(0);
  r->set_diagnostics_info("");
  const std::string node_http = "http://" + node_http_address;
  r->set_log_url(node_http + "/node/containerlogs/" + container.id.ToString() + "/" +
                 app.submission.user);
  r->set_container_exit_status(0);
  r->set_container_state(y::C_RUNNING);
  r->set_node_http_address(node_http);
  r->set_executiontype(y::GUARANTEED);
}

void ReportBuilder::NodeReport(const rm::NodeReport& node, y::NodeReportProto* r) {
  ToProto(node.info.id, r->mutable_nodeid());
  r->set_httpaddress(node.info.http_address);
  r->set_rackname(node.info.rack);
  ToProto(node.used, r->mutable_used());
  ToProto(node.capability, r->mutable_capability());
  if (node.num_containers != 0) r->set_numcontainers(node.num_containers);
  r->set_node_state(ToProto(node.state));
  r->set_health_report(node.health_report);
  r->set_last_health_report_time(node.last_health_report_ms);
  // NodeReport.node_labels (10): the node's labels (RMServerUtils /
  // ClientRMService.createNodeReports take them from the label manager).
  for (const auto& label : node.labels) r->add_node_labels(label);
  // What the node's last heartbeat measured, when it measured anything
  // (NodeReportPBImpl sets them only when present).
  auto utilization = [](const rm::ResourceUtilization& u, y::ResourceUtilizationProto* proto) {
    proto->set_pmem(u.pmem_mb);
    proto->set_vmem(u.vmem_mb);
    proto->set_cpu(u.cpu);
  };
  if (node.containers_utilization.has_value()) {
    utilization(*node.containers_utilization, r->mutable_containers_utilization());
  }
  if (node.node_utilization.has_value()) {
    utilization(*node.node_utilization, r->mutable_node_utilization());
  }
}

}  // namespace spindle::client_service
