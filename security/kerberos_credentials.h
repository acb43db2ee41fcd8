// A Kerberos identity logged in from a keytab with MIT krb5: the initial
// ticket (TGT) is fetched from the KDC at once, as Hadoop's
// UserGroupInformation.loginUserFromKeytab does, and kept in a credential
// cache private to this object (a MEMORY: cache), so a bad keytab, a wrong
// principal or an unreachable KDC stop the daemon at start and not at its
// first secure call.
//
// Thread contract: not thread-safe (it owns a krb5_context); one owner.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"

struct _krb5_context;
struct _krb5_ccache;

namespace spindle::security {

class KerberosCredentials {
 public:
  // Fails with Unauthorized "Login failure for user: <principal> from keytab
  // <keytab> <krb5's reason>" (Hadoop 3.3's KerberosAuthException text).
  static Result<std::unique_ptr<KerberosCredentials>> LoginFromKeytab(const std::string& principal,
                                                                      const std::string& keytab);

  KerberosCredentials(const KerberosCredentials&) = delete;
  KerberosCredentials& operator=(const KerberosCredentials&) = delete;
  ~KerberosCredentials();

  // The principal as krb5 unparses it (realm filled in when it was omitted).
  const std::string& principal() const { return principal_; }
  const std::string& keytab() const { return keytab_; }
  // "MEMORY:<name>": where the TGT is, for GSS-API's initiator.
  const std::string& cache_name() const { return cache_name_; }

 private:
  KerberosCredentials(_krb5_context* context, _krb5_ccache* cache, std::string principal,
                      std::string keytab, std::string cache_name);

  _krb5_context* context_;
  _krb5_ccache* cache_;
  std::string principal_;
  std::string keytab_;
  std::string cache_name_;
};

// krb5.conf's default_realm (KRB5_CONFIG is honoured); NotFound when there is
// none.
Result<std::string> DefaultKerberosRealm();

}  // namespace spindle::security
