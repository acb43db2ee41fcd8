// SignerSecrets: where the key that signs `hadoop.auth` cookies comes from,
// as hadoop-auth 3.3's SignerSecretProviders give it
// (hadoop.http.authentication.signer.secret.provider):
//   - file: the bytes of hadoop.http.authentication.signature.secret.file
//     (read as UTF-8 text, as FileSignerSecretProvider reads it), one
//     secret for the server's life; what several RMs behind one address
//     share so a cookie from one is good at the other;
//   - random: 32 bytes from the CSPRNG, rolled every token validity, the
//     previous one still accepted (RandomSignerSecretProvider over
//     RolloverSignerSecretProvider). Spindle rolls lazily, on the first use
//     after each period, with the injected clock, instead of on a timer
//     thread: the secrets in force at any time are the same.
//
// Thread-safety: Current() and All() from any thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"

namespace spindle::web::auth {

class SignerSecrets {
 public:
  virtual ~SignerSecrets() = default;
  // The secret new signatures use.
  virtual std::string Current() const = 0;
  // Every secret a signature may have been made with (the current first).
  virtual std::vector<std::string> All() const = 0;
};

// IoError "Could not read signature secret file: <path>"; InvalidArgument
// for an empty file (Java's HMAC would refuse the empty key on every
// request; Spindle refuses it once, at start).
Result<std::unique_ptr<SignerSecrets>> FileSignerSecrets(const std::string& path);

// Rolls every `period` on `clock` (which must outlive the result).
class RandomSignerSecrets final : public SignerSecrets {
 public:
  RandomSignerSecrets(const Clock* clock, Duration period);
  std::string Current() const override;
  std::vector<std::string> All() const override;

 private:
  void RollIfDue() const REQUIRES(mu_);

  const Clock* const clock_;
  const Duration period_;
  mutable Mutex mu_;
  mutable TimePoint next_roll_ GUARDED_BY(mu_);
  mutable std::string current_ GUARDED_BY(mu_);
  mutable std::string previous_ GUARDED_BY(mu_);
};

}  // namespace spindle::web::auth
