#include "tests/support/mini_kdc.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "base/net/free_port.h"

namespace spindle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

constexpr int kPortAttempts = 5;
constexpr char kKdc[] = "/usr/sbin/krb5kdc";
constexpr char kKdbUtil[] = "/usr/sbin/kdb5_util";
constexpr char kKadminLocal[] = "/usr/sbin/kadmin.local";
constexpr char kKinit[] = "/usr/bin/kinit";

bool Accepts(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string MiniKdc::MissingComponent() {
  for (const char* binary : {kKdc, kKdbUtil, kKadminLocal}) {
    if (access(binary, X_OK) != 0) {
      return std::string(binary) + " is not installed (Debian's krb5-kdc and krb5-admin-server)";
    }
  }
  if (access(kKinit, X_OK) != 0)
    return std::string(kKinit) + " is not installed (Debian's krb5-user)";
  return "";
}

MiniKdc::MiniKdc(MiniKdcOptions options)
    : options_(std::move(options)),
      kdc_conf_(options_.work_dir + "/kdc.conf"),
      krb5_conf_(options_.work_dir + "/krb5.conf") {}

MiniKdc::~MiniKdc() { Stop(); }

Result<std::unique_ptr<MiniKdc>> MiniKdc::Start(const MiniKdcOptions& options) {
  if (options.work_dir.empty()) return Status::InvalidArgument("MiniKdc needs a work_dir");
  if (std::string missing = MissingComponent(); !missing.empty()) return Status::NotFound(missing);
  std::error_code ec;
  std::filesystem::create_directories(options.work_dir, ec);
  if (ec) return Status::IoError("cannot create " + options.work_dir + ": " + ec.message());
  std::unique_ptr<MiniKdc> kdc(new MiniKdc(options));
  Status status = Status::OK();
  for (int attempt = 0; attempt < kPortAttempts; ++attempt) {
    // krb5kdc binds the port a moment later; Launch() notices if someone
    // else did.
    ASSIGN_OR_RETURN(kdc->port_, net::PickFreeLoopbackPort(net::PortUse::kTcpAndUdp));
    RETURN_NOT_OK(kdc->WriteConfiguration());
    if (attempt == 0) {
      // The database: a master key stashed in the realm's directory (-s), so
      // krb5kdc starts without asking for it.
      RETURN_NOT_OK(kdc->Run(
          kKdbUtil, {"create", "-s", "-r", options.realm, "-P", "spindle-test-master-key"}));
    }
    status = kdc->Launch();
    if (status.ok()) return kdc;
    if (status.code() != Status::Code::kAlreadyExists) return status;
  }
  return status;
}

Status MiniKdc::WriteConfiguration() const {
  const std::string& dir = options_.work_dir;
  const std::string address = "127.0.0.1:" + std::to_string(port_);
  std::ofstream kdc(kdc_conf_, std::ios::trunc);
  kdc << "[kdcdefaults]\n"
      << " kdc_listen = " << address << "\n"
      << " kdc_tcp_listen = " << address << "\n"
      << "[realms]\n"
      << " " << options_.realm << " = {\n"
      << "  database_name = " << dir << "/principal\n"
      << "  key_stash_file = " << dir << "/stash\n"
      << "  acl_file = " << dir << "/kadm5.acl\n"
      << "  max_life = 1h\n"
      << " }\n"
      << "[logging]\n"
      << " kdc = FILE:" << dir << "/kdc.log\n"
      << " default = FILE:" << dir << "/kdc.log\n";
  kdc.close();
  if (!kdc) return Status::IoError("cannot write " + kdc_conf_);
  // No DNS: names are used as written, and the host of a service principal
  // is not canonicalised (the tests use 127.0.0.1-only names).
  std::ofstream krb5(krb5_conf_, std::ios::trunc);
  krb5 << "[libdefaults]\n"
       << " default_realm = " << options_.realm << "\n"
       << " dns_lookup_realm = false\n"
       << " dns_lookup_kdc = false\n"
       << " rdns = false\n"
       << " dns_canonicalize_hostname = false\n"
       << " udp_preference_limit = 1\n"
       << " default_ccache_name = FILE:" << dir << "/krb5cc_default\n";
  if (options_.clockskew_seconds > 0) krb5 << " clockskew = " << options_.clockskew_seconds << "\n";
  krb5 << "[realms]\n"
       << " " << options_.realm << " = {\n"
       << "  kdc = " << address << "\n"
       << " }\n";
  krb5.close();
  if (!krb5) return Status::IoError("cannot write " + krb5_conf_);
  return Status::OK();
}

std::vector<std::string> MiniKdc::Environment() const {
  return {"KRB5_CONFIG=" + krb5_conf_, "KRB5_KDC_PROFILE=" + kdc_conf_};
}

Result<std::unique_ptr<MiniKdc>> MiniKdc::StartFresh(const std::string& work_dir) {
  MiniKdcOptions options;
  options.work_dir = work_dir;
  return StartFresh(options);
}

Result<std::unique_ptr<MiniKdc>> MiniKdc::StartFresh(const MiniKdcOptions& options) {
  const std::string missing = MissingComponent();
  if (!missing.empty()) {
    return Status::NotSupported(missing + " (scripts/setup.sh installs it)");
  }
  std::error_code ignored;
  std::filesystem::remove_all(options.work_dir, ignored);
  Result<std::unique_ptr<MiniKdc>> kdc = Start(options);
  if (kdc.ok()) (*kdc)->UseInThisProcess();
  return kdc;
}

void MiniKdc::UseInThisProcess() const {
  setenv("KRB5_CONFIG", krb5_conf_.c_str(), 1);
  setenv("KRB5_KDC_PROFILE", kdc_conf_.c_str(), 1);
}

ChildOptions MiniKdc::WithRealmEnvironment(const std::string& binary,
                                           const std::vector<std::string>& args) const {
  // Through env(1): ChildProcess adds variables after this process's own, and
  // a KRB5_CONFIG already set here (another realm's) would win.
  ChildOptions child;
  child.binary = "/usr/bin/env";
  child.argv0 = "env";
  child.args = Environment();
  child.args.push_back(binary);
  child.args.insert(child.args.end(), args.begin(), args.end());
  return child;
}

Status MiniKdc::Run(const std::string& binary, const std::vector<std::string>& args) const {
  ChildOptions child = WithRealmEnvironment(binary, args);
  child.log_path = options_.work_dir + "/admin.log";
  ASSIGN_OR_RETURN(ChildProcess process, ChildProcess::Spawn(child));
  if (!process.WaitExit(std::chrono::seconds(30))) {
    process.Kill();
    return Status::TimedOut(binary + " did not finish");
  }
  const int status = process.wait_status();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status::Internal(binary + " failed; admin.log:\n" +
                            ReadFile(options_.work_dir + "/admin.log"));
  }
  return Status::OK();
}

Status MiniKdc::AddPrincipal(const std::string& principal) {
  return Run(kKadminLocal, {"-r", options_.realm, "-q", "addprinc -randkey " + principal});
}

Status MiniKdc::AddPrincipalWithPassword(const std::string& principal,
                                         const std::string& password) {
  return Run(kKadminLocal,
             {"-r", options_.realm, "-q", "addprinc -pw " + password + " " + principal});
}

Status MiniKdc::DeletePrincipal(const std::string& principal) {
  return Run(kKadminLocal, {"-r", options_.realm, "-q", "delprinc -force " + principal});
}

Status MiniKdc::ExportKeytab(const std::vector<std::string>& principals, const std::string& path) {
  std::string query = "ktadd -k " + path;
  for (const std::string& principal : principals) query += " " + principal;
  return Run(kKadminLocal, {"-r", options_.realm, "-q", query});
}

Status MiniKdc::KinitFromKeytab(const std::string& principal, const std::string& keytab,
                                const std::string& cache_path,
                                std::chrono::seconds lifetime) const {
  return Run(kKinit, {"-l", std::to_string(lifetime.count()) + "s", "-kt", keytab, "-c",
                      "FILE:" + cache_path, principal});
}

Status MiniKdc::Launch() {
  // -n: stay in the foreground, so that Stop() ends the KDC itself.
  ChildOptions child = WithRealmEnvironment(kKdc, {"-n", "-r", options_.realm});
  child.log_path = options_.work_dir + "/kdc.out";
  ASSIGN_OR_RETURN(kdc_, ChildProcess::Spawn(child));
  const auto deadline = steady_clock::now() + options_.start_timeout;
  while (steady_clock::now() < deadline) {
    if (kdc_.Exited()) {
      const std::string tail = LogTail();
      if (tail.find("Address already in use") != std::string::npos) {
        return Status::AlreadyExists("port " + std::to_string(port_) + " taken");
      }
      return Status::Unavailable("krb5kdc exited at start:\n" + tail);
    }
    if (Accepts(port_)) return Status::OK();
    std::this_thread::sleep_for(milliseconds(20));
  }
  Stop();
  return Status::Unavailable("krb5kdc on port " + std::to_string(port_) +
                             " did not serve in time:\n" + LogTail());
}

void MiniKdc::Stop() { kdc_.Stop(SIGTERM, std::chrono::seconds(5)); }

std::string MiniKdc::LogTail() const {
  return ReadFile(options_.work_dir + "/kdc.out") + ReadFile(options_.work_dir + "/kdc.log");
}

}  // namespace spindle::testing
