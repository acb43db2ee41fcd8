// IpcAmLauncher: rm::AmLauncher over the wire (WIRE.md 5.4, 7.1). It starts
// the AM container with startContainers on the node's
// ContainerManagementProtocol, authenticated with an NMToken (SASL
// TOKEN/DIGEST-MD5, as the Java RM's AMLauncher does), sending the submitted
// launch context plus what the RM adds: the AMRM token in the credentials,
// APP_SUBMIT_TIME_ENV, APPLICATION_WEB_PROXY_BASE, MAX_APP_ATTEMPTS; and it
// stops the container with stopContainers when the attempt is over. A node
// that cannot be reached is tried again as Hadoop's NMProxy does
// (NmConnectRetryPolicy), so that an agent restarting on its address gets
// the AM it was given.
//
// Thread contract: thread-safe; calls are asynchronous on the RpcClient's
// I/O thread, and `done` runs there; retries wait on the launcher's own
// timer thread.
#pragma once

#include <boost/asio.hpp>
#include <memory>
#include <optional>
#include <thread>

#include "nm_shim/am_launcher/nm_connect_retry_policy.h"
#include "rm/apps/am_launcher.h"
#include "rm/security/amrm_token_secret_manager.h"
#include "rm/security/container_token_secret_manager.h"
#include "rm/security/nm_token_secret_manager.h"
#include "wire/ipc/protocol_names.h"
#include "wire/ipc/rpc_client.h"

namespace spindle::nm_shim {

using ipc::kContainerManagementProtocol;

class IpcAmLauncher : public rm::AmLauncher {
 public:
  // Every pointer must outlive the launcher.
  IpcAmLauncher(ipc::RpcClient* client, rm::AmrmTokenSecretManager* amrm_tokens,
                const rm::ContainerTokenSecretManager* container_tokens,
                const rm::NmTokenSecretManager* nm_tokens, const Clock* clock,
                NmConnectRetryPolicy retry = {});
  // Launches waiting for a retry are dropped (their `done` never runs).
  ~IpcAmLauncher() override;

  void Launch(const rm::AmLaunch& launch, std::function<void(Status)> done) override;
  void Cleanup(const rm::AmLaunch& launch) override;

  // The launch context the RM sends (exposed for tests).
  Result<std::string> BuildLaunchContext(const rm::AmLaunch& launch) const;

 private:
  struct StartCall;
  ipc::ConnectionSpec SpecFor(const rm::AmLaunch& launch) const;
  // One try of startContainers; a retriable failure schedules the next.
  void TryStart(std::shared_ptr<StartCall> call);

  ipc::RpcClient* const client_;
  rm::AmrmTokenSecretManager* const amrm_tokens_;
  const rm::ContainerTokenSecretManager* const container_tokens_;
  const rm::NmTokenSecretManager* const nm_tokens_;
  const Clock* const clock_;
  const NmConnectRetryPolicy retry_;
  // Waits between tries.
  boost::asio::io_context timers_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::thread timer_thread_;
};

}  // namespace spindle::nm_shim
