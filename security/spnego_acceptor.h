// SpnegoAcceptor: the server side of HTTP SPNEGO ("Authorization: Negotiate
// <token>", RFC 4559) on MIT GSS-API, as Hadoop 3.3's
// KerberosAuthenticationHandler runs it:
//   - the acceptor credential comes from the configured keytab and names
//     the configured principal ("HTTP/host@REALM"), or, for "*", any
//     principal of the keytab; it is acquired once, at start, so a missing
//     keytab or key stops the web server before it serves;
//   - each request's token is taken by a fresh security context
//     (Kerberos v5 wrapped in SPNEGO, as browsers, curl and Java's
//     AuthenticatedURL send, or bare Kerberos v5), which is dropped after
//     the request: a context that would need another round answers 401
//     with GSS-API's token, as Hadoop's handler does, never kept;
//   - the ticket's server principal must be an HTTP/ one ("Invalid server
//     principal ..."), whichever key of the keytab decrypted it.
//
// Thread contract: Accept() from any thread, several at once (each call has
// its own context; MIT's credential handle locks itself).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::security {

// Accept every HTTP/ principal in the keytab (hadoop.http.authentication.
// kerberos.principal "*").
inline constexpr char kAnyHttpPrincipal[] = "*";

struct SpnegoAcceptorIdentity {
  // "HTTP/host@REALM" (_HOST already filled in), or kAnyHttpPrincipal.
  std::string principal;
  std::string keytab;
};

struct SpnegoAcceptance {
  // False when GSS-API wants another round: Hadoop answers 401 then.
  bool established = false;
  // GSS-API's reply (the mutual-authentication token); may be empty.
  std::string reply_token;
  // The client principal ("alice@REALM"), once established.
  std::string client_principal;
};

class SpnegoAcceptor {
 public:
  // InvalidArgument for an empty principal or keytab, NotFound for a keytab
  // that does not exist (Hadoop's init messages); Unauthorized with
  // GSS-API's words when the keytab has no key for the principal.
  static Result<std::unique_ptr<SpnegoAcceptor>> Create(const SpnegoAcceptorIdentity& identity);
  ~SpnegoAcceptor();
  SpnegoAcceptor(const SpnegoAcceptor&) = delete;
  SpnegoAcceptor& operator=(const SpnegoAcceptor&) = delete;

  // One client token in. Errors (Unauthorized) are why the token is
  // refused: garbage, a ticket for another service, a replay, a clock skew.
  Result<SpnegoAcceptance> Accept(std::string_view client_token) const;

  const std::string& principal() const { return principal_; }

 private:
  struct Credential;
  SpnegoAcceptor(std::unique_ptr<Credential> credential, std::string principal);

  const std::unique_ptr<Credential> credential_;
  const std::string principal_;
};

}  // namespace spindle::security
