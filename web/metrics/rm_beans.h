// The RM's JMX beans, computed on demand from the RM core: what /jmx lists
// and what /metrics exports (the Hadoop metrics2 sources among them).
//
//  Hadoop:service=ResourceManager,name=ClusterMetrics       (ClusterMetrics.java)
//  Hadoop:service=ResourceManager,name=QueueMetrics,q0=root[,q1=..]
//                                                             (QueueMetrics.java)
//  Hadoop:service=ResourceManager,name=QueueMetrics,q0=root[,q1=..],user=<user>
//      (QueueMetrics.getUserMetrics; only with
//      yarn.scheduler.capacity.user-metrics.enable): for each user with an
//      app the RM holds in the queue or below it, the figures Hadoop updates
//      per user: Apps*, running_*, Allocated*, ActiveApplications, Reserved*
//      (0), ActiveUsers (Hadoop never sets it in a user's metrics: 0), and on
//      3.3 AMResourceLimit* / UsedAMResource* (leaves only).
//  Hadoop:service=ResourceManager,name=JvmMetrics            (JvmMetrics.java, mapped)
//  java.lang:type=OperatingSystem                            (the JDK's bean, mapped)
//  Hadoop:service=ResourceManager,name=RpcActivityForPort<p> (RpcMetrics.java)
//  Hadoop:service=ResourceManager,name=RMNMInfo              (RMNMInfo.java)
//
// JvmMetrics for a C++ process (/proc/self; the Java name, then ours):
//  MemHeapUsedM        RssAnon (resident anonymous memory: malloc's heap and
//                      thread stacks), MiB
//  MemHeapCommittedM   VmRSS (all resident memory), MiB
//  MemHeapMaxM         RLIMIT_AS in MiB, or -1 when unlimited (Java's -1 =
//                      undefined)
//  MemMaxM             RLIMIT_AS, else the machine's physical memory, MiB
//  MemNonHeapUsedM     RssFile + RssShmem (mapped code and files), MiB
//  MemNonHeapCommittedM the same; MemNonHeapMaxM -1
//  ThreadsNew 0 (no such state); ThreadsRunnable state R; ThreadsBlocked
//  state D (uninterruptible wait); ThreadsWaiting states S and I; ThreadsTimedWaiting 0
//  (Linux does not tell timed sleeps apart); ThreadsTerminated states Z, X
//  GcCount, GcTimeMillis, GcNumWarnThresholdExceeded,
//  GcNumInfoThresholdExceeded, GcTotalExtraSleepTime: 0 (no collector)
//  LogFatal/LogError/LogWarn/LogInfo: glog's message counts per severity
// plus, without a Java name: VmSizeM, VmPeakM, VmHWMM, ThreadsStopped (T),
// ThreadCount, ProcessCpuSeconds, OpenFileDescriptorCount,
// MaxFileDescriptorCount, VoluntaryContextSwitches,
// InvoluntaryContextSwitches.
//
// QueueMetrics' preemption aggregates (AggregateContainersPreempted,
// AggregateMemoryMBPreempted, AggregateVcoresPreempted,
// AggregateMemoryMBSecondsPreempted, AggregateVcoreSecondsPreempted) exist on
// the 3.3 line only, as in Hadoop.
//
// 3.3's CSQueueMetrics AM figures (AMResourceLimitMB/VCores,
// UsedAMResourceMB/VCores) are set in the leaves (0 in parents, as Hadoop
// sets them only there).
//
// Not computed (left out rather than reported as zero): QueueMetrics'
// Pending*, AggregateContainersAllocated/Released, a user's Available*
// (setAvailableResourcesToUser: the user's headroom); ClusterMetrics' AM
// launch/register delays. Spindle never
// reserves, so Reserved* are a true 0. RPC *AvgTime are means over the
// server's life (Hadoop's are over the last metrics interval).
//
// Thread-safety: CollectBeans reads thread-safe RM readers; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "web/metrics/metrics_deps.h"

namespace spindle::web {

enum class MetricKind {
  kGauge,
  kCounter,  // monotonic
  kTag,      // "tag.X": a string; a label in Prometheus
  kInfo,     // any other non-numeric attribute (JMX only)
};

struct BeanAttribute {
  std::string name;
  std::variant<int64_t, double, std::string, bool> value;
  MetricKind kind = MetricKind::kGauge;
};

struct Bean {
  std::string name;          // the ObjectName
  std::string modeler_type;  // JMXJsonServlet's "modelerType"
  // The metrics2 record name for Prometheus ("ClusterMetrics", "rpc"); ""
  // for beans Hadoop's Prometheus sink does not see.
  std::string record;
  std::vector<BeanAttribute> attributes;

  void Gauge(std::string attr, int64_t v) {
    attributes.push_back({std::move(attr), v, MetricKind::kGauge});
  }
  void GaugeD(std::string attr, double v) {
    attributes.push_back({std::move(attr), v, MetricKind::kGauge});
  }
  void Counter(std::string attr, int64_t v) {
    attributes.push_back({std::move(attr), v, MetricKind::kCounter});
  }
  void Tag(std::string attr, std::string v) {
    attributes.push_back({"tag." + attr, std::move(v), MetricKind::kTag});
  }
  void Info(std::string attr, std::string v) {
    attributes.push_back({std::move(attr), std::move(v), MetricKind::kInfo});
  }
};

// Every bean, in a fixed order (cluster, queues in tree order, JVM, OS, RPC
// servers in order, RMNMInfo).
std::vector<Bean> CollectBeans(const MetricsDeps& deps);

// deps.hostname, or this host's name.
std::string HostnameOf(const MetricsDeps& deps);

}  // namespace spindle::web
