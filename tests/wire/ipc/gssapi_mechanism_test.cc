#include "wire/ipc/gssapi_mechanism.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "security/kerberos_credentials.h"
#include "tests/support/mini_kdc.h"

namespace spindle::ipc {
namespace {

constexpr char kServerHost[] = "rm1.spindle.test";

class GssapiMechanismTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("spindle-gss-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    testing::MiniKdcOptions kdc_options;
    kdc_options.work_dir = dir_.string();
    kdc_options.clockskew_seconds = clockskew_seconds_;
    Result<std::unique_ptr<testing::MiniKdc>> kdc = testing::MiniKdc::StartFresh(kdc_options);
    ASSERT_TRUE(kdc.ok()) << kdc.status().ToString();
    kdc_ = std::move(kdc).value();
    for (const char* principal :
         {"rm/rm1.spindle.test", "rm/rm2.spindle.test", "nm/nm1.spindle.test"}) {
      ASSERT_TRUE(kdc_->AddPrincipal(principal).ok());
    }
    ASSERT_TRUE(kdc_->ExportKeytab({"rm/rm1.spindle.test"}, path("rm1.keytab")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"rm/rm2.spindle.test"}, path("rm2.keytab")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"nm/nm1.spindle.test"}, path("nm.keytab")).ok());
    Result<std::unique_ptr<security::KerberosCredentials>> nm =
        security::KerberosCredentials::LoginFromKeytab("nm/nm1.spindle.test", path("nm.keytab"));
    ASSERT_TRUE(nm.ok()) << nm.status().ToString();
    nm_ = std::move(nm).value();
  }
  void TearDown() override {
    nm_.reset();
    kdc_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::unique_ptr<GssapiServer> Server(const std::string& keytab = "rm1.keytab",
                                       SaslQops qops = {SaslQop::kAuth}) {
    Result<std::unique_ptr<GssapiServer>> server =
        GssapiServer::Create({"rm/rm1.spindle.test@SPINDLE.TEST", path(keytab)}, qops);
    EXPECT_TRUE(server.ok()) << server.status().ToString();
    return server.ok() ? std::move(server).value() : nullptr;
  }
  std::unique_ptr<GssapiClient> Client(const std::string& host = kServerHost,
                                       SaslQops qops = {SaslQop::kAuth}) {
    Result<std::unique_ptr<GssapiClient>> client =
        GssapiClient::Create({nm_->cache_name()}, "rm", host, qops);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return client.ok() ? std::move(client).value() : nullptr;
  }

  // Runs the exchange to its end; the first failure's status, if any.
  static Status Exchange(GssapiServer* server, GssapiClient* client) {
    ASSIGN_OR_RETURN(std::string to_server, client->Start());
    for (int round = 0; round < 6; ++round) {
      ASSIGN_OR_RETURN(std::optional<std::string> challenge, server->Step(to_server));
      if (!challenge.has_value()) return Status::OK();
      ASSIGN_OR_RETURN(to_server, client->Step(*challenge));
    }
    return Status::Internal("the exchange did not end");
  }

  std::filesystem::path dir_;
  // The realm's allowed clock skew (MiniKdcOptions); 0: MIT's 300 s.
  int clockskew_seconds_ = 0;
  std::unique_ptr<testing::MiniKdc> kdc_;
  std::unique_ptr<security::KerberosCredentials> nm_;
};

// The whole RFC 4752 exchange, message by message, as Hadoop's IPC carries it.
TEST_F(GssapiMechanismTest, ClientAndServerAgreeOnNoSecurityLayer) {
  auto server = Server();
  auto client = Client();
  ASSERT_TRUE(server && client);
  Result<std::string> initiate = client->Start();
  ASSERT_TRUE(initiate.ok()) << initiate.status().ToString();
  ASSERT_FALSE(initiate->empty());
  std::string to_server = *initiate;
  int rounds = 0;
  while (true) {
    ASSERT_LT(++rounds, 6);
    Result<std::optional<std::string>> challenge = server->Step(to_server);
    ASSERT_TRUE(challenge.ok()) << challenge.status().ToString();
    if (!challenge->has_value()) break;
    Result<std::string> response = client->Step(**challenge);
    ASSERT_TRUE(response.ok()) << response.status().ToString();
    to_server = *response;
  }
  EXPECT_TRUE(server->complete());
  EXPECT_TRUE(client->complete());
  EXPECT_EQ(server->client_principal(), "nm/nm1.spindle.test@SPINDLE.TEST");
  // AP-REQ -> AP-REP, "" -> offer, choice -> SUCCESS.
  EXPECT_EQ(rounds, 3);
  EXPECT_FALSE(server->Step("").ok());
}

// A client that asks for a principal the KDC does not know is refused by
// the KDC before any byte reaches the server.
TEST_F(GssapiMechanismTest, AnUnknownServerPrincipalFailsAtTheClient) {
  auto client = Client("no-such-host.spindle.test");
  ASSERT_TRUE(client);
  Result<std::string> initiate = client->Start();
  ASSERT_FALSE(initiate.ok());
  EXPECT_NE(initiate.status().message().find("not found in Kerberos database"), std::string::npos)
      << initiate.status().message();
}

// A ticket for another service (rm2) is refused by rm1's server.
TEST_F(GssapiMechanismTest, ATicketForAnotherPrincipalIsRefused) {
  auto server = Server();
  auto client = Client("rm2.spindle.test");
  ASSERT_TRUE(server && client);
  Result<std::string> initiate = client->Start();
  ASSERT_TRUE(initiate.ok()) << initiate.status().ToString();
  Result<std::optional<std::string>> challenge = server->Step(*initiate);
  ASSERT_FALSE(challenge.ok());
  EXPECT_EQ(challenge.status().code(), Status::Code::kUnauthorized);
  EXPECT_FALSE(server->complete());
}

// The same authenticator twice: the acceptor's replay cache refuses it.
TEST_F(GssapiMechanismTest, AReplayedAuthenticatorIsRefused) {
  auto first = Server();
  auto second = Server();
  auto client = Client();
  ASSERT_TRUE(first && second && client);
  Result<std::string> initiate = client->Start();
  ASSERT_TRUE(initiate.ok());
  ASSERT_TRUE(first->Step(*initiate).ok());
  Result<std::optional<std::string>> replayed = second->Step(*initiate);
  ASSERT_FALSE(replayed.ok());
  EXPECT_NE(replayed.status().message().find("replay"), std::string::npos)
      << replayed.status().message();
}

// A ticket is good until its end time, give or take the allowed clock skew
// (1 s in this realm; MIT's default 5 minutes would make the test wait
// that long). An initiation made while the caller's ticket was valid and
// presented after the ticket ended is refused, as Java's acceptor refuses
// an expired ticket; the same ticket was accepted while it was valid.
class GssapiTicketExpiryTest : public GssapiMechanismTest {
 protected:
  GssapiTicketExpiryTest() { clockskew_seconds_ = 1; }
};

TEST_F(GssapiTicketExpiryTest, AnInitiationPresentedAfterItsTicketEndedIsRefused) {
  const std::string cache = path("nm-short.ccache");
  ASSERT_TRUE(kdc_->KinitFromKeytab("nm/nm1.spindle.test", path("nm.keytab"), cache,
                                    std::chrono::seconds(3))
                  .ok());
  auto from_short_ticket = [&]() {
    Result<std::unique_ptr<GssapiClient>> client =
        GssapiClient::Create({"FILE:" + cache}, "rm", kServerHost, {SaslQop::kAuth});
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return client.ok() ? std::move(client).value() : nullptr;
  };
  auto valid = from_short_ticket();
  auto accepting = Server();
  ASSERT_TRUE(valid && accepting);
  Status accepted = Exchange(accepting.get(), valid.get());
  ASSERT_TRUE(accepted.ok()) << accepted.ToString();

  auto late = from_short_ticket();
  ASSERT_TRUE(late);
  Result<std::string> initiate = late->Start();
  ASSERT_TRUE(initiate.ok()) << initiate.status().ToString();
  std::this_thread::sleep_for(std::chrono::seconds(5));  // past the end and the skew
  auto refusing = Server();
  ASSERT_TRUE(refusing);
  Result<std::optional<std::string>> answer = refusing->Step(*initiate);
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.status().code(), Status::Code::kUnauthorized) << answer.status().ToString();
  EXPECT_FALSE(refusing->complete());
  EXPECT_NE(answer.status().message().find("Ticket expired"), std::string::npos)
      << answer.status().message();

  // The acceptor is unharmed: a caller with a current ticket still gets in.
  auto current = Client();
  auto fresh = Server();
  ASSERT_TRUE(current && fresh);
  EXPECT_TRUE(Exchange(fresh.get(), current.get()).ok());
}

// Malformed tokens at every stage are refused, never crash, and leave the
// server failed.
TEST_F(GssapiMechanismTest, MalformedTokensAreRefusedAtEveryStage) {
  for (const std::string& junk :
       {std::string(), std::string("\x60", 1), std::string("\x60\x82\xff\xff", 4),
        std::string(300, '\x01'), std::string("not a kerberos token")}) {
    auto server = Server();
    ASSERT_TRUE(server);
    EXPECT_FALSE(server->Step(junk).ok());
    EXPECT_FALSE(server->Step(junk).ok()) << "a failed server stays failed";
  }
  // A valid context, then junk where the empty answer and the layer choice go.
  auto server = Server();
  auto client = Client();
  ASSERT_TRUE(server && client);
  Result<std::string> initiate = client->Start();
  ASSERT_TRUE(initiate.ok());
  Result<std::optional<std::string>> rep = server->Step(*initiate);
  ASSERT_TRUE(rep.ok() && rep->has_value());
  EXPECT_FALSE(server->Step("unexpected").ok());

  auto server2 = Server();
  auto client2 = Client();
  ASSERT_TRUE(server2 && client2);
  initiate = client2->Start();
  ASSERT_TRUE(initiate.ok());
  rep = server2->Step(*initiate);
  ASSERT_TRUE(rep.ok() && rep->has_value());
  ASSERT_TRUE(client2->Step(**rep).ok());
  Result<std::optional<std::string>> offer = server2->Step("");
  ASSERT_TRUE(offer.ok() && offer->has_value());
  std::string tampered = **offer;
  // The client refuses a tampered offer; the server a tampered choice.
  tampered[tampered.size() - 1] ^= 0x55;
  EXPECT_FALSE(client2->Step(tampered).ok());
  EXPECT_FALSE(server2->Step("garbage choice").ok());
  EXPECT_FALSE(server2->complete());
}

// RFC 4752's security layer: the client takes the first of its preferences
// the server offers, and both wrap with it (gss_wrap, conf_req for privacy).
TEST_F(GssapiMechanismTest, IntegrityAndPrivacyLayersWrapBothWays) {
  for (SaslQop qop : {SaslQop::kAuthInt, SaslQop::kAuthConf}) {
    auto server = Server("rm1.keytab", {SaslQop::kAuth, SaslQop::kAuthInt, SaslQop::kAuthConf});
    auto client = Client(kServerHost, {qop, SaslQop::kAuth});
    ASSERT_TRUE(server && client);
    Status exchanged = Exchange(server.get(), client.get());
    ASSERT_TRUE(exchanged.ok()) << exchanged.ToString();
    EXPECT_EQ(server->negotiated_qop(), qop);
    EXPECT_EQ(client->negotiated_qop(), qop);
    std::unique_ptr<SaslSecurityLayer> server_layer = server->TakeSecurityLayer();
    std::unique_ptr<SaslSecurityLayer> client_layer = client->TakeSecurityLayer();
    ASSERT_TRUE(server_layer && client_layer);
    EXPECT_GT(client_layer->max_send_size(), 60000u);
    EXPECT_LT(client_layer->max_send_size(), kGssapiMaxBuffer);
    const std::string request = "a call frame: the secret is 42";
    for (int i = 0; i < 3; ++i) {
      Result<std::string> wrapped = client_layer->Wrap(request);
      ASSERT_TRUE(wrapped.ok()) << wrapped.status().ToString();
      // Privacy hides the bytes; integrity leaves them readable.
      EXPECT_EQ(wrapped->find("secret") != std::string::npos, qop == SaslQop::kAuthInt);
      Result<std::string> unwrapped = server_layer->Unwrap(*wrapped);
      ASSERT_TRUE(unwrapped.ok()) << unwrapped.status().ToString();
      EXPECT_EQ(*unwrapped, request);
      Result<std::string> answer = server_layer->Wrap("answer " + std::to_string(i));
      ASSERT_TRUE(answer.ok());
      Result<std::string> read = client_layer->Unwrap(*answer);
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      EXPECT_EQ(*read, "answer " + std::to_string(i));
    }
  }
}

// A tampered token, a replayed one and one from another direction are
// refused (gss_unwrap's checks and Java's checkMessageProp).
TEST_F(GssapiMechanismTest, TamperedAndReplayedWrappedTokensAreRefused) {
  for (SaslQop qop : {SaslQop::kAuthInt, SaslQop::kAuthConf}) {
    auto server = Server("rm1.keytab", {qop});
    auto client = Client(kServerHost, {qop});
    ASSERT_TRUE(server && client);
    ASSERT_TRUE(Exchange(server.get(), client.get()).ok());
    std::unique_ptr<SaslSecurityLayer> server_layer = server->TakeSecurityLayer();
    std::unique_ptr<SaslSecurityLayer> client_layer = client->TakeSecurityLayer();
    ASSERT_TRUE(server_layer && client_layer);
    Result<std::string> first = client_layer->Wrap("first");
    ASSERT_TRUE(first.ok());
    std::string tampered = *first;
    tampered[tampered.size() - 3] = static_cast<char>(tampered[tampered.size() - 3] ^ 0x04);
    EXPECT_TRUE(server_layer->Unwrap(tampered).status().IsUnauthorized());
    ASSERT_TRUE(server_layer->Unwrap(*first).ok());
    Result<std::string> replay = server_layer->Unwrap(*first);
    EXPECT_TRUE(replay.status().IsUnauthorized()) << "a replayed token was taken";
    Result<std::string> own = server_layer->Wrap("server's own");
    ASSERT_TRUE(own.ok());
    EXPECT_FALSE(server_layer->Unwrap(*own).ok()) << "a reflected token was taken";
  }
}

// A client that accepts only privacy and a server that allows only
// authentication: "No common protection layer", no downgrade.
TEST_F(GssapiMechanismTest, NoCommonLayerIsRefused) {
  auto server = Server("rm1.keytab", {SaslQop::kAuth});
  auto client = Client(kServerHost, {SaslQop::kAuthConf});
  ASSERT_TRUE(server && client);
  Status exchanged = Exchange(server.get(), client.get());
  ASSERT_FALSE(exchanged.ok());
  EXPECT_NE(exchanged.message().find("No common protection layer"), std::string::npos)
      << exchanged.ToString();
}

}  // namespace
}  // namespace spindle::ipc
