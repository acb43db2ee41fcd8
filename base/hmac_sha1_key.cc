#include "base/hmac_sha1_key.h"

#include <glog/logging.h>
#include <openssl/evp.h>

#include <array>
#include <cstring>

namespace spindle {

namespace {

constexpr size_t kSha1BlockBytes = 64;
constexpr size_t kSha1DigestBytes = 20;

const EVP_MD* Sha1() {
  // Fetched once: OpenSSL 3 looks a digest up in its provider tables on
  // every EVP_sha1()-style use.
  static EVP_MD* const kSha1 = EVP_MD_fetch(nullptr, "SHA1", nullptr);
  CHECK(kSha1 != nullptr) << "OpenSSL has no SHA1";
  return kSha1;
}

struct MdContextDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using MdContext = std::unique_ptr<EVP_MD_CTX, MdContextDeleter>;

MdContext NewContext() {
  MdContext ctx(EVP_MD_CTX_new());
  CHECK(ctx != nullptr) << "out of memory for a digest context";
  return ctx;
}

// A digest state that has hashed one block: the key XOR `pad`.
MdContext PaddedKeyState(const std::array<unsigned char, kSha1BlockBytes>& block,
                         unsigned char pad) {
  std::array<unsigned char, kSha1BlockBytes> padded;
  for (size_t i = 0; i < kSha1BlockBytes; ++i) padded[i] = block[i] ^ pad;
  MdContext ctx = NewContext();
  CHECK_EQ(EVP_DigestInit_ex(ctx.get(), Sha1(), nullptr), 1);
  CHECK_EQ(EVP_DigestUpdate(ctx.get(), padded.data(), padded.size()), 1);
  return ctx;
}

// This thread's scratch context: copying a state into a context that
// already holds a SHA-1 state reuses its memory.
EVP_MD_CTX* ThreadScratch() {
  thread_local MdContext scratch = NewContext();
  return scratch.get();
}

}  // namespace

struct HmacSha1Key::DigestStates {
  MdContext inner;  // after (key ^ 0x36...)
  MdContext outer;  // after (key ^ 0x5c...)
};

HmacSha1Key::HmacSha1Key(std::string_view key) : states_(std::make_unique<DigestStates>()) {
  // RFC 2104: a key longer than a block is replaced by its digest; a shorter
  // one is padded with zeros to a block.
  std::array<unsigned char, kSha1BlockBytes> block{};
  if (key.size() > kSha1BlockBytes) {
    unsigned int len = 0;
    CHECK_EQ(EVP_Digest(key.data(), key.size(), block.data(), &len, Sha1(), nullptr), 1);
  } else {
    std::memcpy(block.data(), key.data(), key.size());
  }
  states_->inner = PaddedKeyState(block, 0x36);
  states_->outer = PaddedKeyState(block, 0x5c);
}

HmacSha1Key::~HmacSha1Key() = default;

std::string HmacSha1Key::Sign(std::string_view data) const {
  EVP_MD_CTX* ctx = ThreadScratch();
  unsigned char inner_digest[kSha1DigestBytes];
  unsigned int len = 0;
  CHECK_EQ(EVP_MD_CTX_copy_ex(ctx, states_->inner.get()), 1);
  CHECK_EQ(EVP_DigestUpdate(ctx, data.data(), data.size()), 1);
  CHECK_EQ(EVP_DigestFinal_ex(ctx, inner_digest, &len), 1);
  std::string out(kSha1DigestBytes, '\0');
  CHECK_EQ(EVP_MD_CTX_copy_ex(ctx, states_->outer.get()), 1);
  CHECK_EQ(EVP_DigestUpdate(ctx, inner_digest, sizeof inner_digest), 1);
  CHECK_EQ(EVP_DigestFinal_ex(ctx, reinterpret_cast<unsigned char*>(out.data()), &len), 1);
  return out;
}

}  // namespace spindle
