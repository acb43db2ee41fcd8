// SaslSecurityLayer: what a SASL mechanism that negotiated integrity
// (auth-int) or privacy (auth-conf) does to every later byte of the
// connection: wrap what one side sends, unwrap what it receives (Java's
// SaslServer/SaslClient wrap and unwrap).
//
// Hadoop puts each wrapped buffer in its own frame (sasl_wrap_framing.h).
//
// Thread contract: Wrap() and Unwrap() may run at the same time on two
// threads (the sender's and the reader's); each must not run concurrently
// with itself, and calls of each must come in the order of the bytes on the
// wire (both sides count messages).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/result.h"
#include "wire/ipc/sasl_qop.h"

namespace spindle::ipc {

class SaslSecurityLayer {
 public:
  virtual ~SaslSecurityLayer() = default;

  // Protects one message. Errors only when the mechanism fails (they close
  // the connection).
  virtual Result<std::string> Wrap(std::string_view message) = 0;
  // Checks (and decrypts) one wrapped message. A forged, tampered, replayed
  // or reordered message is Unauthorized: the connection must close.
  virtual Result<std::string> Unwrap(std::string_view wrapped) = 0;

  // The protection negotiated (auth-int or auth-conf).
  virtual SaslQop qop() const = 0;
  // The largest message Wrap() may be given so that the peer accepts the
  // result (Sasl.RAW_SEND_SIZE): the peer's maximum buffer less this
  // mechanism's overhead.
  virtual size_t max_send_size() const = 0;
};

}  // namespace spindle::ipc
