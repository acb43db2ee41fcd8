#include "web/metrics/rm_beans.h"

#include <glog/logging.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <map>
#include <optional>

#include "base/json/json_writer.h"
#include "rm/core/queue_statistics.h"
#include "web/metrics/process_stats.h"

namespace spindle::web {
namespace {

constexpr char kRmPrefix[] = "Hadoop:service=ResourceManager,name=";

int64_t NowMs(const MetricsDeps& deps) { return deps.core->clock()->WallMillis(); }

void AddClusterMetrics(const MetricsDeps& deps, const std::string& host, std::vector<Bean>* out) {
  if (deps.core == nullptr) return;
  const rm::ClusterNodeCounts counts = deps.core->NodeCounts();
  Bean b;
  b.name = std::string(kRmPrefix) + "ClusterMetrics";
  b.modeler_type = "ClusterMetrics";
  b.record = "ClusterMetrics";
  b.Tag("ClusterMetrics", "ResourceManager");
  b.Tag("Context", "yarn");
  b.Tag("Hostname", host);
  // As getClusterMetrics counts them: decommissioning nodes are not active.
  b.Gauge("NumActiveNMs", counts.active - counts.decommissioning);
  b.Gauge("NumDecommissioningNMs", counts.decommissioning);
  b.Gauge("NumDecommissionedNMs", counts.decommissioned);
  b.Gauge("NumLostNMs", counts.lost);
  b.Gauge("NumUnhealthyNMs", counts.unhealthy);
  b.Gauge("NumRebootedNMs", counts.rebooted);
  b.Gauge("NumShutdownNMs", counts.shutdown);
  const pool::Resource capability = deps.core->ClusterResourceReport().total;
  b.Gauge("CapabilityMB", capability.memory_mb());
  b.Gauge("CapabilityVirtualCores", capability.vcores());
  out->push_back(std::move(b));
}

// running_0 .. running_1440: running apps by how long they have run.
struct RunningBuckets {
  int64_t b0 = 0, b60 = 0, b300 = 0, b1440 = 0;
};

void AddRunningBuckets(const RunningBuckets& r, Bean* b) {
  b->Gauge("running_0", r.b0);
  b->Gauge("running_60", r.b60);
  b->Gauge("running_300", r.b300);
  b->Gauge("running_1440", r.b1440);
}

// Counted over the apps the RM still holds (finished ones age out), so
// gauges, not counters.
void AddAppCounts(const rm::AppCounts& apps, Bean* b) {
  b->Gauge("AppsSubmitted", apps.submitted);
  b->Gauge("AppsRunning", apps.running);
  b->Gauge("AppsPending", apps.pending);
  b->Gauge("AppsCompleted", apps.completed);
  b->Gauge("AppsKilled", apps.killed);
  b->Gauge("AppsFailed", apps.failed);
}

// CSQueueMetrics' AM figures; unset ones are Hadoop's untouched 0.
void AddAmFigures(const std::optional<pool::Resource>& limit,
                  const std::optional<pool::Resource>& used, Bean* b) {
  const pool::Resource l = limit.value_or(pool::Resource());
  const pool::Resource u = used.value_or(pool::Resource());
  b->Gauge("AMResourceLimitMB", l.memory_mb());
  b->Gauge("AMResourceLimitVCores", l.vcores());
  b->Gauge("UsedAMResourceMB", u.memory_mb());
  b->Gauge("UsedAMResourceVCores", u.vcores());
}

// QueueMetrics.getUserMetrics: "<queue's source name>,user=<user>", tagged
// Queue and User. The figures Hadoop updates for a user: apps, running
// buckets, allocated resources, active applications, and on 3.3 the AM
// limit and usage. ActiveUsers is never set in a user's metrics (only the
// queue's UsersManager counts users), so it is Hadoop's 0; Reserved* are 0
// as Spindle never reserves.
Bean UserBean(const std::string& keys, const std::string& queue_path, const std::string& user,
              const rm::UserQueueStats& stats, const RunningBuckets& running, bool am_metrics,
              const std::string& host) {
  Bean b;
  const std::string suffix = keys + ",user=" + user;
  b.name = std::string(kRmPrefix) + "QueueMetrics" + suffix;
  b.modeler_type = "QueueMetrics" + suffix;
  b.record = "QueueMetrics";
  b.Tag("Queue", queue_path);
  b.Tag("User", user);
  b.Tag("Context", "yarn");
  b.Tag("Hostname", host);
  AddRunningBuckets(running, &b);
  AddAppCounts(stats, &b);
  b.Gauge("AllocatedMB", stats.allocated.memory_mb());
  b.Gauge("AllocatedVCores", stats.allocated.vcores());
  b.Gauge("AllocatedContainers", stats.allocated_containers);
  b.Gauge("ReservedMB", 0);
  b.Gauge("ReservedVCores", 0);
  b.Gauge("ReservedContainers", 0);
  b.Gauge("ActiveUsers", 0);
  b.Gauge("ActiveApplications", stats.active_apps);
  if (am_metrics) AddAmFigures(stats.am_limit, stats.am_used, &b);
  return b;
}

void AddQueueMetrics(const MetricsDeps& deps, const std::string& host, std::vector<Bean>* out) {
  if (deps.core == nullptr) return;
  // The statistics and the tree they index, taken together.
  const rm::QueueStatsSnapshot snapshot = deps.core->QueueStatistics();
  if (snapshot.tree == nullptr) return;
  const rm::QueueTree* tree = snapshot.tree.get();
  const std::vector<rm::RmApp> apps = deps.core->ApplicationReports();
  const auto& queues = tree->queues();
  std::map<const rm::CsQueue*, size_t> index;
  for (size_t i = 0; i < queues.size(); ++i) index[&queues[i]] = i;
  // What the shared statistics do not hold: run-time buckets, per leaf,
  // then folded into the parents.
  std::vector<RunningBuckets> running(queues.size());
  // The same per user (QueueMetrics.runAppAttempt updates the user's
  // metrics and its parent's user metrics alike).
  std::vector<std::map<std::string, RunningBuckets>> user_running(queues.size());
  const int64_t now_ms = NowMs(deps);
  for (const rm::RmApp& app : apps) {
    const rm::CsQueue* leaf = tree->FindLeaf(app.submission.queue);
    if (leaf == nullptr) continue;
    const size_t i = index[leaf];
    if (rm::ClassifyApp(app) == rm::AppCount::kRunning) {
      // QueueMetrics.runAppAttempt starts the clock (runBuckets) at the
      // attempt's first container.
      const int64_t minutes =
          (now_ms - app.current_attempt()->first_allocation_ms.value_or(now_ms)) / 60000;
      for (RunningBuckets* r : {&running[i], &user_running[i][app.submission.user]}) {
        ++(minutes < 60 ? r->b0 : minutes < 300 ? r->b60 : minutes < 1440 ? r->b300 : r->b1440);
      }
    }
  }
  auto fold = [](RunningBuckets& into, const RunningBuckets& from) {
    into.b0 += from.b0;
    into.b60 += from.b60;
    into.b300 += from.b300;
    into.b1440 += from.b1440;
  };
  for (size_t i = queues.size(); i-- > 1;) {
    const size_t parent = static_cast<size_t>(queues[i].parent);
    fold(running[parent], running[i]);
    for (const auto& [user, buckets] : user_running[i]) fold(user_running[parent][user], buckets);
  }
  for (size_t i = 0; i < queues.size(); ++i) {
    const rm::CsQueue& queue = queues[i];
    const rm::QueueStats& stats = snapshot.stats[i];
    // q0=root,q1=eng,q2=batch (QueueMetrics.sourceName)
    std::string keys;
    int level = 0;
    size_t start = 0;
    while (start <= queue.path.size()) {
      size_t dot = queue.path.find('.', start);
      if (dot == std::string::npos) dot = queue.path.size();
      keys += ",q" + std::to_string(level++) + "=" + queue.path.substr(start, dot - start);
      start = dot + 1;
    }
    Bean b;
    b.name = std::string(kRmPrefix) + "QueueMetrics" + keys;
    b.modeler_type = "QueueMetrics" + keys;
    b.record = "QueueMetrics";
    b.Tag("Queue", queue.path);
    b.Tag("Context", "yarn");
    b.Tag("Hostname", host);
    AddRunningBuckets(running[i], &b);
    AddAppCounts(stats, &b);
    b.Gauge("AllocatedMB", stats.used.memory_mb());
    b.Gauge("AllocatedVCores", stats.used.vcores());
    b.Gauge("AllocatedContainers", stats.allocated_containers);
    // QueueMetrics.setAvailableResourcesToQueue: the guaranteed share left.
    const pool::Resource available = rm::AvailableToQueue(
        rm::ScaledResource(snapshot.cluster, queue.absolute_capacity), stats.used);
    b.Gauge("AvailableMB", available.memory_mb());
    b.Gauge("AvailableVCores", available.vcores());
    // Spindle never reserves: these are a true zero.
    b.Gauge("ReservedMB", 0);
    b.Gauge("ReservedVCores", 0);
    b.Gauge("ReservedContainers", 0);
    b.Gauge("ActiveUsers", static_cast<int64_t>(stats.active_users.size()));
    b.Gauge("ActiveApplications", stats.active_apps);
    if (snapshot.am_metrics) {
      // CSQueueMetrics (3.3): the leaf's AM limit and AM usage
      // (LeafQueue.calculateAndGetAMResourceLimitPerPartition, incAMUsed);
      // 0 in a parent, which sets neither.
      const bool limited = stats.am.has_value() && stats.am->limited;
      AddAmFigures(limited ? std::optional(stats.am->limits.queue_am_limit) : std::nullopt,
                   limited ? std::optional(stats.am->am_used) : std::nullopt, &b);
    }
    if (stats.preempted.has_value()) {
      // 3.3's preemption aggregates (MutableCounterLong: counters).
      const rm::ResourceSeconds& p = *stats.preempted;
      b.Counter("AggregateContainersPreempted", p.num_am_preempted + p.num_non_am_preempted);
      b.Counter("AggregateMemoryMBPreempted", p.preempted.memory_mb());
      b.Counter("AggregateVcoresPreempted", p.preempted.vcores());
      b.Counter("AggregateMemoryMBSecondsPreempted", p.preempted_memory_seconds);
      b.Counter("AggregateVcoreSecondsPreempted", p.preempted_vcore_seconds);
    }
    out->push_back(std::move(b));
    if (!tree->user_metrics_enabled()) continue;
    for (const auto& [user, figures] : stats.users) {
      out->push_back(UserBean(keys, queue.path, user, figures, user_running[i][user],
                              snapshot.am_metrics, host));
    }
  }
}

int64_t Mib(int64_t kib) { return kib / 1024; }

void AddProcessBeans(const std::string& host, std::vector<Bean>* out) {
  auto stats = ReadProcessStats();
  if (!stats.ok()) {
    LOG(WARNING) << "JvmMetrics: " << stats.status().ToString();
    return;
  }
  const ProcessStats& s = *stats;
  const int64_t mib = 1024 * 1024;
  Bean b;
  b.name = std::string(kRmPrefix) + "JvmMetrics";
  b.modeler_type = "JvmMetrics";
  b.record = "JvmMetrics";
  b.Tag("Context", "jvm");
  b.Tag("ProcessName", "ResourceManager");
  b.Tag("SessionId", "");
  b.Tag("Hostname", host);
  b.GaugeD("MemNonHeapUsedM", static_cast<double>(s.rss_file_kb + s.rss_shmem_kb) / 1024.0);
  b.GaugeD("MemNonHeapCommittedM", static_cast<double>(s.rss_file_kb + s.rss_shmem_kb) / 1024.0);
  b.GaugeD("MemNonHeapMaxM", -1);
  b.GaugeD("MemHeapUsedM", static_cast<double>(s.rss_anon_kb) / 1024.0);
  b.GaugeD("MemHeapCommittedM", static_cast<double>(s.vm_rss_kb) / 1024.0);
  b.GaugeD("MemHeapMaxM",
           s.address_space_limit < 0 ? -1.0 : static_cast<double>(s.address_space_limit / mib));
  b.GaugeD("MemMaxM",
           static_cast<double>(
               (s.address_space_limit < 0 ? s.total_physical_bytes : s.address_space_limit) / mib));
  b.Counter("GcCount", 0);
  b.Counter("GcTimeMillis", 0);
  b.Counter("GcNumWarnThresholdExceeded", 0);
  b.Counter("GcNumInfoThresholdExceeded", 0);
  b.Counter("GcTotalExtraSleepTime", 0);
  b.Gauge("ThreadsNew", 0);
  b.Gauge("ThreadsRunnable", s.threads_running);
  b.Gauge("ThreadsBlocked", s.threads_disk_wait);
  b.Gauge("ThreadsWaiting", s.threads_sleeping);
  b.Gauge("ThreadsTimedWaiting", 0);
  b.Gauge("ThreadsTerminated", s.threads_zombie);
  b.Counter("LogFatal", google::LogMessage::num_messages(google::GLOG_FATAL));
  b.Counter("LogError", google::LogMessage::num_messages(google::GLOG_ERROR));
  b.Counter("LogWarn", google::LogMessage::num_messages(google::GLOG_WARNING));
  b.Counter("LogInfo", google::LogMessage::num_messages(google::GLOG_INFO));
  // No Java name.
  b.Gauge("VmSizeM", Mib(s.vm_size_kb));
  b.Gauge("VmPeakM", Mib(s.vm_peak_kb));
  b.Gauge("VmHWMM", Mib(s.vm_hwm_kb));
  b.Gauge("ThreadsStopped", s.threads_stopped);
  b.Gauge("ThreadCount", s.threads_total);
  b.GaugeD("ProcessCpuSeconds", s.cpu_user_seconds + s.cpu_system_seconds);
  b.Gauge("OpenFileDescriptorCount", s.open_fds);
  b.Gauge("MaxFileDescriptorCount", s.max_fds);
  b.Counter("VoluntaryContextSwitches", s.voluntary_context_switches);
  b.Counter("InvoluntaryContextSwitches", s.involuntary_context_switches);
  out->push_back(std::move(b));

  Bean os;
  os.name = "java.lang:type=OperatingSystem";
  os.modeler_type = "sun.management.OperatingSystemImpl";
  os.Gauge("OpenFileDescriptorCount", s.open_fds);
  os.Gauge("MaxFileDescriptorCount", s.max_fds);
  os.Gauge("CommittedVirtualMemorySize", s.vm_size_kb * 1024);
  os.Gauge("TotalSwapSpaceSize", s.total_swap_bytes);
  os.Gauge("FreeSwapSpaceSize", s.free_swap_bytes);
  os.Counter("ProcessCpuTime",
             static_cast<int64_t>((s.cpu_user_seconds + s.cpu_system_seconds) * 1e9));
  os.Gauge("FreePhysicalMemorySize", s.free_physical_bytes);
  os.Gauge("TotalPhysicalMemorySize", s.total_physical_bytes);
  os.Gauge("AvailableProcessors", s.processors);
  os.GaugeD("SystemLoadAverage", s.load_average_1m);
  utsname u{};
  if (uname(&u) == 0) {
    os.Info("Name", u.sysname);
    os.Info("Arch", u.machine);
    os.Info("Version", u.release);
  }
  os.Info("ObjectName", "java.lang:type=OperatingSystem");
  out->push_back(std::move(os));
}

void AddRpcActivity(const MetricsDeps& deps, const std::string& host, std::vector<Bean>* out) {
  for (const ipc::RpcServer* server : deps.rpc_servers) {
    if (server == nullptr) continue;
    const std::string port = std::to_string(server->port());
    const ipc::RpcActivity a = server->activity();
    Bean b;
    b.name = std::string(kRmPrefix) + "RpcActivityForPort" + port;
    b.modeler_type = "RpcActivityForPort" + port;
    b.record = "rpc";
    b.Tag("port", port);
    b.Tag("serverName", server->name());
    b.Tag("Context", "rpc");
    b.Tag("Hostname", host);
    b.Counter("ReceivedBytes", a.received_bytes);
    b.Counter("SentBytes", a.sent_bytes);
    b.Counter("RpcQueueTimeNumOps", a.queue_time_num_ops);
    b.GaugeD("RpcQueueTimeAvgTime", a.queue_time_avg_ms());
    b.Counter("RpcProcessingTimeNumOps", a.processing_time_num_ops);
    b.GaugeD("RpcProcessingTimeAvgTime", a.processing_time_avg_ms());
    b.Counter("RpcAuthenticationFailures", a.authentication_failures);
    b.Counter("RpcAuthenticationSuccesses", a.authentication_successes);
    b.Counter("RpcAuthorizationFailures", a.authorization_failures);
    b.Counter("RpcAuthorizationSuccesses", a.authorization_successes);
    b.Counter("RpcClientBackoff", a.calls_refused_busy);
    b.Gauge("NumOpenConnections", a.open_connections);
    b.Gauge("CallQueueLength", a.call_queue_length);
    // Connections closed at accept past ipc.server.max.connections (or
    // Spindle's per-address limit): a gauge, as RpcMetrics' @Metric method
    // numDroppedConnections (Hadoop 2.7 and 3.3; 2.6 has no such attribute,
    // an extra one is harmless to JMX readers).
    b.Gauge("NumDroppedConnections", a.dropped_connections);
    out->push_back(std::move(b));
  }
}

void AddRmNmInfo(const MetricsDeps& deps, std::vector<Bean>* out) {
  if (deps.core == nullptr) return;
  json::JsonWriter w;
  w.BeginArray();
  // num_containers: the live containers the RM placed there.
  for (const rm::NodeReport& node : deps.core->NodeReports()) {
    // RMNMInfo lists the RM's active node map: inactive (lost,
    // decommissioned, shut down, rebooted) nodes are not in it.
    if (node.state == rm::NodeState::kLost || node.state == rm::NodeState::kDecommissioned ||
        node.state == rm::NodeState::kShutdown || node.state == rm::NodeState::kRebooted) {
      continue;
    }
    w.BeginObject();
    w.Field("HostName", node.info.id.host);
    w.Field("Rack", node.info.rack);
    w.Field("State", std::string(rm::Name(node.state)));
    w.Field("NodeId", node.info.id.ToString());
    w.Field("NodeHTTPAddress", node.info.http_address);
    w.Field("LastHealthUpdate", node.last_health_report_ms);
    w.Field("HealthReport", node.health_report);
    w.Field("NodeManagerVersion", node.nm_version);
    w.Field("NumContainers", node.num_containers);
    w.Field("UsedMemoryMB", node.used.memory_mb());
    w.Field("AvailableMemoryMB",
            std::max<int64_t>(0, node.capability.memory_mb() - node.used.memory_mb()));
    w.EndObject();
  }
  w.EndArray();
  Bean b;
  b.name = std::string(kRmPrefix) + "RMNMInfo";
  b.modeler_type = "org.apache.hadoop.yarn.server.resourcemanager.RMNMInfo";
  b.Info("LiveNodeManagers", w.Take());
  out->push_back(std::move(b));
}

}  // namespace

std::string HostnameOf(const MetricsDeps& deps) {
  if (!deps.hostname.empty()) return deps.hostname;
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "localhost";
  return buf;
}

std::vector<Bean> CollectBeans(const MetricsDeps& deps) {
  const std::string host = HostnameOf(deps);
  std::vector<Bean> beans;
  AddClusterMetrics(deps, host, &beans);
  AddQueueMetrics(deps, host, &beans);
  AddProcessBeans(host, &beans);
  AddRpcActivity(deps, host, &beans);
  AddRmNmInfo(deps, &beans);
  return beans;
}

}  // namespace spindle::web
