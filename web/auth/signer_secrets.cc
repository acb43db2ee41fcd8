#include "web/auth/signer_secrets.h"

#include <fstream>
#include <sstream>

#include "base/crypto.h"

namespace spindle::web::auth {
namespace {

// RandomSignerSecretProvider's secret size: 256 bits.
constexpr size_t kRandomSecretBytes = 32;

class FixedSecret final : public SignerSecrets {
 public:
  explicit FixedSecret(std::string secret) : secret_(std::move(secret)) {}
  std::string Current() const override { return secret_; }
  std::vector<std::string> All() const override { return {secret_}; }

 private:
  const std::string secret_;
};

}  // namespace

Result<std::unique_ptr<SignerSecrets>> FileSignerSecrets(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) return Status::IoError("Could not read signature secret file: " + path);
  std::stringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return Status::IoError("Could not read signature secret file: " + path);
  std::string secret = bytes.str();
  if (secret.empty()) {
    return Status::InvalidArgument("the signature secret file " + path + " is empty");
  }
  return std::unique_ptr<SignerSecrets>(new FixedSecret(std::move(secret)));
}

RandomSignerSecrets::RandomSignerSecrets(const Clock* clock, Duration period)
    : clock_(clock),
      period_(period),
      next_roll_(clock->Now() + period),
      current_(SecureRandomBytes(kRandomSecretBytes)) {}

void RandomSignerSecrets::RollIfDue() const {
  const TimePoint now = clock_->Now();
  if (now < next_roll_) return;
  // One period passed: the current secret becomes the previous one. More
  // than one: the timer would have rolled that one out as well.
  previous_ = now < next_roll_ + period_ ? current_ : SecureRandomBytes(kRandomSecretBytes);
  current_ = SecureRandomBytes(kRandomSecretBytes);
  const auto periods = (now - next_roll_) / period_ + 1;
  next_roll_ += periods * period_;
}

std::string RandomSignerSecrets::Current() const {
  MutexLock lock(&mu_);
  RollIfDue();
  return current_;
}

std::vector<std::string> RandomSignerSecrets::All() const {
  MutexLock lock(&mu_);
  RollIfDue();
  std::vector<std::string> all{current_};
  if (!previous_.empty()) all.push_back(previous_);
  return all;
}

}  // namespace spindle::web::auth
