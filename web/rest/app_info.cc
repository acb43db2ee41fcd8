#include "web/rest/app_info.h"

#include <utility>
#include <vector>

#include "am_protocol/client_service/report_builder.h"
#include "web/rest/cluster_info.h"
#include "web/rest/resource_info.h"

namespace spindle::web::rest {

namespace {

constexpr char kUnavailable[] = "N/A";

// Hadoop's Times.elapsed(started, finished) for a running app.
int64_t Elapsed(int64_t started, int64_t finished, int64_t now) {
  if (finished > 0 && started > 0) return finished >= started ? finished - started : 0;
  const int64_t elapsed = started > 0 ? now - started : 0;
  return elapsed >= 0 ? elapsed : 0;
}

// A Map<String, Long> as Jersey 1's natural JSON writes it (see header).
RestNode MapNode(const std::vector<std::pair<std::string, int64_t>>& entries) {
  RestNode map;
  for (const auto& [key, value] : entries) {
    RestNode entry;
    entry.Str("key", key).Str("value", std::to_string(value));
    map.Put("entry", std::move(entry));
  }
  return map;
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::string ContainerLogsUrl(const rm::AmContainer& am, const std::string& user) {
  return "http://" + am.node_http_address + "/node/containerlogs/" + am.id.ToString() + "/" + user;
}

}  // namespace

const std::vector<std::string>& YarnAppStateNames() {
  static const std::vector<std::string> kNames = {"NEW",     "NEW_SAVING", "SUBMITTED", "ACCEPTED",
                                                  "RUNNING", "FINISHED",   "FAILED",    "KILLED"};
  return kNames;
}

RestNode AppInfoNode(const ClusterWebDeps& deps, const rm::RmApp& app, bool has_access,
                     const DeSelects& deselects) {
  using client_service::ReportBuilder;
  const rm::Submission& s = app.submission;
  const rm::RmAttempt* attempt = app.current_attempt();
  const rm::YarnAppState state = app.yarn_state();
  const ReportBuilder& reports = deps.client->reports();
  const client_service::AppExtras extras = deps.client->ExtrasFor(app);

  // RMAppImpl.getTrackingUrl is the current attempt's (none before one).
  const bool tracking_ready = attempt != nullptr && state != rm::YarnAppState::kNew &&
                              state != rm::YarnAppState::kNewSaving &&
                              state != rm::YarnAppState::kSubmitted &&
                              state != rm::YarnAppState::kAccepted;
  const std::string tracking_url = tracking_ready ? reports.TrackingUrl(app) : "";
  const bool has_url = tracking_ready && !tracking_url.empty();

  RestNode info;
  info.Str("id", s.id.ToString())
      .Str("user", s.user)
      .Str("name", s.name)
      .Str("queue", s.queue)
      .Str("state", std::string(rm::Name(state)))
      .Str("finalStatus", std::string(rm::Name(app.final_status)))
      .Float("progress", ReportBuilder::Progress(app) * 100)
      .Str("trackingUI",
           !has_url ? "UNASSIGNED" : (app.finish_time_ms == 0 ? "ApplicationMaster" : "History"));
  if (has_url) info.Str("trackingUrl", tracking_url);
  info.Str("diagnostics", ReportBuilder::Diagnostics(app))
      .Int("clusterId", ClusterIdentityNow(deps).cluster_timestamp)
      .Str("applicationType", s.type)
      .Str("applicationTags", Join(s.tags, ","))
      .Int("priority", s.priority);

  const Clock* clock = deps.core->clock();
  const bool has_am = has_access && attempt != nullptr && attempt->am_container.has_value();
  std::optional<client_service::AppUsage> usage;
  if (has_access) usage = deps.client->UsageOf(app);
  if (has_access) {
    info.Int("startedTime", app.start_time_ms)
        .Int("launchTime", ReportBuilder::LaunchTime(app))
        .Int("finishedTime", app.finish_time_ms)
        .Int("elapsedTime", Elapsed(app.start_time_ms, app.finish_time_ms, clock->WallMillis()));
  } else {
    info.Int("startedTime", 0).Int("launchTime", 0).Int("finishedTime", 0).Int("elapsedTime", 0);
  }
  if (has_am) {
    info.Str("amContainerLogs", ContainerLogsUrl(*attempt->am_container, s.user))
        .Str("amHostHttpAddress", attempt->am_container->node_http_address);
  }
  if (has_access && attempt != nullptr && attempt->host != kUnavailable &&
      attempt->rpc_port != -1) {
    info.Str("amRPCAddress", attempt->host + ":" + std::to_string(attempt->rpc_port));
  }
  if (has_am) info.Str("masterNodeId", attempt->am_container->node.ToString());

  // The scheduler's usage report of the current attempt; Hadoop's dummy
  // (-1) report when the scheduler does not hold it.
  int64_t allocated_mb = 0, allocated_vcores = 0, reserved_mb = 0, reserved_vcores = 0;
  int64_t running = 0;
  float queue_usage = 0, cluster_usage = 0;
  if (has_access && attempt != nullptr) {
    if (usage.has_value()) {
      allocated_mb = usage->used.memory_mb();
      allocated_vcores = usage->used.vcores();
      reserved_mb = usage->reserved.memory_mb();
      reserved_vcores = usage->reserved.vcores();
      running = usage->num_used_containers;
      queue_usage = usage->queue_usage_percentage;
      cluster_usage = usage->cluster_usage_percentage;
    } else {
      allocated_mb = allocated_vcores = reserved_mb = reserved_vcores = running = -1;
    }
  }
  const rm::ResourceSeconds seconds = deps.core->UsageSecondsOf(s.id);
  info.Int("allocatedMB", allocated_mb)
      .Int("allocatedVCores", allocated_vcores)
      .Int("reservedMB", reserved_mb)
      .Int("reservedVCores", reserved_vcores)
      .Int("runningContainers", running)
      .Int("memorySeconds", seconds.memory_seconds)
      .Int("vcoreSeconds", seconds.vcore_seconds)
      .Float("queueUsagePercentage", queue_usage)
      .Float("clusterUsagePercentage", cluster_usage)
      .Put("resourceSecondsMap",
           MapNode({{"memory-mb", seconds.memory_seconds}, {"vcores", seconds.vcore_seconds}}))
      // RMAppMetrics: what preemption took, summed over the attempts.
      .Int("preemptedResourceMB", seconds.preempted.memory_mb())
      .Int("preemptedResourceVCores", seconds.preempted.vcores())
      .Int("numNonAMContainerPreempted", seconds.num_non_am_preempted)
      .Int("numAMContainerPreempted", seconds.num_am_preempted)
      .Int("preemptedMemorySeconds", seconds.preempted_memory_seconds)
      .Int("preemptedVcoreSeconds", seconds.preempted_vcore_seconds)
      // Hadoop's map holds entries once a container was preempted
      // (RMAppAttemptMetrics.updateAggregatePreemptedAppResourceUsage).
      .Put("preemptedResourceSecondsMap",
           seconds.num_am_preempted + seconds.num_non_am_preempted == 0
               ? MapNode({})
               : MapNode({{"memory-mb", seconds.preempted_memory_seconds},
                          {"vcores", seconds.preempted_vcore_seconds}}));
  if (has_access) {
    info.Str("logAggregationStatus",
             reports.options().log_aggregation_enabled ? "NOT_START" : "DISABLED");
  }
  info.Bool("unmanagedApplication", s.unmanaged_am);
  if (!deselects.app_node_label_expression) {
    info.OptStr("appNodeLabelExpression", extras.app_node_label);
  }
  if (!deselects.am_node_label_expression && extras.am_node_label.has_value()) {
    // The AM request's own label, which the RM normalized to "" (the
    // default partition); the RPC report names that partition instead.
    info.Str("amNodeLabelExpression", *extras.am_node_label == client_service::kDefaultPartition
                                          ? ""
                                          : *extras.am_node_label);
  }
  if (!deselects.timeouts) {
    const client_service::ReportBuilder::Lifetime lifetime = reports.LifetimeOf(app);
    RestNode timeout;
    timeout.Str("type", "LIFETIME")
        .Str("expiryTime", lifetime.expiry_time)
        .Int("remainingTimeInSeconds", lifetime.remaining_seconds);
    RestNode timeouts;
    timeouts.Items("timeout", {std::move(timeout)});
    info.Put("timeouts", std::move(timeouts));
  }
  return info;
}

RestDocument AppAttemptsDocument(const rm::RmApp& app, bool has_access) {
  std::vector<RestNode> items;
  for (const rm::RmAttempt& attempt : app.attempts) {
    RestNode a;
    a.Int("id", attempt.id.attempt)
        .Int("startTime", attempt.start_time_ms)
        .Int("finishedTime", attempt.finish_time_ms);
    if (has_access && attempt.am_container.has_value()) {
      const rm::AmContainer& am = *attempt.am_container;
      a.Str("containerId", am.id.ToString())
          .Str("nodeHttpAddress", am.node_http_address)
          .Str("nodeId", am.node.ToString())
          .Str("logsLink", ContainerLogsUrl(am, app.submission.user))
          .Str("blacklistedNodes", "")
          .Str("nodesBlacklistedBySystem", "");
    } else {
      a.Str("containerId", "")
          .Str("nodeHttpAddress", "")
          .Str("nodeId", "")
          .Str("logsLink", "")
          .Str("blacklistedNodes", "");
    }
    a.Str("appAttemptId", attempt.id.ToString());
    // AppAttemptInfo (3.3) sets Gson's toJson(masterContainer.getExposedPorts()).
    // The RM never sets a master container's exposed ports (only the NM's
    // container statuses carry them), so a live container's and one rebuilt
    // from the store alike answer null, which Gson writes as the text "null".
    a.Str("exportPorts", has_access && attempt.am_container.has_value() ? "null" : "");
    items.push_back(std::move(a));
  }
  RestNode body;
  body.Items("appAttempt", std::move(items));
  return RestDocument("appAttempts", std::move(body));
}

RestDocument AppStateDocument(const rm::RmApp& app) {
  RestNode body;
  body.Str("state", std::string(rm::Name(app.state)));
  // AppState is not among the DAOs of Hadoop's JAXBContextResolver: Jersey
  // writes it with its default JSON provider, root unwrapped.
  return RestDocument("appstate", std::move(body), RestDocument::JsonRoot::kUnwrapped);
}

}  // namespace spindle::web::rest
