#include "bench/wire/ha_pair.h"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "am_protocol/client_service/client_rm_service.h"
#include "base/net/free_port.h"
#include "bench/support/mini_zookeeper.h"
#include "yarn_service_protos.pb.h"

namespace spindle::bench::wire {

namespace {

constexpr char kZkStoreClass[] =
    "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore";

// The five addresses each rm-id has, in RmAddresses order plus the admin
// port (not a field there: the generator never calls it).
constexpr const char* kClientKey = "yarn.resourcemanager.address";
constexpr const char* kSchedulerKey = "yarn.resourcemanager.scheduler.address";
constexpr const char* kTrackerKey = "yarn.resourcemanager.resource-tracker.address";
constexpr const char* kAdminKey = "yarn.resourcemanager.admin.address";
constexpr const char* kWebKey = "yarn.resourcemanager.webapp.address";

std::string Tail(const std::string& path, size_t lines) {
  std::ifstream in(path);
  std::vector<std::string> all;
  std::string line;
  while (std::getline(in, line)) all.push_back(line);
  std::ostringstream out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) {
    out << all[i] << "\n";
  }
  return out.str();
}

}  // namespace

HaPair::HaPair() = default;

HaPair::~HaPair() { Stop(); }

const std::vector<std::string>& HaPair::RmIds() {
  static const std::vector<std::string> kIds = {"rm1", "rm2"};
  return kIds;
}

Status HaPair::PickPorts(size_t index) {
  ASSIGN_OR_RETURN(const std::vector<uint16_t> ports, net::PickFreeLoopbackPorts(5));
  auto at = [](uint16_t port) { return HostPort{"127.0.0.1", port}; };
  RmAddresses& a = addresses_[index];
  a.client = at(ports[0]);
  a.scheduler = at(ports[1]);
  a.tracker = at(ports[2]);
  a.web = at(ports[3]);
  admin_ports_[index] = ports[4];
  return Status::OK();
}

std::map<std::string, std::string> HaPair::ClientProperties() const {
  std::map<std::string, std::string> p;
  p["yarn.resourcemanager.ha.enabled"] = "true";
  p["yarn.resourcemanager.ha.rm-ids"] = "rm1,rm2";
  for (size_t i = 0; i < RmIds().size(); ++i) {
    const std::string suffix = "." + RmIds()[i];
    const RmAddresses& a = addresses_[i];
    p[kClientKey + suffix] = a.client.ToString();
    p[kSchedulerKey + suffix] = a.scheduler.ToString();
    p[kTrackerKey + suffix] = a.tracker.ToString();
    p[kWebKey + suffix] = a.web.ToString();
    p[kAdminKey + suffix] = "127.0.0.1:" + std::to_string(admin_ports_[i]);
  }
  return p;
}

std::map<std::string, std::string> HaPair::RmProperties(size_t index) const {
  std::map<std::string, std::string> p = ClientProperties();
  const std::string run = std::to_string(getpid());
  p["yarn.resourcemanager.ha.id"] = RmIds()[index];
  p["yarn.resourcemanager.cluster-id"] = "spindle-bench-wire-" + run;
  p["hadoop.zk.address"] = zk_address_;
  p["yarn.resourcemanager.zk-timeout-ms"] = std::to_string(options_.zk_timeout_ms);
  p["yarn.resourcemanager.zk-state-store.parent-path"] = "/spindle-bench-wire-" + run;
  p["yarn.resourcemanager.store.class"] = kZkStoreClass;
  p["yarn.resourcemanager.recovery.enabled"] = "true";
  // Hadoop's default is 10 s; the new active places nothing before its
  // nodes are back or this passes (the HA chaos test's value).
  p["yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms"] = "1000";
  p["hadoop.tmp.dir"] = work_dir_ + "/" + RmIds()[index] + "-tmp";
  return p;
}

Status HaPair::StartRm(size_t index) {
  const std::string& id = RmIds()[index];
  for (int attempt = 1;; ++attempt) {
    Status started = rms_[index].Start(options_, work_dir_, id, RmProperties(index));
    if (started.ok()) return started;
    const bool port_taken =
        Tail(rms_[index].log(), 50).find("Address already in use") != std::string::npos;
    if (!port_taken || attempt == 3) return started;
    // New ports for this rm-id; the generator's clients read them from
    // addresses() afterwards (a running rm1 keeps rm2's old ones, which it
    // uses only to redirect its web pages while standby).
    rms_[index].Stop();
    RETURN_NOT_OK(PickPorts(index));
  }
}

Status HaPair::Start(const WireOptions& options, const std::string& work_dir) {
  options_ = options;
  work_dir_ = work_dir;
  zk_address_ = options.zk_address;
  if (zk_address_.empty()) {
    MiniZooKeeperOptions zk;
    zk.work_dir = work_dir + "/zookeeper";
    const std::string missing = MiniZooKeeper::MissingComponent(zk);
    if (!missing.empty()) {
      return Status::Unavailable("cannot start ZooKeeper (" + missing +
                                 "); install Debian's zookeeper package or give --zk-address");
    }
    ASSIGN_OR_RETURN(zk_, MiniZooKeeper::Start(zk));
    zk_address_ = zk_->connect_string();
  }
  addresses_.assign(RmIds().size(), RmAddresses());
  for (size_t i = 0; i < RmIds().size(); ++i) RETURN_NOT_OK(PickPorts(i));
  ipc::RpcClientOptions probe;
  probe.connect_timeout = std::chrono::seconds(2);
  probe.call_timeout = std::chrono::seconds(10);
  probe_ = std::make_unique<ipc::RpcClient>(probe);

  RETURN_NOT_OK(StartRm(0));
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout_seconds);
  while (ActiveIndex() != std::optional<size_t>(0)) {
    if (rms_[0].Exited()) return Status::IoError("rm1 exited (see " + rms_[0].log() + ")");
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::TimedOut("rm1 did not become active (see " + rms_[0].log() + ")");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // rm2's configuration names rm1's ports as they are now.
  return StartRm(1);
}

void HaPair::Stop() {
  for (RmChild& rm : rms_) rm.Stop();
  probe_.reset();
  zk_.reset();
}

std::optional<size_t> HaPair::ActiveIndex() {
  for (size_t i = 0; i < addresses_.size(); ++i) {
    if (rms_[i].pid() <= 0) continue;
    hadoop::yarn::GetClusterMetricsRequestProto request;
    hadoop::yarn::GetClusterMetricsResponseProto response;
    const ipc::ConnectionSpec spec{addresses_[i].client.host, addresses_[i].client.port,
                                   client_service::kApplicationClientProtocol, "spindle",
                                   std::nullopt};
    if (probe_->Call(spec, "getClusterMetrics", request, &response).ok()) return i;
  }
  return std::nullopt;
}

void HaPair::Kill(size_t index) { rms_[index].Kill(); }

}  // namespace spindle::bench::wire
