// SASL DIGEST-MD5 (RFC 2831) as Hadoop uses it for TOKEN authentication
// (WIRE.md 3.4): realm "default", digest-uri "/default", charset=utf-8,
// algorithm=md5-sess, nc=00000001, no authzid; qop from
// hadoop.rpc.protection (auth, auth-int, auth-conf with cipher 3des), whose
// security layer is digest_md5_security_layer.h.
//
// Both sides are pure state machines over strings: no sockets, no clock. The
// server takes a password lookup that the RM plugs in (username = Base64 of
// the token identifier, password = Base64 of the token password).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "wire/ipc/digest_md5_security_layer.h"
#include "wire/ipc/sasl_qop.h"

namespace spindle::ipc {

inline constexpr char kDigestRealm[] = "default";
inline constexpr char kDigestUri[] = "/default";

// Parses a DIGEST-MD5 directive list: name=value or name="quoted \" value",
// comma separated (RFC 2831 section 7.1). Later duplicates are rejected.
Result<std::map<std::string, std::string>> ParseDigestDirectives(std::string_view text);

// The 32-hex-digit value of `response=` (a2_prefix "AUTHENTICATE") or of
// `rspauth=` (a2_prefix "") for qop=auth.
std::string ComputeDigestResponse(std::string_view username, std::string_view realm,
                                  std::string_view password, std::string_view nonce,
                                  std::string_view cnonce, std::string_view nc,
                                  std::string_view qop, std::string_view digest_uri,
                                  std::string_view a2_prefix);

// H(A1) of md5-sess, raw 16 bytes: the key the security layer derives from.
std::string DigestSessionKey(std::string_view username, std::string_view realm,
                             std::string_view password, std::string_view nonce,
                             std::string_view cnonce);

// The maxbuf both sides announce (the JDK's default, DEFAULT_MAXBUF).
inline constexpr uint32_t kDigestMaxBuffer = 65536;

// Server side. Usage: Challenge() once, then EvaluateResponse() once.
class DigestMd5Server {
 public:
  // Returns the password for a username, or an error (unknown/expired token).
  using PasswordLookup = std::function<Result<std::string>(std::string_view username)>;

  // `nonce` must be unpredictable (the caller draws it from a CSPRNG).
  // `qops` is what hadoop.rpc.protection allows, in its order.
  explicit DigestMd5Server(std::string nonce, SaslQops qops = {SaslQop::kAuth});

  // The first (and only) challenge, in the JDK's directive order (qop lists
  // `qops`; cipher="3des" when auth-conf is among them).
  std::string Challenge() const;

  // Checks the client's response; on success returns the server's final
  // "rspauth=<hex>" and sets username(). Errors are Unauthorized with the
  // reason (bad realm, nonce, nc, uri, digest...).
  Result<std::string> EvaluateResponse(std::string_view response, const PasswordLookup& lookup);

  bool complete() const { return complete_; }
  const std::string& username() const { return username_; }
  // The qop the client chose (once complete).
  SaslQop negotiated_qop() const { return negotiated_qop_; }
  // The security layer of an auth-int/auth-conf authentication (once
  // complete); null for auth. Moves it out: call once.
  std::unique_ptr<SaslSecurityLayer> TakeSecurityLayer() { return std::move(layer_); }

 private:
  const std::string nonce_;
  const SaslQops qops_;
  bool complete_ = false;
  std::string username_;
  SaslQop negotiated_qop_ = SaslQop::kAuth;
  std::unique_ptr<SaslSecurityLayer> layer_;
};

// Client side: answers a challenge and verifies the server's rspauth.
class DigestMd5Client {
 public:
  // `cnonce` must be unpredictable (tests may fix it to replay a capture).
  // `qops`: the protections this client accepts, preferred first (its
  // hadoop.rpc.protection); it takes the first the server offers, as the
  // JDK's client does.
  DigestMd5Client(std::string username, std::string password, std::string cnonce,
                  SaslQops qops = {SaslQop::kAuth});

  // The response to the server's challenge.
  Result<std::string> EvaluateChallenge(std::string_view challenge);

  // Checks "rspauth=<hex>" from the server's SUCCESS.
  Status VerifyServerFinal(std::string_view server_final) const;

  // The qop chosen in EvaluateChallenge.
  SaslQop negotiated_qop() const { return negotiated_qop_; }
  // After VerifyServerFinal succeeded: the security layer of auth-int or
  // auth-conf (null for auth). Moves it out: call once.
  Result<std::unique_ptr<SaslSecurityLayer>> TakeSecurityLayer() const;

 private:
  const std::string username_;
  const std::string password_;
  const std::string cnonce_;
  const SaslQops qops_;
  std::string realm_;
  std::string nonce_;
  SaslQop negotiated_qop_ = SaslQop::kAuth;
  uint32_t server_max_buffer_ = kDigestMaxBuffer;
};

}  // namespace spindle::ipc
