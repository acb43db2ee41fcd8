// HaPair: the RMs of a failover run (`spindle bench wire
// --kill-active-after`): a ZooKeeper server (Debian's zookeeper package,
// started here on a port picked at run time, unless --zk-address names one)
// and two `spindle rm` children, rm-ids rm1 and rm2, as a Hadoop HA pair:
// yarn.resourcemanager.ha.enabled, automatic failover by the embedded
// elector, ZKRMStateStore with work-preserving recovery, and the
// generator's own properties (RmChild). Each rm-id's five addresses are
// picked before its RM starts (HA names them in every configuration); a
// port taken meanwhile makes that RM start again on new ones.
//
// rm1 starts first and must become active; rm2 then joins as standby.
//
// Thread contract: one controlling thread.
#pragma once

#include <sys/types.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "bench/wire/rm_child.h"
#include "bench/wire/wire_options.h"
#include "wire/ipc/rpc_client.h"

namespace spindle::bench {
class MiniZooKeeper;
}

namespace spindle::bench::wire {

class HaPair {
 public:
  HaPair();
  ~HaPair();
  HaPair(const HaPair&) = delete;
  HaPair& operator=(const HaPair&) = delete;

  // Starts ZooKeeper (unless options.zk_address), then rm1 (until it
  // answers as active), then rm2. IoError / TimedOut / Unavailable naming
  // what did not start, with its log.
  Status Start(const WireOptions& options, const std::string& work_dir);
  // Stops both RMs and ZooKeeper. Idempotent.
  void Stop();

  // The rm-ids, in order ("rm1", "rm2").
  static const std::vector<std::string>& RmIds();
  // Each rm-id's addresses, in RmIds() order.
  const std::vector<RmAddresses>& addresses() const { return addresses_; }
  // What a client of the pair is configured with: HA on, the rm-ids and
  // every rm-id's addresses (yarn.resourcemanager.address.rm1, ...).
  std::map<std::string, std::string> ClientProperties() const;

  // The index of the rm-id whose RM answers getClusterMetrics (the
  // active), asking each once; nullopt if none does.
  std::optional<size_t> ActiveIndex();
  // SIGKILLs the RM of rm-id `index`.
  void Kill(size_t index);
  pid_t pid(size_t index) const { return rms_[index].pid(); }
  std::string log(size_t index) const { return rms_[index].log(); }

 private:
  std::map<std::string, std::string> RmProperties(size_t index) const;
  // New ports for rm-id `index`. IoError if none can be picked.
  Status PickPorts(size_t index);
  Status StartRm(size_t index);

  WireOptions options_;
  std::string work_dir_;
  std::string zk_address_;
  std::unique_ptr<MiniZooKeeper> zk_;
  std::vector<RmAddresses> addresses_;
  uint16_t admin_ports_[2] = {0, 0};
  RmChild rms_[2];
  std::unique_ptr<ipc::RpcClient> probe_;
};

}  // namespace spindle::bench::wire
