// ContainerTokenSecretManager: makes container tokens (Java:
// RMContainerTokenSecretManager) and owns the container-token master keys
// that NodeManagers use to verify them.
//
// A token is signed with the *current* key; a rolled next key first travels
// to NMs through heartbeats (KeyForHeartbeat) and only signs after its
// activation delay (1.5 x NM expiry), by when every live NM has it. NMs get
// CurrentKey() at registration and keep their previous key, so tokens under
// the old key stay valid on them until their expiry.
//
// Token fields (WIRE.md 6.2, 5.4): nmHostAddr = NodeId string, expiryTimeStamp
// = wall-clock now + token_expiry_ms, masterKeyId = current key, rmIdentifier
// = the RM's cluster timestamp; kind "ContainerToken"; service = NM "IP:port".
//
// Thread-safety: all methods are thread-safe and do no I/O.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "base/clock.h"
#include "base/result.h"
#include "rm/security/master_key_manager.h"
#include "rm/security/token.h"
#include "rm/security/token_identifiers.h"

namespace spindle::rm {

class ContainerTokenSecretManager {
 public:
  struct Options {
    // family is forced to kContainerTokens.
    KeyRollingOptions keys;
    // yarn.resourcemanager.rm.container-allocation.expiry-interval-ms: how
    // long a container token stays valid. Default: 600000.
    int64_t token_expiry_ms = 600000;
    // The RM's cluster timestamp (also sent to NMs as rm_identifier).
    int64_t rm_identifier = 0;
    // Default: the fields a Hadoop 3.x RM writes.
    ContainerTokenLayout layout = ContainerTokenLayout::kHadoop3;

    Status Validate() const;
  };

  // `clock` must outlive the manager; its WallMillis() stamps expiry times.
  static Result<std::unique_ptr<ContainerTokenSecretManager>> Create(Options options,
                                                                     const Clock* clock);

  Token CreateContainerToken(const ContainerTokenRequest& request) const;

  // For registerNodeManager's container_token_master_key.
  MasterKey CurrentKey() const { return keys_->Current(); }
  // For nodeHeartbeat's container_token_master_key, given the request's
  // last_known_container_token_master_key id (nullopt if absent).
  std::optional<MasterKey> KeyForHeartbeat(std::optional<int32_t> last_known_key_id) const {
    return keys_->KeyForNode(last_known_key_id);
  }

  KeyTransitions Advance() { return keys_->Advance(); }
  TimePoint NextKeyEventTime() const { return keys_->NextEventTime(); }
  KeyState Keys() const { return keys_->State(); }
  const Options& options() const { return options_; }

 private:
  ContainerTokenSecretManager(Options options, std::unique_ptr<MasterKeyManager> keys,
                              const Clock* clock);

  const Options options_;
  const std::unique_ptr<MasterKeyManager> keys_;
  const Clock* const clock_;
};

}  // namespace spindle::rm
