// RpcClient <-> RpcServer over loopback with KERBEROS (SASL GSSAPI) against a
// real MIT KDC (tests/support/mini_kdc).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "security/auth_to_local.h"
#include "security/kerberos_credentials.h"
#include "tests/support/mini_kdc.h"
#include "tests/wire/ipc/fake_token_secrets.h"
#include "tests/wire/ipc/metrics_method.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/rpc_client.h"
#include "wire/ipc/rpc_server.h"

namespace spindle::ipc {
namespace {

constexpr char kAcp[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";

class KerberosLoopbackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("spindle-krbrpc-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    Result<std::unique_ptr<spindle::testing::MiniKdc>> kdc =
        spindle::testing::MiniKdc::StartFresh(dir_.string());
    ASSERT_TRUE(kdc.ok()) << kdc.status().ToString();
    kdc_ = std::move(kdc).value();
    for (const char* principal : {"rm/127.0.0.1", "nm/nm1.spindle.test", "stranger"}) {
      ASSERT_TRUE(kdc_->AddPrincipal(principal).ok());
    }
    // Exporting again gives the principal a new key: the first keytab is stale.
    ASSERT_TRUE(kdc_->ExportKeytab({"rm/127.0.0.1"}, path("stale-rm.keytab")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"rm/127.0.0.1"}, path("rm.keytab")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"nm/nm1.spindle.test"}, path("nm.keytab")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"stranger"}, path("stranger.keytab")).ok());

    // nm/* maps to "yarn"; plain users of the realm to themselves; nobody else.
    Result<security::AuthToLocal> rules = security::AuthToLocal::Parse(
        "RULE:[2:$1@$0](nm@SPINDLE\\.TEST)s/.*/yarn/ RULE:[1:$1@$0](alice@.*)s/@.*//",
        security::RuleMechanism::kHadoop, "SPINDLE.TEST");
    ASSERT_TRUE(rules.ok()) << rules.status().ToString();
    rules_ = std::make_unique<security::AuthToLocal>(std::move(rules).value());
    acceptor_.principal = "rm/127.0.0.1@SPINDLE.TEST";
    acceptor_.keytab = path("rm.keytab");
    acceptor_.short_name = [this](const std::string& principal) {
      return rules_->ShortName(principal);
    };
    RpcServerOptions options;
    options.session.simple_enabled = false;
    options.session.token_provider = &secrets_;
    options.session.kerberos = &acceptor_;
    StartServer(options);
  }
  void TearDown() override {
    if (server_) server_->Stop();
    kdc_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  void StartServer(const RpcServerOptions& options) {
    if (server_) server_->Stop();
    auto registry = std::make_shared<ServiceRegistry>();
    registry->Add(metrics_.NewService(kAcp));
    server_ = std::make_unique<RpcServer>(options, registry);
    ASSERT_TRUE(server_->Start().ok());
  }

  std::unique_ptr<security::KerberosCredentials> Login(const std::string& principal,
                                                       const std::string& keytab) {
    Result<std::unique_ptr<security::KerberosCredentials>> login =
        security::KerberosCredentials::LoginFromKeytab(principal, path(keytab));
    EXPECT_TRUE(login.ok()) << login.status().ToString();
    return login.ok() ? std::move(login).value() : nullptr;
  }

  ConnectionSpec Spec(const security::KerberosCredentials* credentials) {
    ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = server_->port();
    spec.protocol = kAcp;
    spec.user = "claimed-user";
    if (credentials != nullptr) spec.kerberos = ClientKerberos{credentials->cache_name()};
    return spec;
  }

  Status Metrics(const ConnectionSpec& spec, SaslQops qops = {SaslQop::kAuth}) {
    RpcClientOptions options;
    options.qops = std::move(qops);
    RpcClient client(options);
    return testing::CallMetrics(client, spec);
  }

  std::filesystem::path dir_;
  std::unique_ptr<spindle::testing::MiniKdc> kdc_;
  std::unique_ptr<security::AuthToLocal> rules_;
  KerberosAcceptor acceptor_;
  testing::FakeTokenSecrets secrets_;
  testing::MetricsMethod metrics_;
  std::unique_ptr<RpcServer> server_;
};

TEST_F(KerberosLoopbackTest, AKerberosCallerRunsAsItsAuthToLocalShortName) {
  auto nm = Login("nm/nm1.spindle.test", "nm.keytab");
  ASSERT_NE(nm, nullptr);
  Status s = Metrics(Spec(nm.get()));
  ASSERT_TRUE(s.ok()) << s.ToString();
  const ConnectionIdentity last = metrics_.last();
  EXPECT_EQ(last.auth_method, AuthMethod::kKerberos);
  EXPECT_EQ(last.user, "yarn");
  EXPECT_EQ(last.kerberos_principal, "nm/nm1.spindle.test@SPINDLE.TEST");
}

// Hadoop 3.3's Server: "SIMPLE authentication is not enabled.  Available:"
// followed by its enabled auth methods, TOKEN first.
TEST_F(KerberosLoopbackTest, ASimpleCallerIsRefusedInHadoopsWords) {
  Status s = Metrics(Spec(nullptr));
  ASSERT_TRUE(s.IsUnauthorized()) << s.ToString();
  EXPECT_EQ(s.java_class(), java::kAccessControl);
  EXPECT_EQ(s.message(), "SIMPLE authentication is not enabled.  Available:[TOKEN, KERBEROS]");
}

// An authenticated principal that no auth_to_local rule maps is refused.
TEST_F(KerberosLoopbackTest, APrincipalWithoutAShortNameIsRefused) {
  auto stranger = Login("stranger", "stranger.keytab");
  ASSERT_NE(stranger, nullptr);
  Status s = Metrics(Spec(stranger.get()));
  ASSERT_TRUE(s.IsUnauthorized()) << s.ToString();
  EXPECT_EQ(s.java_class(), java::kAccessControl);
  EXPECT_EQ(s.message(), "No rules applied to stranger@SPINDLE.TEST");
}

// A server whose keytab holds an old key of its principal cannot accept
// anyone: the client's ticket for rm/127.0.0.1 does not decrypt.
TEST_F(KerberosLoopbackTest, AServerWithTheWrongKeyRefusesTheTicket) {
  KerberosAcceptor wrong = acceptor_;
  wrong.keytab = path("stale-rm.keytab");
  RpcServerOptions options;
  options.session.simple_enabled = false;
  options.session.kerberos = &wrong;
  StartServer(options);
  auto nm = Login("nm/nm1.spindle.test", "nm.keytab");
  ASSERT_NE(nm, nullptr);
  Status s = Metrics(Spec(nm.get()));
  ASSERT_TRUE(s.IsUnauthorized()) << s.ToString();
  EXPECT_EQ(s.java_class(), java::kSaslException);
  EXPECT_EQ(s.message().rfind("GSS initiate failed", 0), 0u) << s.message();
  server_->Stop();
  server_.reset();
}

// A caller whose ticket has expired cannot authenticate, and the server
// goes on serving callers with current tickets. (The client cannot even
// build an initiation from an expired ticket; the acceptor's own check of a
// late one is GssapiTicketExpiryTest.)
TEST_F(KerberosLoopbackTest, ACallerWhoseTicketExpiredIsRefusedAndOthersAreServed) {
  const std::string cache = path("nm-short.ccache");
  ASSERT_TRUE(kdc_->KinitFromKeytab("nm/nm1.spindle.test", path("nm.keytab"), cache,
                                    std::chrono::seconds(3))
                  .ok());
  ConnectionSpec spec = Spec(nullptr);
  spec.kerberos = ClientKerberos{"FILE:" + cache};
  Status valid = Metrics(spec);
  ASSERT_TRUE(valid.ok()) << valid.ToString();
  std::this_thread::sleep_for(std::chrono::seconds(4));
  Status expired = Metrics(spec);
  ASSERT_TRUE(expired.IsUnauthorized()) << expired.ToString();
  EXPECT_EQ(expired.java_class(), java::kSaslException);
  EXPECT_EQ(expired.message().rfind("GSS initiate failed [Caused by ", 0), 0u) << expired.message();
  EXPECT_NE(expired.message().find("expired"), std::string::npos) << expired.message();

  auto nm = Login("nm/nm1.spindle.test", "nm.keytab");
  ASSERT_NE(nm, nullptr);
  Status served = Metrics(Spec(nm.get()));
  EXPECT_TRUE(served.ok()) << served.ToString();
}

// Java's client configured for Kerberos will not fall back to SIMPLE.
TEST_F(KerberosLoopbackTest, AKerberosClientDoesNotFallBackToSimple) {
  StartServer(RpcServerOptions{});
  auto nm = Login("nm/nm1.spindle.test", "nm.keytab");
  ASSERT_NE(nm, nullptr);
  Status s = Metrics(Spec(nm.get()));
  ASSERT_TRUE(s.IsUnauthorized()) << s.ToString();
  EXPECT_EQ(s.java_class(), java::kAccessControl);
  EXPECT_EQ(s.message(),
            "Server asks us to fall back to SIMPLE auth, but this client is configured to only "
            "allow secure connections.");
}

// hadoop.rpc.protection integrity and privacy over KERBEROS: the calls run
// wrapped with the GSS-API layer the client chose from the server's offer.
TEST_F(KerberosLoopbackTest, KerberosCallsRunAtIntegrityAndPrivacy) {
  RpcServerOptions options;
  options.session.simple_enabled = false;
  options.session.kerberos = &acceptor_;
  options.session.qops = {SaslQop::kAuthInt, SaslQop::kAuthConf};
  StartServer(options);
  auto nm = Login("nm/nm1.spindle.test", "nm.keytab");
  ASSERT_NE(nm, nullptr);
  for (SaslQop qop : {SaslQop::kAuthConf, SaslQop::kAuthInt}) {
    Status s = Metrics(Spec(nm.get()), {qop});
    ASSERT_TRUE(s.ok()) << s.ToString();
    const ConnectionIdentity last = metrics_.last();
    EXPECT_EQ(last.qop, qop);
    EXPECT_EQ(last.user, "yarn");
  }
  // A client that will only take authentication finds nothing in common.
  Status refused = Metrics(Spec(nm.get()));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("No common protection layer"), std::string::npos)
      << refused.ToString();
  EXPECT_EQ(refused.java_class(), java::kSaslException);
}

}  // namespace
}  // namespace spindle::ipc
