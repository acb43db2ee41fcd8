// MetricsMethod: the getClusterMetrics method the loopback tests serve
// (rpc_loopback_test, sasl_wrap_loopback_test, kerberos_loopback_test), and
// CallMetrics, their one call of it. The method records the identity the
// server gave the caller (user, auth method, principal, qop) and answers
// num_node_managers = the calls it has served so far, so a test sees who was
// authenticated and that a call reached the handler (or did not).
//
// Thread contract: the handler runs on the server's worker threads; last()
// and served() may be read from the test thread at any time.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "wire/ipc/connection_identity.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_service.h"
#include "yarn_service_protos.pb.h"

namespace spindle::ipc::testing {

class MetricsMethod {
 public:
  // A service for `protocol` with getClusterMetrics in it; the test adds
  // its other methods. `this` must outlive the server that serves it.
  std::unique_ptr<RpcService> NewService(const std::string& protocol) {
    auto service = std::make_unique<RpcService>(protocol);
    service->AddMethod<hadoop::yarn::GetClusterMetricsRequestProto,
                       hadoop::yarn::GetClusterMetricsResponseProto>(
        "getClusterMetrics",
        [this](const ConnectionIdentity& who, const hadoop::yarn::GetClusterMetricsRequestProto&,
               hadoop::yarn::GetClusterMetricsResponseProto* response) {
          std::lock_guard<std::mutex> lock(mu_);
          last_ = who;
          response->mutable_cluster_metrics()->set_num_node_managers(++served_);
          return Status::OK();
        });
    return service;
  }

  // The identity of the last call served (a default one before any).
  ConnectionIdentity last() const {
    std::lock_guard<std::mutex> lock(mu_);
    return last_;
  }
  int32_t served() const {
    std::lock_guard<std::mutex> lock(mu_);
    return served_;
  }

 private:
  mutable std::mutex mu_;
  ConnectionIdentity last_;
  int32_t served_ = 0;
};

// Calls getClusterMetrics; `served`, if given, gets the answer's
// num_node_managers (0 if the call failed).
inline Status CallMetrics(RpcClient& client, const ConnectionSpec& spec,
                          int32_t* served = nullptr) {
  hadoop::yarn::GetClusterMetricsRequestProto request;
  hadoop::yarn::GetClusterMetricsResponseProto response;
  Status status = client.Call(spec, "getClusterMetrics", request, &response);
  if (served != nullptr) *served = response.cluster_metrics().num_node_managers();
  return status;
}

}  // namespace spindle::ipc::testing
