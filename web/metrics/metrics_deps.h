// MetricsDeps: what the RM's instrumentation endpoints (/jmx, /metrics,
// /conf, /logLevel, /stacks) read. Everything is optional: a missing part
// leaves its beans or samples out (tests wire only what they check).
//
// Thread-safety: the pointees must be thread-safe readers that outlive the
// router the routes are registered on.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rm/config/configuration.h"
#include "rm/core/client_facade.h"
#include "wire/ipc/rpc_server.h"

namespace spindle::web {

struct MetricsDeps {
  // The RM's configuration (/conf, and the instrumentation ACL keys).
  const rm::Configuration* conf = nullptr;
  // The RM core (rm/core/client_facade.h): ClusterMetrics, QueueMetrics and
  // RMNMInfo beans and the pool's samples; null: none of them. While the
  // core is standby they show an empty cluster.
  const rm::ClientFacade* core = nullptr;
  // One RpcActivityForPort<port> bean each.
  std::vector<const ipc::RpcServer*> rpc_servers;
  // tag.Hostname; default: this host's name.
  std::string hostname;
  // Whether `user` is in yarn.admin.acl (for
  // hadoop.security.instrumentation.requires.admin); null: nobody is.
  std::function<bool(const std::string& user)> is_admin;
};

}  // namespace spindle::web
