// DIGEST-MD5's security layer (RFC 2831 2.3 and 2.4) as Java's
// com.sun.security.sasl.digest (DigestMD5Base.DigestIntegrity /
// DigestPrivacy) runs it, which is what Hadoop's TOKEN authentication wraps
// with when hadoop.rpc.protection is integrity or privacy:
//
//   auth-int:  message | HMAC-MD5(Ki, seq | message)[0..10] | 00 01 | seq
//   auth-conf: 3DES-CBC(Kc, message | pad | HMAC-MD5(Ki, seq | message)[0..10])
//              | 00 01 | seq
//
// with seq a 4-byte big-endian count per direction from 0, Ki = MD5(H(A1) |
// the RFC's signing magic) and Kc = MD5(H(A1) | the sealing magic) per
// direction, and CBC chained across messages (one cipher state per
// direction, IV = Kc[8..16]). Of the ciphers a Java server offers ("3des,
// rc4,des,rc4-56,rc4-40") a Java client takes the first of the highest
// strength, 3des (DigestMD5Client.findCipherAndStrength): that is the one
// implemented here, on OpenSSL's libcrypto.
//
// Java discards a message whose MAC does not verify and goes on (the next
// one then fails its sequence check); this layer refuses it at once.
//
// Thread contract: see SaslSecurityLayer (the two directions share nothing).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "wire/ipc/sasl_security_layer.h"

namespace spindle::ipc {

// The auth-conf cipher this implementation offers and accepts.
inline constexpr char kDigestCipher3Des[] = "3des";

enum class DigestMd5Side { kClient, kServer };

class DigestMd5SecurityLayer : public SaslSecurityLayer {
 public:
  // `h_a1` is the raw 16-byte H(A1) of the authentication; `qop` auth-int or
  // auth-conf (then `cipher` must be "3des"); `peer_max_buffer` the peer's
  // maxbuf (65536 when it sent none).
  static Result<std::unique_ptr<DigestMd5SecurityLayer>> Create(std::string_view h_a1, SaslQop qop,
                                                                std::string_view cipher,
                                                                DigestMd5Side side,
                                                                uint32_t peer_max_buffer);
  ~DigestMd5SecurityLayer() override;

  Result<std::string> Wrap(std::string_view message) override;
  Result<std::string> Unwrap(std::string_view wrapped) override;
  SaslQop qop() const override { return qop_; }
  size_t max_send_size() const override;

 private:
  struct Direction;
  DigestMd5SecurityLayer(SaslQop qop, uint32_t peer_max_buffer);

  const SaslQop qop_;
  const uint32_t peer_max_buffer_;
  std::unique_ptr<Direction> send_;
  std::unique_ptr<Direction> receive_;
};

}  // namespace spindle::ipc
