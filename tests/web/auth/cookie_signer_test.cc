// The hadoop.auth cookie's signature (hadoop-auth 3.3's Signer: HMAC-SHA256,
// Base64) and the secrets behind it.
#include "web/auth/cookie_signer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace spindle::web::auth {
namespace {

using namespace std::chrono_literals;

class FixedForTest final : public SignerSecrets {
 public:
  explicit FixedForTest(std::vector<std::string> secrets) : secrets_(std::move(secrets)) {}
  std::string Current() const override { return secrets_.front(); }
  std::vector<std::string> All() const override { return secrets_; }

 private:
  std::vector<std::string> secrets_;
};

TEST(CookieSignerTest, SignatureIsBase64OfHmacSha256) {
  // RFC 4231 test case 2.
  EXPECT_EQ(CookieSigner::Signature("Jefe", "what do ya want for nothing?"),
            "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=");
}

TEST(CookieSignerTest, SignsAndVerifies) {
  CookieSigner signer(std::make_unique<FixedForTest>(std::vector<std::string>{"secret"}));
  const std::string text = "u=alice&p=alice@R&t=kerberos&e=5";
  const std::string signed_text = signer.Sign(text);
  EXPECT_EQ(signed_text, text + "&s=" + CookieSigner::Signature("secret", text));
  Result<std::string> back = signer.VerifyAndExtract(signed_text);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, text);
}

TEST(CookieSignerTest, RefusesTamperedOrUnsignedText) {
  CookieSigner signer(std::make_unique<FixedForTest>(std::vector<std::string>{"secret"}));
  std::string signed_text = signer.Sign("u=alice&p=alice&t=simple&e=5");
  std::string tampered = signed_text;
  tampered[2] = 'm';  // u=mlice
  EXPECT_EQ(signer.VerifyAndExtract(tampered).status().message(), "Invalid signature");
  tampered = signed_text;
  tampered.back() = tampered.back() == 'A' ? 'B' : 'A';
  EXPECT_EQ(signer.VerifyAndExtract(tampered).status().message(), "Invalid signature");
  EXPECT_EQ(signer.VerifyAndExtract("u=alice").status().message(), "Invalid signed text: u=alice");
  CookieSigner other(std::make_unique<FixedForTest>(std::vector<std::string>{"other"}));
  EXPECT_FALSE(other.VerifyAndExtract(signed_text).ok());
}

TEST(CookieSignerTest, AnySecretInForceVerifies) {
  CookieSigner old_signer(std::make_unique<FixedForTest>(std::vector<std::string>{"old"}));
  CookieSigner signer(std::make_unique<FixedForTest>(std::vector<std::string>{"new", "old"}));
  EXPECT_TRUE(signer.VerifyAndExtract(old_signer.Sign("u=a&p=a&t=simple&e=1")).ok());
}

TEST(RandomSignerSecretsTest, RollsEveryPeriodKeepingThePreviousSecret) {
  ManualClock clock;
  RandomSignerSecrets secrets(&clock, 10s);
  const std::string first = secrets.Current();
  EXPECT_EQ(first.size(), 32u);
  EXPECT_EQ(secrets.All(), std::vector<std::string>{first});
  clock.Advance(9s);
  EXPECT_EQ(secrets.Current(), first);
  clock.Advance(1s);
  const std::string second = secrets.Current();
  EXPECT_NE(second, first);
  EXPECT_EQ(secrets.All(), (std::vector<std::string>{second, first}));
  // Two more periods: both secrets the timer would have rolled out are gone.
  clock.Advance(25s);
  const std::vector<std::string> now = secrets.All();
  ASSERT_EQ(now.size(), 2u);
  EXPECT_NE(now[0], second);
  EXPECT_NE(now[1], second);
  EXPECT_NE(now[1], first);
}

TEST(FileSignerSecretsTest, ReadsTheFileWhole) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("spindle-secret-" + std::to_string(getpid()));
  std::ofstream(path) << "shared secret\n";
  Result<std::unique_ptr<SignerSecrets>> secrets = FileSignerSecrets(path.string());
  ASSERT_TRUE(secrets.ok()) << secrets.status().ToString();
  EXPECT_EQ((*secrets)->Current(), "shared secret\n");
  std::ofstream(path, std::ios::trunc).close();
  EXPECT_EQ(FileSignerSecrets(path.string()).status().code(), Status::Code::kInvalidArgument);
  std::filesystem::remove(path);
  Result<std::unique_ptr<SignerSecrets>> missing = FileSignerSecrets(path.string());
  EXPECT_EQ(missing.status().message(), "Could not read signature secret file: " + path.string());
}

}  // namespace
}  // namespace spindle::web::auth
