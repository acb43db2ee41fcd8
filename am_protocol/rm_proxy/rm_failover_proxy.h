// RmFailoverProxy: Spindle's own clients' proxy to one RM protocol
// (client, scheduler, resource tracker, admin), as Hadoop's RMProxy builds
// one with ConfiguredRMFailoverProxyProvider (read in 2.6.0 and 3.3.0): the
// addresses of the protocol's key for every rm-id, in
// yarn.resourcemanager.ha.rm-ids order, starting at the first; a call that
// the policy (rm_retry_policy.h) says to fail over moves the proxy to the
// next rm-id, round robin, and tries again there. The proxy stays on the RM
// that answered, so the next call starts there. With HA off there is one
// address and calls are retried on it.
//
// Like RetryInvocationHandler, a call that fails over only moves the proxy
// if no other call moved it since this one started, so concurrent calls that
// fail together skip one RM, not several.
//
// Thread contract: Call() is thread-safe and blocks (sleeps between
// tries); never call it from an RpcClient callback.
#pragma once

#include <google/protobuf/message_lite.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "am_protocol/rm_proxy/rm_retry_policy.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/config/configuration.h"
#include "wire/ipc/rpc_client.h"

namespace spindle::am_protocol {

struct RmProxyTarget {
  std::string rm_id;  // empty with HA off
  std::string host;
  uint16_t port = 0;
  std::string ToString() const;
};

// The addresses of `address_key` (e.g. yarn.resourcemanager.scheduler.address):
// one per rm-id with HA on (rm::RmAddressOf), else the key's value, or
// yarn.resourcemanager.hostname with the service's default port.
// InvalidArgument from the configuration's checks.
Result<std::vector<RmProxyTarget>> RmProxyTargets(const rm::Configuration& conf,
                                                  const std::string& address_key);

struct RmFailoverProxyOptions {
  // declaringClassProtocolName and who calls (ipc::ConnectionSpec).
  std::string protocol;
  std::string user;
  std::optional<ipc::ClientToken> token;
  RmRetryPolicy policy;
  // The caller's own deadline: no try starts after it, no sleep runs past
  // it. Default: none.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  // Test seams. Default: std::this_thread::sleep_for and a thread-local
  // generator of U[0, 1).
  std::function<void(std::chrono::milliseconds)> sleep;
  std::function<double()> uniform;
};

class RmFailoverProxy {
 public:
  // `client` must outlive the proxy; `targets` must not be empty.
  RmFailoverProxy(ipc::RpcClient* client, std::vector<RmProxyTarget> targets,
                  RmFailoverProxyOptions options);

  // Builds the targets of `address_key` and the policy from `conf`.
  static Result<std::unique_ptr<RmFailoverProxy>> FromConfiguration(ipc::RpcClient* client,
                                                                    const rm::Configuration& conf,
                                                                    const std::string& address_key,
                                                                    RmFailoverProxyOptions options);

  // client->Call on the current RM, retried and failed over per the policy.
  // The error is the last try's, with the policy's reason as context.
  Status Call(const std::string& method, const google::protobuf::MessageLite& request,
              google::protobuf::MessageLite* response);

  // The RM calls go to now.
  RmProxyTarget current() const;
  // Failovers so far, over every call.
  int64_t failovers() const;

 private:
  ipc::ConnectionSpec SpecOf(const RmProxyTarget& target) const;

  ipc::RpcClient* const client_;
  const std::vector<RmProxyTarget> targets_;
  const RmFailoverProxyOptions options_;
  mutable Mutex mu_;
  size_t current_ GUARDED_BY(mu_) = 0;
  int64_t failovers_ GUARDED_BY(mu_) = 0;
};

}  // namespace spindle::am_protocol
