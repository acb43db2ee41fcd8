// IpcAmLauncher: rm::AmLauncher over the wire (WIRE.md 5.4, 7.1). It starts
// the AM container with startContainers on the node's
// ContainerManagementProtocol, authenticated with an NMToken (SASL
// TOKEN/DIGEST-MD5, as the Java RM's AMLauncher does), sending the submitted
// launch context plus what the RM adds: the AMRM token in the credentials,
// APP_SUBMIT_TIME_ENV, APPLICATION_WEB_PROXY_BASE, MAX_APP_ATTEMPTS; and it
// stops the container with stopContainers when the attempt is over.
//
// Thread contract: thread-safe; calls are asynchronous on the RpcClient's
// I/O thread, and `done` runs there.
#pragma once

#include <memory>

#include "am_protocol/ipc/rpc_client.h"
#include "rm/apps/am_launcher.h"
#include "rm/security/amrm_token_secret_manager.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/nm_token_secret_manager.h"

namespace spindle::nm_shim {

inline constexpr char kContainerManagementProtocol[] =
    "org.apache.hadoop.yarn.api.ContainerManagementProtocolPB";

class IpcAmLauncher : public rm::AmLauncher {
 public:
  // Every pointer must outlive the launcher.
  IpcAmLauncher(ipc::RpcClient* client, rm::AmrmTokenSecretManager* amrm_tokens,
                const rm::ContainerTokenSecretManager* container_tokens,
                const rm::NmTokenSecretManager* nm_tokens, const Clock* clock);

  void Launch(const rm::AmLaunch& launch, std::function<void(Status)> done) override;
  void Cleanup(const rm::AmLaunch& launch) override;

  // The launch context the RM sends (exposed for tests).
  Result<std::string> BuildLaunchContext(const rm::AmLaunch& launch) const;

 private:
  ipc::ConnectionSpec SpecFor(const rm::AmLaunch& launch) const;

  ipc::RpcClient* const client_;
  rm::AmrmTokenSecretManager* const amrm_tokens_;
  const rm::ContainerTokenSecretManager* const container_tokens_;
  const rm::NmTokenSecretManager* const nm_tokens_;
  const Clock* const clock_;
};

}  // namespace spindle::nm_shim
