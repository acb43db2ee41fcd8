// MiniKdc: a real MIT Kerberos KDC (Debian's krb5-kdc and krb5-admin-server)
// for tests, with a realm of its own inside the test's directory:
// kdc.conf and krb5.conf there, the database created with `kdb5_util create
// -s`, principals and keytabs made with `kadmin.local`, and `krb5kdc -n`
// listening on 127.0.0.1 on a port picked at run time (UDP and TCP; clients
// are told to use TCP). Stop() or the destructor ends the KDC.
//
// Thread contract: not thread-safe; one test owns it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/child_process.h"
#include "base/result.h"

namespace spindle::testing {

struct MiniKdcOptions {
  // Where the realm lives. Required; created if missing.
  std::string work_dir;
  // Default: SPINDLE.TEST.
  std::string realm = "SPINDLE.TEST";
  // How long krb5kdc may take to accept connections. Default: 20 s.
  std::chrono::milliseconds start_timeout = std::chrono::seconds(20);
  // krb5.conf's libdefaults `clockskew`: how far a ticket's and an
  // authenticator's times may be off before an acceptor here refuses them.
  // 0: MIT's default (300 s), which hides an expired ticket for 5 minutes.
  int clockskew_seconds = 0;
};

class MiniKdc {
 public:
  // Empty if krb5kdc, kdb5_util and kadmin.local are installed; otherwise
  // what is missing.
  static std::string MissingComponent();

  // Creates the realm and starts the KDC (on another port if the one picked
  // was taken meanwhile). Unavailable with the tail of kdc.log if it does
  // not serve in time.
  static Result<std::unique_ptr<MiniKdc>> Start(const MiniKdcOptions& options);
  // For a test: the realm in `work_dir`, emptied first, and the KDC made this
  // process's (UseInThisProcess). NotSupported naming what is missing
  // when the krb5 programs are not installed (scripts/setup.sh installs them).
  static Result<std::unique_ptr<MiniKdc>> StartFresh(const std::string& work_dir);
  static Result<std::unique_ptr<MiniKdc>> StartFresh(const MiniKdcOptions& options);

  MiniKdc(const MiniKdc&) = delete;
  MiniKdc& operator=(const MiniKdc&) = delete;
  ~MiniKdc();

  // Adds `principal` (no realm: this realm's) with a random key.
  Status AddPrincipal(const std::string& principal);
  // Adds `principal` with a password, for kinit-style users.
  Status AddPrincipalWithPassword(const std::string& principal, const std::string& password);
  // Removes `principal` from the database (its keytab keys stay valid
  // locally, and the KDC no longer knows it).
  Status DeletePrincipal(const std::string& principal);
  // Writes the keys of `principals` to the keytab at `path` (appending).
  Status ExportKeytab(const std::vector<std::string>& principals, const std::string& path);
  // kinit: a ticket for `principal` from `keytab` in the credential cache
  // file `cache_path` (replaced), valid for `lifetime` from now.
  Status KinitFromKeytab(const std::string& principal, const std::string& keytab,
                         const std::string& cache_path, std::chrono::seconds lifetime) const;

  // "KRB5_CONFIG=...", "KRB5_KDC_PROFILE=...": what a child process needs to
  // find this realm.
  std::vector<std::string> Environment() const;
  // Sets those variables in this process, so that libkrb5 here (contexts
  // created after the call) uses this realm.
  void UseInThisProcess() const;

  const std::string& realm() const { return options_.realm; }
  uint16_t port() const { return port_; }
  const std::string& krb5_conf() const { return krb5_conf_; }
  // `name` with "@REALM" added.
  std::string Qualified(const std::string& name) const { return name + "@" + options_.realm; }
  void Stop();

 private:
  explicit MiniKdc(MiniKdcOptions options);
  Status WriteConfiguration() const;
  ChildOptions WithRealmEnvironment(const std::string& binary,
                                    const std::vector<std::string>& args) const;
  Status Run(const std::string& binary, const std::vector<std::string>& args) const;
  Status Launch();
  std::string LogTail() const;

  const MiniKdcOptions options_;
  const std::string kdc_conf_;
  const std::string krb5_conf_;
  uint16_t port_ = 0;
  ChildProcess kdc_;
};

}  // namespace spindle::testing
