#include "wire/ipc/digest_md5_security_layer.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <tuple>

#include "base/crypto.h"

namespace spindle::ipc {

namespace {

// RFC 2831 2.3 and 2.4.
constexpr char kClientSigningMagic[] =
    "Digest session key to client-to-server signing key magic constant";
constexpr char kServerSigningMagic[] =
    "Digest session key to server-to-client signing key magic constant";
constexpr char kClientSealingMagic[] =
    "Digest H(A1) to client-to-server sealing key magic constant";
constexpr char kServerSealingMagic[] =
    "Digest H(A1) to server-to-client sealing key magic constant";

constexpr size_t kMacLength = 10;
constexpr size_t kTrailerLength = 6;  // message type (2) + sequence number (4)
constexpr size_t kDesBlock = 8;
// The message type of every wrapped message (RFC 2831: 1).
constexpr char kMessageType[2] = {0x00, 0x01};

std::string BigEndian32(uint32_t value) {
  std::string out(4, '\0');
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((value >> (24 - 8 * i)) & 0xff);
  return out;
}

uint32_t ReadBigEndian(std::string_view bytes) {
  uint32_t value = 0;
  for (char c : bytes) value = (value << 8) | static_cast<unsigned char>(c);
  return value;
}

// HMAC-MD5(key, seq | message), first 10 bytes.
std::string Mac(const std::string& key, std::string_view seq, std::string_view message) {
  static EVP_MD* const kMd5 = EVP_MD_fetch(nullptr, "MD5", nullptr);
  std::string input;
  input.reserve(seq.size() + message.size());
  input.append(seq).append(message);
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(kMd5, key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), out, &length);
  return std::string(reinterpret_cast<const char*>(out), kMacLength);
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

// Seven key bytes spread over eight, each with odd parity in its low bit
// (DigestMD5Base.addDesParity).
std::string DesKeyWithParity(std::string_view seven) {
  uint64_t bits = 0;
  for (char c : seven) bits = (bits << 8) | static_cast<unsigned char>(c);
  std::string key(8, '\0');
  for (int i = 0; i < 8; ++i) {
    unsigned int b = static_cast<unsigned int>((bits >> (7 * (7 - i))) & 0x7f) << 1;
    b |= (__builtin_popcount(b) & 1) ^ 1;
    key[i] = static_cast<char>(b);
  }
  return key;
}

}  // namespace

// One direction's keys, sequence number and (auth-conf) cipher state.
struct DigestMd5SecurityLayer::Direction {
  std::string integrity_key;
  uint32_t sequence = 0;
  EVP_CIPHER_CTX* cipher = nullptr;
  ~Direction() { EVP_CIPHER_CTX_free(cipher); }
};

DigestMd5SecurityLayer::DigestMd5SecurityLayer(SaslQop qop, uint32_t peer_max_buffer)
    : qop_(qop),
      peer_max_buffer_(peer_max_buffer),
      send_(std::make_unique<Direction>()),
      receive_(std::make_unique<Direction>()) {}

DigestMd5SecurityLayer::~DigestMd5SecurityLayer() = default;

Result<std::unique_ptr<DigestMd5SecurityLayer>> DigestMd5SecurityLayer::Create(
    std::string_view h_a1, SaslQop qop, std::string_view cipher, DigestMd5Side side,
    uint32_t peer_max_buffer) {
  if (h_a1.size() != 16) return Status::InvalidArgument("DIGEST-MD5: H(A1) is not 16 bytes");
  if (qop == SaslQop::kAuth) {
    return Status::InvalidArgument("DIGEST-MD5: qop auth has no security layer");
  }
  if (qop == SaslQop::kAuthConf && cipher != kDigestCipher3Des) {
    return Status::Unauthorized("DIGEST-MD5: server does not support cipher: " +
                                std::string(cipher));
  }
  std::unique_ptr<DigestMd5SecurityLayer> layer(new DigestMd5SecurityLayer(qop, peer_max_buffer));
  const bool client = side == DigestMd5Side::kClient;
  const std::string kic = Md5(std::string(h_a1) + kClientSigningMagic);
  const std::string kis = Md5(std::string(h_a1) + kServerSigningMagic);
  layer->send_->integrity_key = client ? kic : kis;
  layer->receive_->integrity_key = client ? kis : kic;
  if (qop == SaslQop::kAuthConf) {
    // 3des and des use all of H(A1) (rc4-40 and rc4-56 would take 5 and 7).
    const std::string kcc = Md5(std::string(h_a1) + kClientSealingMagic);
    const std::string kcs = Md5(std::string(h_a1) + kServerSealingMagic);
    for (const auto& [direction, kc, encrypt] :
         {std::tuple{layer->send_.get(), client ? kcc : kcs, 1},
          std::tuple{layer->receive_.get(), client ? kcs : kcc, 0}}) {
      // Triple DES as EDE with keys K1 K2 K1 from Kc[0..7) and Kc[7..14);
      // the IV is Kc[8..16).
      const std::string k1 = DesKeyWithParity(std::string_view(kc).substr(0, 7));
      const std::string k2 = DesKeyWithParity(std::string_view(kc).substr(7, 7));
      const std::string key = k1 + k2 + k1;
      direction->cipher = EVP_CIPHER_CTX_new();
      if (direction->cipher == nullptr ||
          EVP_CipherInit_ex(direction->cipher, EVP_des_ede3_cbc(), nullptr,
                            reinterpret_cast<const unsigned char*>(key.data()),
                            reinterpret_cast<const unsigned char*>(kc.data() + 8), encrypt) != 1 ||
          EVP_CIPHER_CTX_set_padding(direction->cipher, 0) != 1) {
        return Status::Internal("DIGEST-MD5: cannot set up 3DES-CBC");
      }
    }
  }
  return layer;
}

size_t DigestMd5SecurityLayer::max_send_size() const {
  // DigestMD5Client/Server: rawSendSize = sendMaxBufSize - 16 (auth-int) or
  // - 26 (auth-conf).
  const size_t overhead = qop_ == SaslQop::kAuthConf ? 26 : 16;
  return peer_max_buffer_ > overhead ? peer_max_buffer_ - overhead : 1;
}

Result<std::string> DigestMd5SecurityLayer::Wrap(std::string_view message) {
  if (message.empty()) return std::string();  // as Java: nothing to protect
  const std::string seq = BigEndian32(send_->sequence++);
  const std::string mac = Mac(send_->integrity_key, seq, message);
  std::string out;
  if (qop_ == SaslQop::kAuthInt) {
    out.reserve(message.size() + kMacLength + kTrailerLength);
    out.append(message).append(mac);
  } else {
    const size_t pad = kDesBlock - (message.size() + kMacLength) % kDesBlock;
    std::string plain;
    plain.reserve(message.size() + pad + kMacLength);
    plain.append(message).append(pad, static_cast<char>(pad)).append(mac);
    out.resize(plain.size());
    int written = 0;
    if (EVP_CipherUpdate(send_->cipher, reinterpret_cast<unsigned char*>(out.data()), &written,
                         reinterpret_cast<const unsigned char*>(plain.data()),
                         static_cast<int>(plain.size())) != 1 ||
        static_cast<size_t>(written) != plain.size()) {
      return Status::Internal("DIGEST-MD5: 3DES encryption failed");
    }
  }
  out.append(kMessageType, 2).append(seq);
  return out;
}

Result<std::string> DigestMd5SecurityLayer::Unwrap(std::string_view wrapped) {
  if (wrapped.empty()) return std::string();
  const size_t body_min = qop_ == SaslQop::kAuthInt ? kMacLength : 2 * kDesBlock;
  if (wrapped.size() < body_min + kTrailerLength) {
    return Status::Unauthorized("DIGEST-MD5: wrapped message too short (" +
                                std::to_string(wrapped.size()) + " bytes)");
  }
  const std::string_view trailer = wrapped.substr(wrapped.size() - kTrailerLength);
  const std::string_view body = wrapped.substr(0, wrapped.size() - kTrailerLength);
  const std::string_view type = trailer.substr(0, 2);
  const std::string_view seq = trailer.substr(2);
  std::string message;
  std::string_view mac;
  std::string plain;
  if (qop_ == SaslQop::kAuthInt) {
    message.assign(body.substr(0, body.size() - kMacLength));
    mac = body.substr(body.size() - kMacLength);
  } else {
    if (body.size() % kDesBlock != 0) {
      return Status::Unauthorized("DIGEST-MD5: Illegal block sizes used with chosen cipher");
    }
    plain.resize(body.size());
    int written = 0;
    if (EVP_CipherUpdate(receive_->cipher, reinterpret_cast<unsigned char*>(plain.data()), &written,
                         reinterpret_cast<const unsigned char*>(body.data()),
                         static_cast<int>(body.size())) != 1 ||
        static_cast<size_t>(written) != body.size()) {
      return Status::Unauthorized("DIGEST-MD5: 3DES decryption failed");
    }
    mac = std::string_view(plain).substr(plain.size() - kMacLength);
    const size_t padded = plain.size() - kMacLength;
    const size_t pad = static_cast<unsigned char>(plain[padded - 1]);
    if (pad == 0 || pad > kDesBlock || pad > padded) {
      return Status::Unauthorized("DIGEST-MD5: bad padding in a wrapped message");
    }
    message.assign(plain, 0, padded - pad);
  }
  if (!ConstantTimeEquals(mac, Mac(receive_->integrity_key, seq, message))) {
    return Status::Unauthorized("DIGEST-MD5: integrity check failed on a wrapped message");
  }
  const uint32_t got = ReadBigEndian(seq);
  if (got != receive_->sequence) {
    return Status::Unauthorized(
        "DIGEST-MD5: Out of order sequencing of messages. Got: " + std::to_string(got) +
        " Expected: " + std::to_string(receive_->sequence));
  }
  if (type != std::string_view(kMessageType, 2)) {
    return Status::Unauthorized("DIGEST-MD5: invalid message type: " +
                                std::to_string(ReadBigEndian(type)));
  }
  ++receive_->sequence;
  return message;
}

}  // namespace spindle::ipc
