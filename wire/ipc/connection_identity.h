// Who is on the other end of a server connection, as established by the
// connection preamble, SASL and the connection context (WIRE.md 2.5, 3).
#pragma once

#include <string>

#include "wire/ipc/sasl_qop.h"

namespace spindle::ipc {

enum class AuthMethod {
  kSimple,    // identity claimed in the connection context (effectiveUser)
  kToken,     // identity proven with SASL DIGEST-MD5 over a token
  kKerberos,  // identity proven with SASL GSSAPI (a Kerberos ticket)
};

struct ConnectionIdentity {
  AuthMethod auth_method = AuthMethod::kSimple;
  // The caller: effectiveUser under SIMPLE, the token's user under TOKEN,
  // the principal's auth_to_local short name under KERBEROS.
  std::string user;
  // The authenticated principal under KERBEROS ("nm/host@REALM"), else empty.
  std::string kerberos_principal;
  // realUser of a proxy-user connection (SIMPLE), else empty.
  std::string real_user;
  // Raw identifier bytes of the token that authenticated the connection.
  std::string token_identifier;
  // The connection context's default protocol.
  std::string protocol;
  // "ip:port" of the peer.
  std::string remote_address;
  // The SASL quality of protection negotiated (Server's establishedQOP):
  // auth unless TOKEN or KERBEROS settled on auth-int or auth-conf.
  SaslQop qop = SaslQop::kAuth;
};

}  // namespace spindle::ipc
