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

#include "base/clock.h"
#include "rm/apps/app_manager.h"
#include "rm/config/configuration.h"
#include "rm/containers/container_registry.h"
#include "rm/nodes/node_registry.h"
#include "rm/queues/queue_manager.h"
#include "scheduler_pool/scheduler_pool.h"
#include "wire/ipc/rpc_server.h"

namespace spindle::web {

struct MetricsDeps {
  // The RM's configuration (/conf, and the instrumentation ACL keys).
  const rm::Configuration* conf = nullptr;
  const rm::ApplicationManager* apps = nullptr;
  const rm::NodeRegistry* nodes = nullptr;
  const rm::QueueManager* queues = nullptr;
  const rm::ContainerRegistry* containers = nullptr;
  const pool::SchedulerPool* pool = nullptr;
  // One RpcActivityForPort<port> bean each.
  std::vector<const ipc::RpcServer*> rpc_servers;
  // The RM's clock (apps' start times are on it: running_* buckets).
  // Default: the system clock.
  const Clock* clock = nullptr;
  // tag.Hostname; default: this host's name.
  std::string hostname;
  // Whether `user` is in yarn.admin.acl (for
  // hadoop.security.instrumentation.requires.admin); null: nobody is.
  std::function<bool(const std::string& user)> is_admin;
};

}  // namespace spindle::web
