// ReportBuilder: the RM's records as the report messages of the
// ApplicationClientProtocol, with the fields and placeholder values Hadoop's
// RMAppImpl / RMAppAttemptImpl / RMContainerImpl / ClientRMService fill
// (WIRE.md 5.2):
//   ApplicationReportProto  every field Java 3.x sets: "N/A" host, -1 port,
//     proxy tracking URL http://<proxy>/proxy/<appId>/, "N/A" original
//     tracking URL until the AM gives one, diagnostics of the app (or of its
//     current attempt), app_resource_Usage always (a -1 "dummy" while no
//     attempt is with the scheduler), currentApplicationAttemptId (attempt -1
//     before the first), times, final status, type, tags, priority,
//     unmanaged flag, label expressions, the LIFETIME timeout (UNLIMITED or
//     the app's expiry time and remaining seconds),
//     launch and submit times, log aggregation status. Callers without VIEW
//     access get Hadoop's redacted report.
//   ApplicationAttemptReportProto, the AM container's ContainerReportProto,
//   NodeReportProto (numContainers omitted when 0, as NodeReportPBImpl does).
//
// Thread-safety: immutable but for the web app port (atomic); use from any
// thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "am_protocol/client_service/submission_translator.h"
#include "base/clock.h"
#include "rm/apps/rm_app.h"
#include "rm/containers/container_registry.h"
#include "rm/nodes/node_registry.h"
#include "security.pb.h"
#include "yarn_protos.pb.h"

namespace spindle::client_service {

// An application's resource usage, as the scheduler reports it for its
// current attempt.
struct AppUsage {
  int32_t num_used_containers = 0;
  int32_t num_reserved_containers = 0;
  pool::Resource used;
  pool::Resource reserved;
  pool::Resource needed;
  float queue_usage_percentage = 0;
  float cluster_usage_percentage = 0;
};

struct ReportOptions {
  // host:port of the web proxy that tracking URLs point at
  // (yarn.web-proxy.address, else the RM web app). Default: "localhost:8088".
  std::string proxy_address = "localhost:8088";
  // proxy_address is the RM's own web app (no yarn.web-proxy.address), so
  // its port follows the web server's bound port (SetWebAppPort). Default:
  // false.
  bool proxy_is_rm_webapp = false;
  // yarn.log-aggregation-enable: reports say LOG_DISABLED when off.
  // Default: false.
  bool log_aggregation_enabled = false;
};

class ReportBuilder {
 public:
  // `clock` (for container creation times) must outlive the builder.
  ReportBuilder(ReportOptions options, const Clock* clock)
      : options_(std::move(options)), clock_(clock) {}

  const ReportOptions& options() const { return options_; }

  // The RM web app's bound port, known once it started (a configured port 0
  // is never where it listens). When proxy_is_rm_webapp, tracking URLs carry
  // it from then on, as Hadoop 3.3's ResourceManager.serviceStart writes the
  // bound port back (WebAppUtils.setRMWebAppPort) before its services build
  // proxy URLs. Thread-safe.
  void SetWebAppPort(uint16_t port) { web_app_port_.store(port); }

  // http://<proxy>/proxy/<appId>/
  std::string ProxyUrl(const rm::ApplicationId& app) const;

  // What a caller with VIEW access is told about an app, shared by the RPC
  // report and the REST API's AppInfo so that both always agree:
  // the tracking URL (the proxy URL; an unmanaged AM's own URL, or "N/A"),
  std::string TrackingUrl(const rm::RmApp& app) const;
  // the progress in [0, 1] (1 once the AM unregistered; 0 before an attempt),
  static float Progress(const rm::RmApp& app);
  // the diagnostics (the app's, else its current attempt's),
  static std::string Diagnostics(const rm::RmApp& app);
  // and the launch time (start of the first attempt whose AM was launched;
  // 0 if none was).
  static int64_t LaunchTime(const rm::RmApp& app);
  // and its LIFETIME timeout, as RMAppImpl.createAndGetApplicationReport
  // reports it (Hadoop 3.3): "UNLIMITED" and -1 without a lifetime; else the
  // expiry time in ISO8601 (iso8601_time.h) and the whole seconds left (0
  // once past, and 0 for an app in a completed state).
  struct Lifetime {
    std::string expiry_time = "UNLIMITED";
    int64_t remaining_seconds = -1;
  };
  Lifetime LifetimeOf(const rm::RmApp& app) const;

  struct AppView {
    const rm::RmApp* app = nullptr;
    const AppExtras* extras = nullptr;
    // VIEW_APP access: without it, details are redacted.
    bool allow_access = true;
    // Usage of the current attempt; nullopt when the scheduler does not hold
    // it (no attempt yet, or it ended): the report then carries Hadoop's
    // dummy (-1) usage.
    std::optional<AppUsage> usage;
    // The app's aggregate allocation over all its attempts (memory- and
    // vcore-seconds), reported whether or not the scheduler holds it.
    rm::ResourceSeconds seconds;
    // The AMRM token, only for the owner of an unmanaged AM whose attempt is
    // LAUNCHED (the submitter runs the AM with it).
    std::optional<hadoop::common::TokenProto> amrm_token;
    // The caller's ClientToAMToken (secure mode, registered attempt).
    std::optional<hadoop::common::TokenProto> client_to_am_token;
  };
  void ApplicationReport(const AppView& view, hadoop::yarn::ApplicationReportProto* report) const;

  void AttemptReport(const rm::RmApp& app, const rm::RmAttempt& attempt,
                     hadoop::yarn::ApplicationAttemptReportProto* report) const;

  // The report of `attempt`'s AM container, which must be set.
  void AmContainerReport(const rm::RmApp& app, const rm::RmAttempt& attempt,
                         hadoop::yarn::ContainerReportProto* report) const;
  // A live container of the app (from the container registry) on a node
  // whose web address is `node_http_address` (host:port).
  void LiveContainerReport(const rm::RmApp& app, const rm::RmContainer& container,
                           const std::string& node_http_address,
                           hadoop::yarn::ContainerReportProto* report) const;

  static void NodeReport(const rm::NodeReport& node, hadoop::yarn::NodeReportProto* report);

  // The usage of a live, scheduled attempt from its live containers (`live`,
  // from the container registry; without one, pass the AM container only);
  // nullopt when the scheduler does not hold the attempt.
  static std::optional<AppUsage> LiveUsage(const rm::RmApp& app,
                                           const std::vector<pool::Resource>& live);
  // The AM container's resource if it is live (the input to LiveUsage when
  // there is no container registry).
  static std::vector<pool::Resource> AmContainerOnly(const rm::RmApp& app);

 private:
  std::string AttemptTrackingUrl(const rm::RmApp& app, const rm::RmAttempt& attempt) const;

  // Wall-clock milliseconds of a pool time point.
  int64_t WallMillis(TimePoint t) const;

  const ReportOptions options_;
  const Clock* const clock_;
  std::atomic<uint16_t> web_app_port_{0};  // 0: not known (yet)
};

}  // namespace spindle::client_service
