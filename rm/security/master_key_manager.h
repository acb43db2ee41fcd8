// MasterKeyManager: the master keys of one token family and their roll-over,
// on the Java RM's schedule (RMContainerTokenSecretManager,
// NMTokenSecretManagerInRM, AMRMTokenSecretManager; WIRE.md 5.6):
//
//   t0           a current key is made (or recovered)
//   t0 + k*I     roll: a new *next* key is made (k = 1, 2, ...)
//   roll + D     activation: next becomes current, the old current is dropped
//
// with I the rolling interval and D the activation delay (I > 2*D, which
// Java enforces too). Key ids start at a random int and go up by one per new
// key, wrapping like a Java int. Keys are 8 random bytes.
//
// Time comes from the injected Clock; nothing happens on its own: the owner
// calls Advance() (e.g. from an RM timer at NextEventTime()), which applies
// every roll and activation due by Clock::Now(), in order and at their
// scheduled times, so a late call gives the same keys as a punctual one.
//
// Which key signs and which keys verify is the family's business (the
// container and NM families sign with `current`; the AMRM family signs with
// `next` as soon as it exists and accepts current or next).
//
// Thread-safety: all methods are thread-safe; none blocks beyond a short
// internal lock, and none does I/O.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "base/clock.h"
#include "base/hmac_sha1_key.h"
#include "base/mutex.h"
#include "base/result.h"
#include "rm/security/master_key.h"

namespace spindle::rm {

enum class KeyFamily { kContainerTokens, kNmTokens, kAmrmTokens };

// "container-tokens", "nm-tokens", "am-rm-tokens": the family's part of its
// Hadoop configuration key.
const char* KeyFamilyName(KeyFamily family);

struct KeyRollingOptions {
  KeyFamily family = KeyFamily::kContainerTokens;
  // How often a next key is made:
  // yarn.resourcemanager.<family>.master-key-rolling-interval-secs.
  // Default: 86400 s.
  Duration rolling_interval = std::chrono::seconds(86400);
  // How long a next key waits before it becomes current: 1.5 x
  // yarn.nm.liveness-monitor.expiry-interval-ms for the container and NM
  // families, 1.5 x yarn.am.liveness-monitor.expiry-interval-ms for AMRM.
  // Must be less than half the rolling interval. Default: 900 s.
  Duration activation_delay = std::chrono::seconds(900);
  // Id of the first key made. Default: random, as Java's
  // SecureRandom.nextInt().
  std::optional<int32_t> first_key_id;
  // Keys to start from (RM recovery) instead of a fresh current key. A
  // recovered next key activates `activation_delay` after start, as in
  // Java's recover(); new ids continue after the newest recovered one.
  std::optional<KeyState> recovered;
  // Bytes per new key. Default: 8 (Java's KeyGenerator("HmacSHA1").init(64)).
  size_t key_length = 8;

  // InvalidArgument naming the family and the offending value.
  Status Validate() const;
};

// A key ready to sign with: its id and its HMAC key schedule, made once per
// key and shared by every token it signs (HmacSha1Key).
struct SigningKey {
  int32_t key_id = 0;
  std::shared_ptr<const HmacSha1Key> hmac;
};

// What one Advance() did.
struct KeyTransitions {
  int rolled = 0;     // next keys made
  int activated = 0;  // next keys made current

  bool any() const { return rolled + activated > 0; }
};

class MasterKeyManager {
 public:
  // Makes (or recovers) the current key at clock->Now(); the first roll is
  // due one rolling interval later. Fails if the options do not validate.
  // `clock` must outlive the manager.
  static Result<std::unique_ptr<MasterKeyManager>> Create(KeyRollingOptions options,
                                                          const Clock* clock);

  MasterKeyManager(const MasterKeyManager&) = delete;
  MasterKeyManager& operator=(const MasterKeyManager&) = delete;

  KeyFamily family() const { return options_.family; }

  MasterKey Current() const EXCLUDES(mu_);
  std::optional<MasterKey> Next() const EXCLUDES(mu_);
  // Next if there is one, else current: the key AMRM tokens are made with.
  MasterKey Newest() const EXCLUDES(mu_);
  // The current or next key with this id, or nullopt.
  std::optional<MasterKey> Find(int32_t key_id) const EXCLUDES(mu_);
  KeyState State() const EXCLUDES(mu_);
  // Current() and Newest() as signing keys: what token minting uses, so
  // that the HMAC key schedule is derived once per key, not per token.
  SigningKey CurrentSigningKey() const EXCLUDES(mu_);
  SigningKey NewestSigningKey() const EXCLUDES(mu_);

  // The heartbeat rule (ResourceTrackerService.populateKeys): the next key
  // if there is one and the NM's last-known key id differs from it (or the
  // NM reported none), else nullopt. The NM keeps its old key as previous.
  std::optional<MasterKey> KeyForNode(std::optional<int32_t> node_last_known_key_id) const
      EXCLUDES(mu_);

  // Applies every roll and activation due by clock->Now(). If more than two
  // rolls are overdue (a clock jump), only the last one is made.
  KeyTransitions Advance() EXCLUDES(mu_);
  // When Advance() next has something to do.
  TimePoint NextEventTime() const EXCLUDES(mu_);

 private:
  MasterKeyManager(KeyRollingOptions options, const Clock* clock);
  MasterKey NewKey() REQUIRES(mu_);
  // `key` as a signing key, from the cache or made (and cached) now.
  SigningKey SigningKeyOf(const MasterKey& key) const REQUIRES(mu_);

  const KeyRollingOptions options_;
  const Clock* const clock_;

  mutable Mutex mu_;
  MasterKey current_ GUARDED_BY(mu_);
  std::optional<MasterKey> next_ GUARDED_BY(mu_);
  // The id of the next key made; uint32_t so that it wraps like a Java int.
  uint32_t serial_ GUARDED_BY(mu_) = 0;
  TimePoint next_roll_ GUARDED_BY(mu_);
  TimePoint activation_due_ GUARDED_BY(mu_);  // meaningful while next_ is set
  // The signing keys made so far for current_ and next_ (at most those two:
  // a key that is neither is dropped at the next SigningKeyOf).
  mutable std::vector<SigningKey> signing_keys_ GUARDED_BY(mu_);
};

}  // namespace spindle::rm
