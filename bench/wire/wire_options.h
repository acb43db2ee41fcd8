// WireOptions: what `spindle bench wire` runs (BENCHMARKS.md, "wire"), with
// the defaults a run on a 2-core machine finishes with in about 30 s.
//
// The generator speaks only public YARN protocols, so the same flags drive
// Spindle or any YARN RM: ApplicationClientProtocol to submit and watch
// applications, ApplicationMasterProtocol for its simulated AMs (SASL with
// the AMRMToken), ResourceTracker for its simulated NodeManagers, and the
// ContainerManagementProtocol its NMs serve (the RM starts AM containers
// there; the AMRMToken arrives in the launch context's tokens).
//
// Thread-safety: a value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.h"
#include "rm/config/socket_address.h"

namespace spindle::bench::wire {

using HostPort = rm::SocketAddress;

// The three RM addresses the generator needs.
struct RmAddresses {
  HostPort client;     // yarn.resourcemanager.address (8032)
  HostPort scheduler;  // yarn.resourcemanager.scheduler.address (8030)
  HostPort tracker;    // yarn.resourcemanager.resource-tracker.address (8031)
  HostPort web;        // yarn.resourcemanager.webapp.address (8088); port 0: unknown
};

// Parses "host:port,host:port,host:port[,host:port]" (client, scheduler,
// tracker[, web]), or a single "host" for Hadoop's default ports 8032, 8030,
// 8031 and 8088.
// InvalidArgument naming what is wrong.
Result<RmAddresses> ParseRmAddresses(const std::string& text);

struct WireOptions {
  // --rm: the RM to load. Default: none = start a `spindle rm` child on
  // 127.0.0.1 with ports picked at run time, an in-memory state store and
  // the heartbeat interval below (it dies with the generator).
  std::optional<RmAddresses> rm;
  // --rm-pid: the process whose CPU and RSS are reported when --rm is given
  // (e.g. the Java RM's pid). Default: 0 = not reported.
  int64_t rm_pid = 0;
  // --binary: the `spindle` run as the RM child. Default: /proc/self/exe.
  std::string binary = "/proc/self/exe";
  // --nodes: simulated NodeManagers, all in this process on one
  // ContainerManagementProtocol port (virtual nodes 127.1.0.1, ...), sharing
  // one ResourceTracker connection. Each heartbeats `heartbeat_ms` after its
  // previous answer (as a Hadoop NM does), so K nodes offer at most
  // K x 1000 / heartbeat_ms heartbeats/s and any RM latency keeps the
  // answered rate below that. Default: 2500 (at most 25,000/s offered at
  // 100 ms, so that the answered rate can reach the 20,000/s goal; with
  // 2000 nodes the goal was the offer itself and never reachable).
  int64_t nodes = 2500;
  // --tracker-connections: ResourceTracker connections the nodes are split
  // over (one node agent, with its event loop thread and its
  // ContainerManagementProtocol port, per connection). A Java NM has one
  // connection each; one per node would cost the generator K sockets for
  // no work the RM's handlers see, so nodes share. Default: 1.
  int64_t tracker_connections = 1;
  // --node-memory-mb / --node-vcores: what each node registers with.
  // Default: 65536 MB, 64 vcores.
  int64_t node_memory_mb = 65536;
  int64_t node_vcores = 64;
  // --heartbeat-ms: the node heartbeat interval the RM child is configured
  // with (yarn.resourcemanager.nodemanagers.heartbeat-interval-ms); with
  // --rm, the RM decides and this is only used for the ceiling line.
  // Default: 100.
  int64_t heartbeat_ms = 100;
  // --apps: applications running at once; each slot submits a new one when
  // its application finishes, until --seconds have passed. Default: 40.
  int64_t apps = 40;
  // --containers-per-app: containers each AM asks for (one ask at ANY, sent
  // with its first allocate). Default: 2000.
  int64_t containers_per_app = 2000;
  // --container-ms: how long an AM holds each container before releasing it
  // (allocated containers are held, not started: no per-container NM
  // traffic). Default: 1000.
  int64_t container_ms = 1000;
  // --memory-mb / --vcores: each container's size. Default: 128 MB, 1.
  int64_t memory_mb = 128;
  int64_t vcores = 1;
  // --am-memory-mb: the AM container's memory. Default: 256.
  int64_t am_memory_mb = 256;
  // --allocate-ms: pause between an AM's allocate calls (one in flight per
  // AM). Default: 100.
  int64_t allocate_ms = 100;
  // --seconds: how long new applications are submitted; the figures are
  // measured over this window minus the warm-up. Default: 20.
  int64_t seconds = 20;
  // --warmup-seconds: the start of the window left out of the rates (AMs
  // launching, first asks). Default: 3.
  int64_t warmup_seconds = 3;
  // --unmanaged: submit unmanaged AMs and run them with the AMRMToken from
  // the application report, instead of launching them through the NMs.
  bool unmanaged = false;
  // --timeout: bound on registration, on draining the running applications
  // after the window, and on each wait for the RM. Default: 120 s.
  int64_t timeout_seconds = 120;
  // --web-scrapers: threads that GET the RM's REST lists and metrics
  // endpoints in a loop over the measured window (web_scraper.h), to show
  // what the web side costs the RPC paths. Needs the RM's web address (the
  // child's, or --rm's fourth). Default: 0.
  int64_t web_scrapers = 0;
  // --queue. Default: default.
  std::string queue = "default";
  // --user: the submitting user (SIMPLE). Default: $USER, else "spindle".
  std::string user;
  // --work-dir: the RM child's configuration and log. Default: a fresh
  // directory under the system temp dir, removed after a clean run.
  std::string work_dir;
  // --hadoop-line: the Hadoop line of the RM under load (2.6, 2.7, 3.3 or a
  // release of one, rm/config/hadoop_line.h): the simulated NodeManagers
  // use only what that line's ResourceTracker offers (no
  // unRegisterNodeManager before 2.8), and a Spindle child is configured
  // as that line (spindle.compat.hadoop-version). Default: 3.3.
  std::string hadoop_line = "3.3";
  // --kill-active-after: the failover run. Instead of one RM child, an HA
  // pair (rm-ids rm1 and rm2, ZKRMStateStore and automatic failover on a
  // ZooKeeper server, both started here with ports picked at run time);
  // the generator's clients, AMs and nodes know both rm-ids and fail over
  // as Hadoop's do (rm_failover.h, SimulatedAm, NodeStatusUpdater). This
  // many seconds into the run the active RM is SIGKILLed; the run reports
  // the time to the new active's first allocate answer, the rates before
  // and after, and what was lost (wire_report.h). Not with --rm. Default: 0
  // (off).
  int64_t kill_active_after_seconds = 0;
  // --zk-timeout-ms: the pair's yarn.resourcemanager.zk-timeout-ms (the
  // ZooKeeper session, so how long the survivor waits for the dead one's
  // lock). Default: 2000.
  int64_t zk_timeout_ms = 2000;
  // --zk-address: a ZooKeeper server the pair uses instead of starting one
  // (Debian's zookeeper package). Default: "" = start one.
  std::string zk_address;

  bool ha() const { return kill_active_after_seconds > 0; }

  // InvalidArgument naming the first bad flag.
  Status Validate() const;
};

}  // namespace spindle::bench::wire
