// ClusterWebDeps: what the /ws/v1/cluster endpoints read. The endpoints answer the questions
// ClientRmService answers over RPC, from the same state and, where the
// answer is shared (application filters, access checks, usage, tracking
// URLs, progress, diagnostics), through the same code, as Hadoop's
// RMWebServices goes through ClientRMService.
//
// Nothing here points into the core's registries: every read goes through
// the core's ClientFacade, which answers for the activation of the moment
// (empty reports while standby).
//
// Thread-safety: the pointees are thread-safe; the structs are values.
#pragma once

#include <cstdint>
#include <string>

#include "am_protocol/client_service/client_rm_service.h"
#include "base/result.h"
#include "rm/config/configuration.h"
#include "rm/config/hadoop_line.h"
#include "rm/core/client_facade.h"
#include "scheduler_pool/resources.h"

namespace spindle::web::rest {

// The RM's identity as clusterInfo shows it.
struct ClusterIdentity {
  // The cluster timestamp: clusterInfo's id and startedOn, every AppInfo's
  // clusterId (Hadoop uses ResourceManager.clusterTimeStamp for all three).
  int64_t cluster_timestamp = 0;
  // Service state (NOTINITED / INITED / STARTED / STOPPED) and HA state
  // (INITIALIZING / ACTIVE / STANDBY / STOPPED).
  std::string state = "STARTED";
  std::string ha_state = "ACTIVE";
  // The Java class name of the state store in use (Hadoop reports
  // NullRMStateStore when recovery is off).
  std::string state_store_name =
      "org.apache.hadoop.yarn.server.resourcemanager.recovery.NullRMStateStore";
  // The version the RM reports (the same string NMs get at registration,
  // nm_shim/tracker's rm_version), its build string and build date. The
  // daemon sets them from spindle.compat.hadoop-version; default: the newest
  // line's (rm/config/hadoop_line.h).
  std::string version{rm::TraitsOf(rm::kDefaultHadoopLine).version};
  std::string build_version = version + " from spindle";
  std::string built_on = "";
  // What Hadoop's RMContext says when HA is off.
  std::string ha_zookeeper_connection_state = "ResourceManager HA is not enabled.";
};

// The scheduler as configured, for what the scheduler answer shows per
// line: 3.3's per-partition capacities and resources (none on 2.6 / 2.7),
// and the allocation bounds a configured queue resource carries.
struct SchedulerShape {
  rm::HadoopLine line = rm::kDefaultHadoopLine;
  // yarn.scheduler.minimum-allocation-{mb,vcores} / maximum-allocation-*.
  pool::Resource minimum_allocation = pool::Resource::Of(1024, 1);
  pool::Resource maximum_allocation = pool::Resource::Of(8192, 4);
};

struct ClusterWebDeps {
  // Required: the RM's ApplicationClientProtocol service (filters, access,
  // usage, tracking URLs) and the core it calls.
  client_service::ClientRmService* client = nullptr;
  rm::ClientFacade* core = nullptr;
  // What clusterInfo says; its cluster_timestamp and ha_state are the
  // core's as it is now (cluster_info.h's ClusterIdentityNow).
  ClusterIdentity identity;
  SchedulerShape scheduler;
};

}  // namespace spindle::web::rest
