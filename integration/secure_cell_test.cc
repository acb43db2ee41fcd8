// A secure cell: a real MIT KDC (tests/support/mini_kdc), `spindle rm` and
// `spindle nm` logged in from their keytabs with
// hadoop.security.authentication=kerberos, and `spindle shell` submitting
// as a Kerberos user. The application must succeed over KERBEROS (8031,
// 8032) and TOKEN (8030, the NMs); a SIMPLE caller and a principal that
// auth_to_local does not map are refused in Hadoop's words; an NM whose
// keytab lacks its principal does not start. With hadoop.rpc.protection
// integrity and privacy (every daemon and client configured so) the
// application succeeds over wrapped RPC, a tampered wrapped frame closes its
// connection with javax.security.sasl.SaslException while the RM serves
// everyone else, and a client that will not wrap is refused. On each of the
// four RPC ports and each server setting (the three levels and a list) a
// client of each level is served when the server offers its level and
// otherwise refuses with javax.security.sasl.SaslException. With
// hadoop.security.authorization and hadoop-policy.xml: a forged NM (a
// principal outside the ResourceTracker ACL) is refused until
// rmadmin -refreshServiceAcl lets it in; an impersonation without
// proxy-user rules is refused, one the rules allow goes through; an RM
// delegation token renewed by a non-renewer is refused, and a client holding
// only the token can call the RM but not mint tokens with it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "integration/cell_support.h"
#include "integration/wait_for.h"
#include "security.pb.h"
#include "security/kerberos_credentials.h"
#include "tests/support/mini_kdc.h"
#include "tests/wire/ipc/raw_sasl_client.h"
#include "wire/ipc/error_mapping.h"
#include "wire/ipc/rpc_client.h"
#include "yarn_server_common_service_protos.pb.h"
#include "yarn_server_resourcemanager_service_protos.pb.h"
#include "yarn_service_protos.pb.h"

namespace spindle {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr char kRealm[] = "SPINDLE.TEST";

void WriteXml(const fs::path& path, const std::map<std::string, std::string>& properties) {
  fs::create_directories(path.parent_path());
  cell::WriteSite(path.string(), properties);
}

std::map<std::string, std::string> ReadPorts(const std::string& path) {
  std::map<std::string, std::string> ports;
  for (const std::string& line : cell::Lines(path)) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) ports[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return ports;
}

class SecureCellTest : public ::testing::Test {
 protected:
  // hadoop.rpc.protection of every daemon and client in the cell.
  virtual std::string Protection() const { return "authentication"; }

  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("spindle-secure-cell-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    Result<std::unique_ptr<testing::MiniKdc>> kdc =
        testing::MiniKdc::StartFresh((dir_ / "kdc").string());
    ASSERT_TRUE(kdc.ok()) << kdc.status().ToString();
    kdc_ = std::move(kdc).value();
    for (const char* principal : {"rm/127.0.0.1", "nm/nm1.spindle.test", "nm/other.spindle.test",
                                  "alice", "bob", "stranger"}) {
      ASSERT_TRUE(kdc_->AddPrincipal(principal).ok()) << principal;
    }
    ASSERT_TRUE(kdc_->ExportKeytab({"rm/127.0.0.1"}, keytab("rm")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"nm/nm1.spindle.test"}, keytab("nm")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"alice"}, keytab("alice")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"stranger"}, keytab("stranger")).ok());
    ASSERT_TRUE(kdc_->ExportKeytab({"bob"}, keytab("bob")).ok());

    // Every daemon and client reads core-site.xml's authentication.
    const std::map<std::string, std::string> core = {{"hadoop.security.authentication", "kerberos"},
                                                     {"hadoop.rpc.protection", Protection()},
                                                     // nm/* runs as "yarn", alice and bob as
                                                     // themselves; anybody else has no name.
                                                     {"hadoop.security.auth_to_local",
                                                      "RULE:[2:$1@$0](nm@SPINDLE\\.TEST)s/.*/yarn/ "
                                                      "RULE:[1:$1@$0](alice@SPINDLE\\.TEST)s/@.*// "
                                                      "RULE:[1:$1@$0](bob@SPINDLE\\.TEST)s/@.*//"}};
    std::map<std::string, std::string> rm_core = core;
    // Service ACLs on; alice may act for carol from here, nobody else for anyone.
    rm_core["hadoop.security.authorization"] = "true";
    rm_core["hadoop.proxyuser.alice.users"] = "carol";
    rm_core["hadoop.proxyuser.alice.hosts"] = "127.0.0.1";
    WriteXml(dir_ / "rm-conf/core-site.xml", rm_core);
    // Only the NMs' user may speak ResourceTracker.
    WriteXml(dir_ / "rm-conf/hadoop-policy.xml",
             {{"security.resourcetracker.protocol.acl", "yarn"}});
    WriteXml(dir_ / "rm-conf/yarn-site.xml",
             {{"yarn.resourcemanager.address", "127.0.0.1:0"},
              {"yarn.resourcemanager.scheduler.address", "127.0.0.1:0"},
              {"yarn.resourcemanager.resource-tracker.address", "127.0.0.1:0"},
              {"yarn.resourcemanager.admin.address", "127.0.0.1:0"},
              {"yarn.resourcemanager.webapp.address", "127.0.0.1:0"},
              {"yarn.resourcemanager.principal", std::string("rm/_HOST@") + kRealm},
              {"yarn.resourcemanager.keytab", keytab("rm")},
              {"yarn.scheduler.minimum-allocation-mb", "64"},
              {"spindle.store.path", (dir_ / "rmstore").string()}});
    WriteXml(dir_ / "rm-conf/capacity-scheduler.xml",
             {{"yarn.scheduler.capacity.root.queues", "default"},
              {"yarn.scheduler.capacity.root.default.capacity", "100"}});
    rm_ = cell::Spawn({SPINDLE_BINARY, "rm", "--conf", (dir_ / "rm-conf").string(), "--ports-file",
                       (dir_ / "rm.ports").string()},
                      (dir_ / "rm.log").string());
    ASSERT_TRUE(WaitFor([&] { return ReadPorts((dir_ / "rm.ports").string()).size() >= 4; }, 60s))
        << cell::Tail((dir_ / "rm.log").string(), 30);
    ports_ = ReadPorts((dir_ / "rm.ports").string());
    ASSERT_TRUE(cell::ReadAll((dir_ / "rm.log").string())
                    .find("Login successful for user rm/127.0.0.1@SPINDLE.TEST") !=
                std::string::npos)
        << cell::Tail((dir_ / "rm.log").string(), 30);
  }
  void TearDown() override {
    for (ChildProcess* child : {&nm_, &rm_}) child->Stop(SIGTERM, 10s);
    kdc_.reset();
    if (!HasFailure()) fs::remove_all(dir_);
  }
  std::string keytab(const std::string& name) const { return (dir_ / (name + ".keytab")).string(); }
  uint16_t Port(const std::string& name) { return static_cast<uint16_t>(std::stoi(ports_[name])); }

  void WriteNmConf(const std::string& conf_dir, const std::string& principal) {
    WriteXml(dir_ / conf_dir / "core-site.xml", {{"hadoop.security.authentication", "kerberos"},
                                                 {"hadoop.rpc.protection", Protection()}});
    fs::create_directories(dir_ / "nm/local");
    fs::create_directories(dir_ / "nm/logs");
    WriteXml(dir_ / conf_dir / "yarn-site.xml",
             {{"yarn.resourcemanager.resource-tracker.address",
               "127.0.0.1:" + ports_["resource-tracker"]},
              {"yarn.nodemanager.hostname", "127.0.0.1"},
              {"yarn.nodemanager.address", "127.0.0.1:0"},
              {"yarn.nodemanager.webapp.address", "127.0.0.1:0"},
              {"yarn.nodemanager.resource.memory-mb", "2048"},
              {"yarn.nodemanager.resource.cpu-vcores", "4"},
              {"yarn.nodemanager.local-dirs", (dir_ / "nm/local").string()},
              {"yarn.nodemanager.log-dirs", (dir_ / "nm/logs").string()},
              {"yarn.nodemanager.principal", principal},
              {"yarn.nodemanager.keytab", keytab("nm")}});
  }

  // Runs `spindle shell` against the cell to its end with `auth` flags (a
  // principal and keytab, or none: the KRB5CCNAME of `env`); the
  // application must succeed.
  void ExpectShellSucceeds(const std::string& log, const std::vector<std::string>& auth,
                           int containers, const std::vector<std::string>& env = {}) {
    WriteXml(dir_ / "shell-conf/core-site.xml", {{"hadoop.security.authentication", "kerberos"},
                                                 {"hadoop.rpc.protection", Protection()}});
    std::vector<std::string> args = {SPINDLE_BINARY,
                                     "shell",
                                     "--conf",
                                     (dir_ / "shell-conf").string(),
                                     "--rm",
                                     "127.0.0.1:" + ports_["client"],
                                     "--rm-scheduler",
                                     "127.0.0.1:" + ports_["scheduler"],
                                     "--num-containers",
                                     std::to_string(containers),
                                     "--memory-mb",
                                     "128",
                                     "--am-memory-mb",
                                     "128",
                                     "--timeout-seconds",
                                     "150",
                                     "--command",
                                     "true"};
    args.insert(args.end(), auth.begin(), auth.end());
    const std::string log_path = (dir_ / log).string();
    ChildProcess shell = cell::Spawn(args, log_path, env);
    ASSERT_TRUE(shell.WaitExit(170s)) << cell::Tail(log_path, 30);
    EXPECT_TRUE(WIFEXITED(shell.wait_status()) && WEXITSTATUS(shell.wait_status()) == 0)
        << "shell:\n"
        << cell::Tail(log_path, 30) << "rm:\n"
        << cell::Tail((dir_ / "rm.log").string(), 30) << "nm:\n"
        << cell::Tail((dir_ / "nm.log").string(), 30);
    EXPECT_NE(cell::ReadAll(log_path).find("SUCCEEDED"), std::string::npos)
        << cell::Tail(log_path, 30);
  }

  Status ClusterMetrics(const std::optional<ipc::ClientKerberos>& kerberos,
                        ipc::SaslQops qops = {ipc::SaslQop::kAuth}) {
    ipc::RpcClientOptions options;
    options.qops = std::move(qops);
    ipc::RpcClient client(options);
    ipc::ConnectionSpec spec{
        "127.0.0.1", Port("client"), "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB",
        "mallory",   std::nullopt,   kerberos};
    hadoop::yarn::GetClusterMetricsRequestProto request;
    hadoop::yarn::GetClusterMetricsResponseProto response;
    return client.Call(spec, "getClusterMetrics", request, &response);
  }

  // A Kerberos log-in of one of the test's users.
  std::unique_ptr<security::KerberosCredentials> Login(const std::string& user) {
    Result<std::unique_ptr<security::KerberosCredentials>> login =
        security::KerberosCredentials::LoginFromKeytab(user, keytab(user));
    EXPECT_TRUE(login.ok()) << login.status().ToString();
    return login.ok() ? std::move(login).value() : nullptr;
  }
  ipc::ConnectionSpec Spec(const std::string& port, const std::string& protocol,
                           const security::KerberosCredentials* kerberos) {
    ipc::ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = Port(port);
    spec.protocol = protocol;
    spec.user = "mallory";
    if (kerberos != nullptr) spec.kerberos = ipc::ClientKerberos{kerberos->cache_name()};
    return spec;
  }
  // A heartbeat on the ResourceTracker port: what a forged NM would send.
  Status TrackerHeartbeat(const security::KerberosCredentials& who) {
    ipc::RpcClient client;
    hadoop::yarn::NodeHeartbeatRequestProto request;
    hadoop::yarn::NodeHeartbeatResponseProto response;
    return client.Call(
        Spec("resource-tracker", "org.apache.hadoop.yarn.server.api.ResourceTrackerPB", &who),
        "nodeHeartbeat", request, &response);
  }

  fs::path dir_;
  std::unique_ptr<testing::MiniKdc> kdc_;
  ChildProcess rm_;
  ChildProcess nm_;
  std::map<std::string, std::string> ports_;
};

TEST_F(SecureCellTest, AnApplicationSucceedsOverKerberosAndOthersAreRefused) {
  WriteNmConf("nm-conf", std::string("nm/nm1.spindle.test@") + kRealm);
  nm_ = cell::Spawn({SPINDLE_BINARY, "nm", "--conf", (dir_ / "nm-conf").string()},
                    (dir_ / "nm.log").string());
  ExpectShellSucceeds(
      "shell.log", {"--principal", std::string("alice@") + kRealm, "--keytab", keytab("alice")}, 2);

  // The same user from a kinit'd ticket cache (no --principal): KRB5CCNAME.
  const std::string cache = "FILE:" + (dir_ / "alice.ccache").string();
  ChildProcess kinit = cell::Spawn({"/usr/bin/kinit", "-kt", keytab("alice"), "alice"},
                                   (dir_ / "kinit.log").string(), {"KRB5CCNAME=" + cache});
  ASSERT_TRUE(kinit.WaitExit(60s));
  ASSERT_EQ(kinit.wait_status(), 0) << cell::ReadAll((dir_ / "kinit.log").string());
  ExpectShellSucceeds("shell-kinit.log", {}, 1, {"KRB5CCNAME=" + cache});

  // SIMPLE is refused on the client port, in Hadoop 3.3's words.
  Status simple = ClusterMetrics(std::nullopt);
  ASSERT_TRUE(simple.IsUnauthorized()) << simple.ToString();
  EXPECT_EQ(simple.java_class(), ipc::java::kAccessControl);
  EXPECT_EQ(simple.message(), "SIMPLE authentication is not enabled.  Available:[TOKEN, KERBEROS]");

  // A principal the KDC vouches for but auth_to_local does not map.
  Result<std::unique_ptr<security::KerberosCredentials>> stranger =
      security::KerberosCredentials::LoginFromKeytab("stranger", keytab("stranger"));
  ASSERT_TRUE(stranger.ok()) << stranger.status().ToString();
  Status refused = ClusterMetrics(ipc::ClientKerberos{(*stranger)->cache_name()});
  ASSERT_TRUE(refused.IsUnauthorized()) << refused.ToString();
  EXPECT_EQ(refused.message(), "No rules applied to stranger@SPINDLE.TEST");

  // alice, mapped, gets through.
  Result<std::unique_ptr<security::KerberosCredentials>> alice =
      security::KerberosCredentials::LoginFromKeytab("alice", keytab("alice"));
  ASSERT_TRUE(alice.ok()) << alice.status().ToString();
  Status served = ClusterMetrics(ipc::ClientKerberos{(*alice)->cache_name()});
  EXPECT_TRUE(served.ok()) << served.ToString();
}

// An NM configured with a principal its keytab does not hold stops at once.
TEST_F(SecureCellTest, AnNmWithTheWrongPrincipalDoesNotStart) {
  WriteNmConf("bad-nm-conf", std::string("nm/other.spindle.test@") + kRealm);
  ChildProcess bad = cell::Spawn({SPINDLE_BINARY, "nm", "--conf", (dir_ / "bad-nm-conf").string()},
                                 (dir_ / "bad-nm.log").string());
  ASSERT_TRUE(bad.WaitExit(60s));
  EXPECT_NE(bad.wait_status(), 0);
  EXPECT_NE(cell::ReadAll((dir_ / "bad-nm.log").string())
                .find("Login failure for user: nm/other.spindle.test@SPINDLE.TEST from keytab"),
            std::string::npos)
      << cell::Tail((dir_ / "bad-nm.log").string(), 10);
}

class SecureCellProtectionTest : public SecureCellTest,
                                 public ::testing::WithParamInterface<const char*> {
 protected:
  std::string Protection() const override { return GetParam(); }
};

// The whole cell at integrity or privacy: spindle shell's client and AM,
// spindle nm's heartbeats and the AM launch to the NM all run wrapped.
TEST_P(SecureCellProtectionTest, AnApplicationSucceedsAndATamperedWrappedFrameIsRefused) {
  const Result<ipc::SaslQops> qops = ipc::ParseRpcProtection(GetParam());
  ASSERT_TRUE(qops.ok());
  const ipc::SaslQop qop = qops->front();
  WriteNmConf("nm-conf", std::string("nm/nm1.spindle.test@") + kRealm);
  nm_ = cell::Spawn({SPINDLE_BINARY, "nm", "--conf", (dir_ / "nm-conf").string()},
                    (dir_ / "nm.log").string());
  ExpectShellSucceeds(
      "shell.log", {"--principal", std::string("alice@") + kRealm, "--keytab", keytab("alice")}, 2);

  Result<std::unique_ptr<security::KerberosCredentials>> alice =
      security::KerberosCredentials::LoginFromKeytab("alice", keytab("alice"));
  ASSERT_TRUE(alice.ok()) << alice.status().ToString();
  const ipc::ClientKerberos kerberos{(*alice)->cache_name()};

  // A client that only authenticates finds nothing in common: no downgrade.
  Status plain = ClusterMetrics(kerberos);
  ASSERT_FALSE(plain.ok());
  EXPECT_NE(plain.message().find("No common protection layer"), std::string::npos)
      << plain.ToString();

  // One flipped bit in a wrapped frame: FATAL SaslException (wrapped, the
  // server's side being intact), and the connection closes.
  {
    ipc::testing::RawSaslClient raw(Port("client"), nullptr, &kerberos, qop);
    ASSERT_NE(raw.layer(), nullptr);
    hadoop::yarn::GetClusterMetricsRequestProto request;
    Result<std::string> wrapped = ipc::WrapRequestFrames(
        raw.layer(), ipc::testing::ContextAndMetricsCall(
                         "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB",
                         std::string("alice@") + kRealm, false, request));
    ASSERT_TRUE(wrapped.ok());
    std::string tampered = *wrapped;
    tampered[tampered.size() - 5] = static_cast<char>(tampered[tampered.size() - 5] ^ 0x10);
    raw.Send(tampered);
    const hadoop::common::RpcResponseHeaderProto fatal = raw.ReadWrappedHeader();
    EXPECT_EQ(fatal.status(), hadoop::common::RpcResponseHeaderProto::FATAL);
    EXPECT_EQ(fatal.exceptionclassname(), ipc::java::kSaslException);
    EXPECT_TRUE(raw.ClosedByServer());
  }

  // The RM serves everyone else, wrapped.
  Status served = ClusterMetrics(kerberos, {qop});
  EXPECT_TRUE(served.ok()) << served.ToString();
}

INSTANTIATE_TEST_SUITE_P(RpcProtection, SecureCellProtectionTest,
                         ::testing::Values("integrity", "privacy"));

// hadoop.rpc.protection on every RPC port of the RM. The server offers the
// configured protections (SaslPropertiesResolver's QOP list, in order); a
// client picks the first of its own the server offers, and when there is
// none refuses on its side, before a call is sent, as Java's SaslClient does
// (GSSAPI and DIGEST-MD5 alike): javax.security.sasl.SaslException "No common
// protection layer between client and server". With integrity or privacy
// every RPC after the handshake is wrapped (RpcSaslProto WRAP) both ways:
// the project's client refuses an unwrapped answer ("Server sent
// non-wrapped response"), so a call served at those levels was wrapped.
// Ports: 8032 client and 8033 admin over KERBEROS (alice), 8031
// ResourceTracker over KERBEROS (the NM principal), 8030 over TOKEN with the
// AMRMToken of an unmanaged AM alice submitted.
class SecureCellPortsTest : public SecureCellTest,
                            public ::testing::WithParamInterface<const char*> {
 protected:
  std::string Protection() const override { return GetParam(); }

  // The AMRMToken of a new unmanaged application of `alice`'s.
  std::optional<ipc::ClientToken> UnmanagedAmToken(const ipc::ClientKerberos& alice,
                                                   const ipc::SaslQops& qops) {
    ipc::RpcClientOptions options;
    options.qops = qops;
    ipc::RpcClient client(options);
    const ipc::ConnectionSpec spec{"127.0.0.1", Port("client"), kClientProtocolName,
                                   "mallory",   std::nullopt,   alice};
    hadoop::yarn::GetNewApplicationRequestProto new_request;
    hadoop::yarn::GetNewApplicationResponseProto new_response;
    Status s = client.Call(spec, "getNewApplication", new_request, &new_response);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) return std::nullopt;
    hadoop::yarn::SubmitApplicationRequestProto submit;
    auto* context = submit.mutable_application_submission_context();
    *context->mutable_application_id() = new_response.application_id();
    context->set_queue("default");
    context->set_unmanaged_am(true);
    context->mutable_resource()->set_memory(128);
    context->mutable_resource()->set_virtual_cores(1);
    context->mutable_am_container_spec();
    hadoop::yarn::SubmitApplicationResponseProto submitted;
    s = client.Call(spec, "submitApplication", submit, &submitted);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) return std::nullopt;
    hadoop::yarn::GetApplicationReportRequestProto report_request;
    *report_request.mutable_application_id() = new_response.application_id();
    hadoop::yarn::GetApplicationReportResponseProto report;
    const bool has_token = WaitFor(
        [&] {
          return client.Call(spec, "getApplicationReport", report_request, &report).ok() &&
                 report.application_report().has_am_rm_token();
        },
        60s);
    EXPECT_TRUE(has_token) << cell::Tail((dir_ / "rm.log").string(), 20);
    if (!has_token) return std::nullopt;
    const auto& t = report.application_report().am_rm_token();
    return ipc::ClientToken{t.identifier(), t.password(), t.kind(),
                            "127.0.0.1:" + ports_["scheduler"]};
  }

  // One call on `port` with a client of protection `qop`.
  Status CallOn(const std::string& port, ipc::SaslQop qop, const ipc::ClientKerberos& alice,
                const ipc::ClientKerberos& nm, const ipc::ClientToken& amrm) {
    ipc::RpcClientOptions options;
    options.qops = {qop};
    ipc::RpcClient client(options);
    ipc::ConnectionSpec spec;
    spec.host = "127.0.0.1";
    spec.port = Port(port);
    spec.user = "mallory";
    if (port == "client") {
      spec.protocol = kClientProtocolName;
      spec.kerberos = alice;
      hadoop::yarn::GetClusterMetricsRequestProto request;
      hadoop::yarn::GetClusterMetricsResponseProto response;
      return client.Call(spec, "getClusterMetrics", request, &response);
    }
    if (port == "admin") {
      spec.protocol = "org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocolPB";
      spec.kerberos = alice;
      hadoop::yarn::GetGroupsForUserRequestProto request;
      request.set_user("alice");
      hadoop::yarn::GetGroupsForUserResponseProto response;
      return client.Call(spec, "getGroupsForUser", request, &response);
    }
    if (port == "resource-tracker") {
      spec.protocol = "org.apache.hadoop.yarn.server.api.ResourceTrackerPB";
      spec.kerberos = nm;
      hadoop::yarn::NodeHeartbeatRequestProto request;
      request.mutable_node_status()->mutable_node_id()->set_host("nm1.spindle.test");
      request.mutable_node_status()->mutable_node_id()->set_port(1);
      hadoop::yarn::NodeHeartbeatResponseProto response;
      Status s = client.Call(spec, "nodeHeartbeat", request, &response);
      // An unknown node is told to resync: an answer all the same.
      if (s.ok()) {
        EXPECT_EQ(response.nodeaction(), hadoop::yarn::RESYNC);
      }
      return s;
    }
    spec.protocol = "org.apache.hadoop.yarn.api.ApplicationMasterProtocolPB";
    spec.token = amrm;
    hadoop::yarn::RegisterApplicationMasterRequestProto request;
    hadoop::yarn::RegisterApplicationMasterResponseProto response;
    Status s = client.Call(spec, "registerApplicationMaster", request, &response);
    // Registered by an earlier call of this table: the RPC was served.
    if (s.java_class() ==
        "org.apache.hadoop.yarn.exceptions.InvalidApplicationMasterRequestException") {
      return Status::OK();
    }
    return s;
  }

  static constexpr char kClientProtocolName[] =
      "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
};

TEST_P(SecureCellPortsTest, EveryPortServesACommonProtectionAndRefusesNoneInCommon) {
  Result<ipc::SaslQops> offered = ipc::ParseRpcProtection(GetParam());
  ASSERT_TRUE(offered.ok());
  std::unique_ptr<security::KerberosCredentials> alice_login = Login("alice");
  Result<std::unique_ptr<security::KerberosCredentials>> nm_login =
      security::KerberosCredentials::LoginFromKeytab("nm/nm1.spindle.test", keytab("nm"));
  ASSERT_NE(alice_login, nullptr);
  ASSERT_TRUE(nm_login.ok()) << nm_login.status().ToString();
  const ipc::ClientKerberos alice{alice_login->cache_name()};
  const ipc::ClientKerberos nm{(*nm_login)->cache_name()};
  const std::optional<ipc::ClientToken> amrm = UnmanagedAmToken(alice, *offered);
  ASSERT_TRUE(amrm.has_value());

  for (const char* port : {"client", "scheduler", "resource-tracker", "admin"}) {
    for (ipc::SaslQop qop :
         {ipc::SaslQop::kAuth, ipc::SaslQop::kAuthInt, ipc::SaslQop::kAuthConf}) {
      SCOPED_TRACE(std::string(port) + " at " + std::string(ipc::SaslQopName(qop)));
      const bool common = std::find(offered->begin(), offered->end(), qop) != offered->end();
      const Status s = CallOn(port, qop, alice, nm, *amrm);
      if (common) {
        EXPECT_TRUE(s.ok()) << s.ToString();
      } else {
        EXPECT_EQ(s.java_class(), ipc::java::kSaslException) << s.ToString();
        EXPECT_NE(s.message().find("No common protection layer between client and server"),
                  std::string::npos)
            << s.ToString();
      }
    }
  }
  EXPECT_FALSE(rm_.Exited()) << cell::Tail((dir_ / "rm.log").string(), 20);
}

INSTANTIATE_TEST_SUITE_P(RpcProtection, SecureCellPortsTest,
                         ::testing::Values("authentication", "integrity", "privacy",
                                           "privacy,authentication"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           std::string name = param.param;
                           std::replace(name.begin(), name.end(), ',', '_');
                           return name;
                         });

constexpr char kClientProtocol[] = "org.apache.hadoop.yarn.api.ApplicationClientProtocolPB";
constexpr char kAuthorizationException[] =
    "org.apache.hadoop.security.authorize.AuthorizationException";

// Service ACLs: a principal outside the ResourceTracker ACL (a forged NM) is
// refused at connection time, in Hadoop 3.3's words, until the policy file
// lets it in and rmadmin -refreshServiceAcl reloads it.
TEST_F(SecureCellTest, AForgedNmIsRefusedUntilTheServiceAclLetsItIn) {
  std::unique_ptr<security::KerberosCredentials> alice = Login("alice");
  ASSERT_NE(alice, nullptr);
  Status forged = TrackerHeartbeat(*alice);
  ASSERT_FALSE(forged.ok());
  EXPECT_EQ(forged.java_class(), kAuthorizationException) << forged.ToString();
  EXPECT_EQ(forged.message(),
            "User alice@SPINDLE.TEST (auth:KERBEROS) is not authorized for protocol interface "
            "org.apache.hadoop.yarn.server.api.ResourceTrackerPB: denied by configured ACL");

  // The client port's ACL is the default "*": alice is served there.
  ipc::RpcClient client;
  hadoop::yarn::GetClusterMetricsRequestProto metrics;
  hadoop::yarn::GetClusterMetricsResponseProto metrics_response;
  Status served = client.Call(Spec("client", kClientProtocol, alice.get()), "getClusterMetrics",
                              metrics, &metrics_response);
  EXPECT_TRUE(served.ok()) << served.ToString();

  // rmadmin -refreshServiceAcl after the policy file lets alice in.
  WriteXml(dir_ / "rm-conf/hadoop-policy.xml",
           {{"security.resourcetracker.protocol.acl", "yarn,alice"}});
  hadoop::yarn::RefreshServiceAclsRequestProto refresh;
  hadoop::yarn::RefreshServiceAclsResponseProto refresh_response;
  Status refreshed = client.Call(
      Spec("admin", "org.apache.hadoop.yarn.server.api.ResourceManagerAdministrationProtocolPB",
           alice.get()),
      "refreshServiceAcls", refresh, &refresh_response);
  ASSERT_TRUE(refreshed.ok()) << refreshed.ToString();
  // Now the connection is authorized; what the RM makes of an empty
  // heartbeat is the tracker's business, not an authorization refusal.
  Status after = TrackerHeartbeat(*alice);
  EXPECT_NE(after.java_class(), kAuthorizationException) << after.ToString();
}

// Proxy users: bob has no proxy-user rules and cannot act for alice; alice
// may act for carol (hadoop.proxyuser.alice.*) but not for bob.
TEST_F(SecureCellTest, ImpersonationNeedsProxyUserRules) {
  std::unique_ptr<security::KerberosCredentials> alice = Login("alice");
  std::unique_ptr<security::KerberosCredentials> bob = Login("bob");
  ASSERT_NE(alice, nullptr);
  ASSERT_NE(bob, nullptr);
  const auto call_as = [&](const security::KerberosCredentials& who, const std::string& proxy_for,
                           hadoop::yarn::GetClusterMetricsResponseProto* response) {
    ipc::RpcClient client;
    ipc::ConnectionSpec spec = Spec("client", kClientProtocol, &who);
    spec.kerberos_proxy_for = proxy_for;
    hadoop::yarn::GetClusterMetricsRequestProto request;
    return client.Call(spec, "getClusterMetrics", request, response);
  };
  hadoop::yarn::GetClusterMetricsResponseProto response;
  Status refused = call_as(*bob, "alice", &response);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.java_class(), kAuthorizationException) << refused.ToString();
  EXPECT_EQ(refused.message(), "User: bob@SPINDLE.TEST is not allowed to impersonate alice");
  Status not_carol = call_as(*alice, "bob", &response);
  EXPECT_EQ(not_carol.message(), "User: alice@SPINDLE.TEST is not allowed to impersonate bob");
  Status allowed = call_as(*alice, "carol", &response);
  EXPECT_TRUE(allowed.ok()) << allowed.ToString();
}

// RM delegation tokens end to end: issued to a Kerberos caller; renewed only
// by the renewer (AccessControlException, wrapped in a YarnException as
// ClientRMService does); a client with nothing but the token authenticates
// with TOKEN (DIGEST-MD5) on the client port and is served, but may not get
// or renew tokens with it (isAllowedDelegationTokenOp).
TEST_F(SecureCellTest, DelegationTokensRenewerChecksAndTokenOnlyClients) {
  std::unique_ptr<security::KerberosCredentials> alice = Login("alice");
  std::unique_ptr<security::KerberosCredentials> bob = Login("bob");
  ASSERT_NE(alice, nullptr);
  ASSERT_NE(bob, nullptr);
  ipc::RpcClient client;
  hadoop::common::GetDelegationTokenRequestProto get;
  get.set_renewer("bob");
  hadoop::common::GetDelegationTokenResponseProto got;
  Status issued =
      client.Call(Spec("client", kClientProtocol, alice.get()), "getDelegationToken", get, &got);
  ASSERT_TRUE(issued.ok()) << issued.ToString();
  ASSERT_TRUE(got.has_token());
  EXPECT_EQ(got.token().kind(), "RM_DELEGATION_TOKEN");

  // alice is the owner, not the renewer.
  hadoop::common::RenewDelegationTokenRequestProto renew;
  *renew.mutable_token() = got.token();
  hadoop::common::RenewDelegationTokenResponseProto renewed;
  Status not_renewer = client.Call(Spec("client", kClientProtocol, alice.get()),
                                   "renewDelegationToken", renew, &renewed);
  ASSERT_FALSE(not_renewer.ok());
  EXPECT_EQ(not_renewer.java_class(), "org.apache.hadoop.yarn.exceptions.YarnException");
  EXPECT_EQ(not_renewer.message(),
            "org.apache.hadoop.security.AccessControlException: alice tries to renew a token "
            "with renewer bob");
  // bob, the renewer, may.
  Status by_renewer = client.Call(Spec("client", kClientProtocol, bob.get()),
                                  "renewDelegationToken", renew, &renewed);
  ASSERT_TRUE(by_renewer.ok()) << by_renewer.ToString();
  EXPECT_GT(renewed.newexpirytime(), 0u);

  // A job holding only the token.
  ipc::ConnectionSpec token_only = Spec("client", kClientProtocol, nullptr);
  token_only.token = ipc::ClientToken{got.token().identifier(), got.token().password(),
                                      got.token().kind(), got.token().service()};
  hadoop::yarn::GetClusterMetricsRequestProto metrics;
  hadoop::yarn::GetClusterMetricsResponseProto metrics_response;
  Status served = client.Call(token_only, "getClusterMetrics", metrics, &metrics_response);
  EXPECT_TRUE(served.ok()) << served.ToString();
  hadoop::common::GetDelegationTokenResponseProto minted;
  Status refused = client.Call(token_only, "getDelegationToken", get, &minted);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.message(),
            "java.io.IOException: Delegation Token can be issued only with kerberos "
            "authentication");

  // The owner cancels it; the token no longer authenticates.
  hadoop::common::CancelDelegationTokenRequestProto cancel;
  *cancel.mutable_token() = got.token();
  hadoop::common::CancelDelegationTokenResponseProto cancelled;
  Status cancel_status = client.Call(Spec("client", kClientProtocol, alice.get()),
                                     "cancelDelegationToken", cancel, &cancelled);
  ASSERT_TRUE(cancel_status.ok()) << cancel_status.ToString();
  ipc::RpcClient fresh;
  Status after_cancel = fresh.Call(token_only, "getClusterMetrics", metrics, &metrics_response);
  EXPECT_FALSE(after_cancel.ok());
  EXPECT_TRUE(after_cancel.IsUnauthorized()) << after_cancel.ToString();
}

}  // namespace
}  // namespace spindle
