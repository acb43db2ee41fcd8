// RmDelegationTokenSecretProvider: lets the IPC layer's SASL DIGEST-MD5
// server on the ApplicationClientProtocol port (8032) authenticate clients
// with their RM delegation token, as Hadoop's RM does (its 8032 server takes
// RMDelegationTokenSecretManager as secret manager and offers TOKEN and
// SIMPLE; WIRE.md 3.1). A token authenticates while it is known and its
// renew date has not passed; the connection's user is the token's owner
// reduced to its short name (UGI.getShortUserName of the token's user: a
// Kerberos caller's token is owned by its full principal, "alice@REALM",
// and its calls run as "alice"), by hadoop.security.auth_to_local when the
// daemon gives its rules (an owner they do not map authenticates nobody, as
// Java's User refuses an illegal principal name), else by
// RmDelegationTokenSecretManager::ShortName.
// Lives beside AmrmTokenSecretProvider, on the wire side, for the same
// reason: rm/ depends on no IPC code. The daemon's provider reads the
// tokens through the RM core (ClientFacade), so it serves whichever
// activation is current and refuses every token while the core is standby.
//
// Thread-safety: as rm::RmDelegationTokenSecretManager::RetrieveSecret():
// thread-safe, non-blocking, no I/O; fit for I/O threads.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "rm/core/client_facade.h"
#include "rm/security/rm_delegation_token_secret_manager.h"
#include "wire/ipc/token_secret_provider.h"

namespace spindle::am_protocol {

class RmDelegationTokenSecretProvider final : public ipc::TokenSecretProvider {
 public:
  // Maps an owner to the user calls run as (thread-safe, non-blocking).
  using ShortNameFn = std::function<Result<std::string>(const std::string& owner)>;
  // `manager` is not owned and must outlive the provider.
  explicit RmDelegationTokenSecretProvider(const rm::RmDelegationTokenSecretManager* manager,
                                           ShortNameFn short_name = nullptr)
      : manager_(manager), short_name_(std::move(short_name)) {}
  // `core` is not owned and must outlive the provider.
  explicit RmDelegationTokenSecretProvider(const rm::ClientFacade* core,
                                           ShortNameFn short_name = nullptr)
      : core_(core), short_name_(std::move(short_name)) {}

  Result<ipc::TokenSecret> RetrieveSecret(std::string_view identifier) const override {
    auto secret = core_ != nullptr ? core_->RetrieveDelegationTokenSecret(identifier)
                                   : manager_->RetrieveSecret(identifier);
    if (!secret.ok()) return secret.status();
    std::string user = rm::RmDelegationTokenSecretManager::ShortName(secret->user);
    if (short_name_) {
      Result<std::string> mapped = short_name_(secret->user);
      if (!mapped.ok()) {
        return Status::InvalidArgument("Illegal principal name " + secret->user + ": " +
                                       mapped.status().message());
      }
      user = std::move(mapped).value();
    }
    return ipc::TokenSecret{std::move(secret->password), std::move(user)};
  }

 private:
  // One of the two.
  const rm::RmDelegationTokenSecretManager* const manager_ = nullptr;
  const rm::ClientFacade* const core_ = nullptr;
  const ShortNameFn short_name_;
};

}  // namespace spindle::am_protocol
