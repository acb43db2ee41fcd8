// NodeTokenKeys: the secrets one node got from the RM (WIRE.md 5.5, 5.6):
// the container-token and NM-token master keys, each as a current and a
// previous key (a new key id moves the current one to previous, as Java's
// NMContainerTokenSecretManager and NMTokenSecretManagerInNM do), and the
// RM's identifier (cluster timestamp) from registration. Tokens signed with
// either the current or the previous key of their family verify.
//
// Thread-safety: all methods are thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/mutex.h"
#include "rm/security/master_key.h"

namespace spindle::nm {

class NodeTokenKeys {
 public:
  enum class Family { kContainerTokens, kNmTokens };

  // Applies a key the RM sent. A key whose id is the current one changes
  // nothing; another id becomes current and the old current becomes previous.
  void Apply(Family family, const rm::MasterKey& key) EXCLUDES(mu_);
  // The raw key with `key_id` if it is the family's current or previous key.
  std::optional<std::string> Find(Family family, int32_t key_id) const EXCLUDES(mu_);
  // The current key (for last_known_*_master_key), if any.
  std::optional<rm::MasterKey> Current(Family family) const EXCLUDES(mu_);
  // Whether both families have a key (the node can verify tokens).
  bool Ready() const EXCLUDES(mu_);

  void set_rm_identifier(int64_t id) EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    rm_identifier_ = id;
  }
  int64_t rm_identifier() const EXCLUDES(mu_) {
    MutexLock lock(&mu_);
    return rm_identifier_;
  }

 private:
  struct Pair {
    std::optional<rm::MasterKey> current;
    std::optional<rm::MasterKey> previous;
  };
  Pair& Of(Family family) REQUIRES(mu_) {
    return family == Family::kContainerTokens ? container_ : nm_;
  }
  const Pair& Of(Family family) const REQUIRES(mu_) {
    return family == Family::kContainerTokens ? container_ : nm_;
  }

  mutable Mutex mu_;
  Pair container_ GUARDED_BY(mu_);
  Pair nm_ GUARDED_BY(mu_);
  int64_t rm_identifier_ GUARDED_BY(mu_) = 0;
};

}  // namespace spindle::nm
