// ClientRmService: the RM's ApplicationClientProtocol (port 8032,
// "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB"), the protocol of
// `yarn application/node/queue`, YarnClient, MapReduce's job client and
// DistributedShell's client. Handlers decode the request, call the RM core
// through its ClientFacade (rm/core/client_facade.h: the ResourceManager in
// the daemon) and encode the answer as Hadoop's ClientRMService does (WIRE.md
// 4, 5.2). While the core is standby every method answers Hadoop's
// StandbyException (org.apache.hadoop.ipc.StandbyException), on which a
// client's RM failover proxy tries the next RM:
//
//   getNewApplication, submitApplication, getApplicationReport,
//   getApplications (every filter), forceKillApplication, getClusterMetrics,
//   getClusterNodes, getQueueInfo, getQueueUserAcls,
//   getApplicationAttemptReport, getApplicationAttempts, getContainers,
//   getContainerReport (the AM container of each attempt, plus the live
//   containers the container registry holds, if given),
//   moveApplicationAcrossQueues (checked, then refused: YarnException),
//   updateApplicationPriority (capped at yarn.cluster.max-application-priority;
//   a real change is refused), failApplicationAttempt (finished attempts
//   only), getClusterNodeLabels (the RM's labels), getResourceTypeInfo,
//   getResourceProfiles / getResourceProfile (YARNFeatureNotEnabledException,
//   which DistributedShell's client expects when profiles are off),
//   getDelegationToken / renewDelegationToken / cancelDelegationToken (the
//   core's RM delegation tokens; Apache's RM serves them with security off
//   too; with Kerberos on, only to Kerberos-authenticated callers),
//   updateApplicationTimeouts (the LIFETIME, watched by the app manager),
//   signalToContainer (queued for the container's node's next heartbeat),
//   getNodeToLabels / getLabelsToNodes (the RM's label maps),
//   getClusterNodeAttributes / getAttributesToNodes / getNodesToAttributes
//   (Spindle has no node attributes: the empty answers Hadoop 3.3 gives
//   without any),
//   getNewReservation / submitReservation / updateReservation /
//   deleteReservation / listReservations (the YarnException of Hadoop 3.3
//   with the reservation system off).
// Every method of Hadoop 3.3's ApplicationClientProtocol is answered; none
// gets RpcNoSuchMethodException (which 3.3 clients retry for 15 minutes).
//
// The caller is the connection's user (ConnectionIdentity::user); errors
// carry the Java exception class Hadoop's clients act on.
//
// Thread contract: handlers run concurrently on the IPC worker pool. The
// facade is thread-safe; the service's own cache of per-application extras
// has its own mutex, never held while calling out.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "am_protocol/client_service/app_access.h"
#include "am_protocol/client_service/report_builder.h"
#include "am_protocol/client_service/submission_translator.h"
#include "base/mutex.h"
#include "rm/config/configuration.h"
#include "rm/core/client_facade.h"
#include "security.pb.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_service.h"
#include "yarn_service_protos.pb.h"

namespace spindle::client_service {

using ipc::kApplicationClientProtocol;

struct ClientRmServiceOptions {
  // Tracking URLs and log aggregation status.
  ReportOptions reports;
  // yarn.acl.enable / yarn.admin.acl.
  ApplicationAccess::Options access;
  // yarn.cluster.max-application-priority and the resource type names.
  SubmissionPolicy submission;
  // hadoop.security.authentication is kerberos: delegation tokens then only
  // for Kerberos-authenticated callers. Default: false.
  bool security_enabled = false;

  // Reads yarn-site.xml keys: the proxy address is yarn.web-proxy.address,
  // else yarn.resourcemanager.webapp.address (default
  // ${yarn.resourcemanager.hostname}:8088, 0.0.0.0 replaced by this host's
  // name), yarn.acl.enable (false), yarn.admin.acl ("*"),
  // yarn.cluster.max-application-priority (0), yarn.log-aggregation-enable
  // (false). InvalidArgument names a malformed value.
  static Result<ClientRmServiceOptions> FromConfiguration(const rm::Configuration& conf);
};

class ClientRmService {
 public:
  // `core` is not owned and must outlive the service. In secure mode the
  // core mints the ClientToAMToken application reports carry, as Java's
  // RMAppImpl does when security is enabled.
  ClientRmService(ClientRmServiceOptions options, rm::ClientFacade* core);

  // The ipc service for the 8032 server.
  std::unique_ptr<ipc::RpcService> MakeRpcService();

  // The handlers, one per method, each answering as Hadoop's
  // ClientRMService method of that name (callable without the wire).
  using Who = ipc::ConnectionIdentity;
  Status GetNewApplication(const Who& who,
                           const hadoop::yarn::GetNewApplicationRequestProto& request,
                           hadoop::yarn::GetNewApplicationResponseProto* response);
  Status SubmitApplication(const Who& who,
                           const hadoop::yarn::SubmitApplicationRequestProto& request,
                           hadoop::yarn::SubmitApplicationResponseProto* response);
  Status GetApplicationReport(const Who& who,
                              const hadoop::yarn::GetApplicationReportRequestProto& request,
                              hadoop::yarn::GetApplicationReportResponseProto* response);
  Status GetApplications(const Who& who, const hadoop::yarn::GetApplicationsRequestProto& request,
                         hadoop::yarn::GetApplicationsResponseProto* response);
  Status ForceKillApplication(const Who& who,
                              const hadoop::yarn::KillApplicationRequestProto& request,
                              hadoop::yarn::KillApplicationResponseProto* response);
  Status GetClusterMetrics(const Who& who,
                           const hadoop::yarn::GetClusterMetricsRequestProto& request,
                           hadoop::yarn::GetClusterMetricsResponseProto* response);
  Status GetClusterNodes(const Who& who, const hadoop::yarn::GetClusterNodesRequestProto& request,
                         hadoop::yarn::GetClusterNodesResponseProto* response);
  Status GetQueueInfo(const Who& who, const hadoop::yarn::GetQueueInfoRequestProto& request,
                      hadoop::yarn::GetQueueInfoResponseProto* response);
  Status GetQueueUserAcls(const Who& who,
                          const hadoop::yarn::GetQueueUserAclsInfoRequestProto& request,
                          hadoop::yarn::GetQueueUserAclsInfoResponseProto* response);
  Status GetApplicationAttemptReport(
      const Who& who, const hadoop::yarn::GetApplicationAttemptReportRequestProto& request,
      hadoop::yarn::GetApplicationAttemptReportResponseProto* response);
  Status GetApplicationAttempts(const Who& who,
                                const hadoop::yarn::GetApplicationAttemptsRequestProto& request,
                                hadoop::yarn::GetApplicationAttemptsResponseProto* response);
  Status GetContainers(const Who& who, const hadoop::yarn::GetContainersRequestProto& request,
                       hadoop::yarn::GetContainersResponseProto* response);
  Status GetContainerReport(const Who& who,
                            const hadoop::yarn::GetContainerReportRequestProto& request,
                            hadoop::yarn::GetContainerReportResponseProto* response);
  Status MoveApplicationAcrossQueues(
      const Who& who, const hadoop::yarn::MoveApplicationAcrossQueuesRequestProto& request,
      hadoop::yarn::MoveApplicationAcrossQueuesResponseProto* response);
  Status UpdateApplicationPriority(
      const Who& who, const hadoop::yarn::UpdateApplicationPriorityRequestProto& request,
      hadoop::yarn::UpdateApplicationPriorityResponseProto* response);
  Status FailApplicationAttempt(const Who& who,
                                const hadoop::yarn::FailApplicationAttemptRequestProto& request,
                                hadoop::yarn::FailApplicationAttemptResponseProto* response);
  Status GetClusterNodeLabels(const Who& who,
                              const hadoop::yarn::GetClusterNodeLabelsRequestProto& request,
                              hadoop::yarn::GetClusterNodeLabelsResponseProto* response);
  Status GetResourceTypeInfo(const Who& who,
                             const hadoop::yarn::GetAllResourceTypeInfoRequestProto& request,
                             hadoop::yarn::GetAllResourceTypeInfoResponseProto* response);
  // updateApplicationTimeouts as ClientRMService and
  // RMAppManager.updateApplicationTimeout do (Hadoop 3.3).
  Status UpdateApplicationTimeouts(
      const Who& who, const hadoop::yarn::UpdateApplicationTimeoutsRequestProto& request,
      hadoop::yarn::UpdateApplicationTimeoutsResponseProto* response);
  Status SignalToContainer(const Who& who, const hadoop::yarn::SignalContainerRequestProto& request,
                           hadoop::yarn::SignalContainerResponseProto* response);
  Status GetNodeToLabels(const Who& who, const hadoop::yarn::GetNodesToLabelsRequestProto& request,
                         hadoop::yarn::GetNodesToLabelsResponseProto* response);
  Status GetLabelsToNodes(const Who& who, const hadoop::yarn::GetLabelsToNodesRequestProto& request,
                          hadoop::yarn::GetLabelsToNodesResponseProto* response);
  Status GetClusterNodeAttributes(const Who& who,
                                  const hadoop::yarn::GetClusterNodeAttributesRequestProto& request,
                                  hadoop::yarn::GetClusterNodeAttributesResponseProto* response);
  Status GetAttributesToNodes(const Who& who,
                              const hadoop::yarn::GetAttributesToNodesRequestProto& request,
                              hadoop::yarn::GetAttributesToNodesResponseProto* response);
  Status GetNodesToAttributes(const Who& who,
                              const hadoop::yarn::GetNodesToAttributesRequestProto& request,
                              hadoop::yarn::GetNodesToAttributesResponseProto* response);

  // The delegation token methods. Errors are YarnExceptions whose message is "<Java class>:
  // <message>" of the secret manager's InvalidToken or AccessControlException, as ClientRMService's
  // RPCUtil.getRemoteException(IOException) makes them.
  Status GetDelegationToken(const Who& who,
                            const hadoop::common::GetDelegationTokenRequestProto& request,
                            hadoop::common::GetDelegationTokenResponseProto* response);
  Status RenewDelegationToken(const Who& who,
                              const hadoop::common::RenewDelegationTokenRequestProto& request,
                              hadoop::common::RenewDelegationTokenResponseProto* response);
  Status CancelDelegationToken(const Who& who,
                               const hadoop::common::CancelDelegationTokenRequestProto& request,
                               hadoop::common::CancelDelegationTokenResponseProto* response);

  // For the REST API (web/rest), which answers the same questions over
  // HTTP from the same state:
  // The app's extras, parsed from its context once and cached.
  AppExtras ExtrasFor(const rm::RmApp& app);
  // Whether `user` may view `app` (always, with yarn.acl.enable off).
  bool CanView(const std::string& user, const rm::RmApp& app);
  // The usage of the app's current attempt while the scheduler holds it.
  std::optional<AppUsage> UsageOf(const rm::RmApp& app) const;
  const ReportBuilder& reports() const { return reports_; }
  // The RM web app's bound port, once it started (ReportBuilder::SetWebAppPort).
  void SetWebAppPort(uint16_t port) { reports_.SetWebAppPort(port); }
  const ClientRmServiceOptions& options() const { return options_; }

  // The RM's clock.
  const Clock& clock() const { return *core_.clock(); }

 private:
  // Drops cached extras of apps the manager no longer has.
  void PruneExtras(const std::vector<rm::RmApp>& live);
  // The app (ApplicationNotFoundException with Hadoop 3's message if unknown)
  // and whether `caller` may act on it as `type`.
  Result<rm::RmApp> FindApp(const rm::ApplicationId& id) const;
  // The live non-AM containers of `attempt` (from the registry, if any).
  std::vector<rm::RmContainer> LiveTaskContainers(const rm::ApplicationAttemptId& attempt) const;
  // host:port of a node's web server.
  std::string NodeHttpAddress(const rm::NodeId& node) const;
  bool Allowed(const Caller& caller, AppAccessType type, const rm::RmApp& app,
               const rm::QueueTree& queues);
  // ClientRMService.verifyUserAccessForRMApp(..., MODIFY_APP, true): the app
  // (ApplicationNotFoundException with Hadoop 3's message if unknown), or
  // Denied if `caller` may not modify it.
  Result<rm::RmApp> AppToModify(const Caller& caller, const rm::ApplicationId& id);
  // Hadoop's RPCUtil.getRemoteException(new AccessControlException(...)):
  // a YarnException whose message names the AccessControlException.
  static Status Denied(const std::string& message);
  // `who` names the ClientToAMToken's client: the caller's full name, as
  // Java's UserGroupInformation.getUserName() gives it.
  void FillReport(const Who& who, const Caller& caller, const rm::RmApp& app, bool allow_access,
                  hadoop::yarn::ApplicationReportProto* report);
  void FillQueueInfo(const rm::QueueTree& tree, const rm::CsQueue& queue, bool include_children,
                     bool recursive, const rm::QueueStatsSnapshot& snapshot,
                     hadoop::yarn::QueueInfoProto* info) const;

  const ClientRmServiceOptions options_;
  rm::ClientFacade& core_;
  const ApplicationAccess access_;
  ReportBuilder reports_;

  Mutex extras_mu_;
  std::map<rm::ApplicationId, AppExtras> extras_ GUARDED_BY(extras_mu_);
};

}  // namespace spindle::client_service
