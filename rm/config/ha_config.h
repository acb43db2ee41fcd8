// HaConfig: ResourceManager HA settings (yarn.resourcemanager.ha.*), read
// and checked as Hadoop's HAUtil.verifyAndSetConfiguration does (read in
// 2.6.0 and 3.3.0; the rules are the same, 3.3 adds the leader-election
// check and says "an HA configuration" where 2.6 says "a HA configuration").
//
// With HA on, every RM service address has one value per rm-id:
// `<key>.<rm-id>`, or `yarn.resourcemanager.hostname.<rm-id>` with the
// service's default port. This RM's id is `yarn.resourcemanager.ha.id`, or
// the one rm-id whose yarn.resourcemanager.address.<rm-id> resolves to an
// address of this machine. ConfigurationForThisRm then gives the
// configuration this RM runs with: each service key set to its own
// rm-id's value, as Hadoop's RM sets them before binding its servers.
//
// Errors are InvalidArgument carrying Hadoop's message, prefixed
// "Invalid configuration! " as its YarnRuntimeException is.
//
// Thread-safety: values and pure functions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "rm/config/configuration.h"

namespace spindle::rm {

// True if `host` resolves to an address of this machine (wildcard, loopback
// or one of its interfaces), as NetUtils.isLocalAddress answers for a
// resolved address; false if it does not resolve.
using LocalHostPredicate = std::function<bool(const std::string& host)>;
bool IsLocalHost(const std::string& host);

struct HaConfig {
  // yarn.resourcemanager.ha.enabled. Default: false.
  bool enabled = false;
  // yarn.resourcemanager.ha.rm-ids, trimmed, in order (at least two when
  // enabled).
  std::vector<std::string> rm_ids;
  // This RM's id (see the file comment); empty when HA is off.
  std::string rm_id;
  // yarn.resourcemanager.ha.automatic-failover.enabled. Default: true.
  bool automatic_failover = true;
  // yarn.resourcemanager.ha.automatic-failover.embedded. Default: true.
  bool embedded_elector = true;
  // yarn.resourcemanager.cluster-id; required when the embedded elector runs
  // (Hadoop's YarnConfiguration.getClusterId refuses a missing one there).
  std::string cluster_id;
  // yarn.resourcemanager.ha.automatic-failover.zk-base-path. Default:
  // /yarn-leader-election (the elector's znodes are under <it>/<cluster-id>).
  std::string zk_base_path = "/yarn-leader-election";

  // Automatic failover by the RM's own elector (Hadoop's
  // isAutomaticFailoverEnabledAndEmbedded), with HA on.
  bool runs_elector() const { return enabled && automatic_failover && embedded_elector; }

  // HA off: a default HaConfig (enabled false) whatever the other keys say.
  static Result<HaConfig> FromConfiguration(const Configuration& conf,
                                            const LocalHostPredicate& is_local = IsLocalHost);
};

// The RM's service address keys (client, scheduler, admin, resource
// tracker, web), as YarnConfiguration.getServiceAddressConfKeys lists them
// under yarn.http.policy HTTP_ONLY: Spindle serves HTTP only (an HTTPS_ONLY
// policy is refused as a blocker by the key catalogue), so the web key is
// never webapp.https.address.
std::vector<std::string> RmServiceAddressKeys();

// The service's default port (8032, 8030, 8031, 8033, 8088); 0 for a
// key that is not a service address key.
int RmDefaultPort(const std::string& key);

// `key` for `rm_id`: `<key>.<rm-id>` if set, else
// `yarn.resourcemanager.hostname.<rm-id>`:<default port>; InvalidArgument
// ("<hostname key> or <key.rm-id> needs to be set in an HA configuration.")
// if neither is.
Result<std::string> RmAddressOf(const Configuration& conf, const std::string& key,
                                const std::string& rm_id);

// `conf` with each service address key set to `ha.rm_id`'s value and
// yarn.resourcemanager.ha.id set; `conf` itself when HA is off.
Result<Configuration> ConfigurationForThisRm(const Configuration& conf, const HaConfig& ha);

}  // namespace spindle::rm
