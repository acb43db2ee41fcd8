// HaService: HAServiceProtocol (org.apache.hadoop.ha.HAServiceProtocol) on
// the RM's admin port, as Hadoop's AdminService implements it (read in
// 2.6.0 and 3.3.0): monitorHealth, transitionToActive, transitionToStandby,
// transitionToObserver (refused) and getServiceStatus, which `yarn rmadmin
// -getServiceState / -transitionToActive / -checkHealth`, RMHAUtils (the
// standby web app looking for the active RM) and a failover controller
// call.
//
// Hadoop serves this protocol only when HA is on (3.3 and 2.6
// AdminService.startServer add it under rmContext.isHAEnabled()); with HA
// off a caller gets the RPC layer's "Unknown protocol", so the daemon adds
// this service only then.
//
// Every method checks yarn.admin.acl first (AccessControlException, as
// RMServerUtils.verifyAdminAccess words it; the method names checked are
// Hadoop's: "monitorHealth", "transitionToActive", "transitionToStandby",
// "getServiceState"). A state change also checks who asks
// (checkHaStateChange): with automatic failover on, a plain user request is
// refused and a forced one allowed with a warning; without it, a request
// from a failover controller is refused. Failures of a transition are
// org.apache.hadoop.ha.ServiceFailedException, a failed health check
// org.apache.hadoop.ha.HealthCheckFailedException.
//
// Thread contract: calls are serialized (Java's methods are synchronized);
// HaTransitions is called with the service's lock held, from an RPC handler
// thread or from whoever calls the public methods (the embedded elector).
#pragma once

#include <memory>
#include <string>

#include "am_protocol/admin_service/admin_service.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/core/ha_state.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_service.h"

namespace spindle::am_protocol {

using ipc::kHaServiceProtocol;

namespace ha_exceptions {
inline constexpr char kServiceFailed[] = "org.apache.hadoop.ha.ServiceFailedException";
inline constexpr char kHealthCheckFailed[] = "org.apache.hadoop.ha.HealthCheckFailedException";
}  // namespace ha_exceptions

// HARequestSource: who asks for a state change.
enum class HaRequestSource { kUser, kUserForced, kFailoverController };

// What a state change acts on: the RM process's lifecycle.
class HaTransitions {
 public:
  virtual ~HaTransitions() = default;
  virtual rm::HaState ha_state() const = 0;
  // Hadoop's ResourceManager.areActiveServicesRunning: false while active
  // means the active services stopped under the RM (a failed health check).
  virtual bool ActiveServicesRunning() const = 0;
  // Load the store and start the active services; the error says why not.
  virtual Status TransitionToActive() = 0;
  // Stop the active services without exiting.
  virtual Status TransitionToStandby() = 0;
};

// getServiceStatus's answer (Hadoop's HAServiceStatus).
struct HaServiceStatus {
  rm::HaState state = rm::HaState::kInitializing;
  bool ready_to_become_active = false;
  // "State is <state>" when not ready (the Java enum's lower-case name).
  std::string not_ready_reason;
};

struct HaServiceOptions {
  // AdminService.autoFailoverEnabled: HA on and
  // yarn.resourcemanager.ha.automatic-failover.enabled (default true).
  bool automatic_failover = true;
  // The RM's own user, an admin whatever yarn.admin.acl says (3.3's
  // getAdminAclList adds it), so the embedded elector's calls pass. Empty:
  // only the ACL decides (2.6).
  std::string daemon_user;
};

class HaService {
 public:
  // `admin` gives the ACL and the refreshes; both must outlive the service.
  HaService(HaServiceOptions options, AdminActions* admin, HaTransitions* transitions)
      : options_(std::move(options)), admin_(admin), transitions_(transitions) {}

  std::unique_ptr<ipc::RpcService> MakeRpcService();

  // The protocol's calls, for the RPC methods and for in-process callers
  // (the embedded elector calls them with kFailoverController, as Hadoop's
  // elector calls AdminService). `caller` is the user checked against the
  // ACL, `remote` the peer address the log lines name.
  Status MonitorHealth(const std::string& caller);
  // OK at once if already active (before any check, as 3.3). Else:
  // refreshAdminAcls (ServiceFailedException "Can not execute
  // refreshAdminAcls" if that fails), the ACL, the request source, the
  // activation (ServiceFailedException "Error when transitioning to Active
  // mode"), then refreshAll. Hadoop 3.3 refreshes before activating, which
  // Spindle's core refuses while standby, so the order is 2.6's; a failed
  // refreshAll sends the RM back to standby (3.3 raises a fatal event that
  // leaves it out of service) and answers ServiceFailedException "Error on
  // refreshAll during transition to Active".
  Status TransitionToActive(const std::string& caller, HaRequestSource source,
                            const std::string& remote);
  // refreshAdminAcls, the ACL, the request source, then standby
  // (ServiceFailedException "Error when transitioning to Standby mode").
  Status TransitionToStandby(const std::string& caller, HaRequestSource source,
                             const std::string& remote);
  Result<HaServiceStatus> GetServiceStatus(const std::string& caller);

 private:
  Status CheckAccess(const std::string& caller, const std::string& method) const;
  // checkHaStateChange: AccessControlException when the source is refused.
  Status CheckStateChange(HaRequestSource source, const std::string& remote) const;
  // 3.3 refreshAll, in its order: queues, nodes, the proxy-user rules
  // (core-site.xml and yarn-site.xml re-read), users' groups, then the
  // service ACLs (hadoop-policy.xml) when hadoop.security.authorization is
  // on. (Its refreshClusterMaxPriority has nothing to re-read: Spindle takes
  // yarn.cluster.max-application-priority at start.)
  Status RefreshAll();

  const HaServiceOptions options_;
  AdminActions* const admin_;
  HaTransitions* const transitions_;
  Mutex mu_;  // serializes the calls, as Java's synchronized methods
};

}  // namespace spindle::am_protocol
