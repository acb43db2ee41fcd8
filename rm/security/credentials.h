// Credentials: Hadoop's token storage ("HDTS"), the blob in
// ContainerLaunchContextProto.tokens and the NM's container_tokens file
// (WIRE.md 6.5; Java: org.apache.hadoop.security.Credentials):
//
//   "HDTS" (48 44 54 53), one version byte, then
//   0 = WRITABLE  VInt n, n x {Text alias, Token}, VInt m, m x {Text alias,
//                 VInt length, bytes}; Token = VInt idLen, id, VInt pwLen,
//                 pw, Text kind, Text service. The only format Hadoop 2.x
//                 reads, and the one the RM writes.
//   1 = PROTOBUF  one varint-delimited CredentialsProto (Hadoop 3.x).
//
// Entries keep the order they were read or added in (Java's hash maps have
// no meaningful order, and no reader depends on one); adding an alias that
// exists replaces its value in place, as Java's map put does. Aliases,
// identifiers, passwords, kinds, services and secrets are kept byte for byte,
// so parsing and re-writing a canonical WRITABLE blob gives the same bytes.
// As in Java, bytes after the body are ignored.
//
// Thread-safety: a value; not synchronised.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "rm/security/token.h"

namespace spindle::rm {

enum class CredentialsFormat : uint8_t { kWritable = 0, kProtobuf = 1 };

class Credentials {
 public:
  struct TokenEntry {
    std::string alias;
    Token token;
    bool operator==(const TokenEntry&) const = default;
  };
  struct SecretEntry {
    std::string alias;
    std::string secret;
    bool operator==(const SecretEntry&) const = default;
  };

  // Parses either format. Malformed input (bad magic, unknown version,
  // truncation, negative or overlong lengths, a CredentialsProto that does
  // not parse) fails with Corruption naming the byte offset; never crashes.
  static Result<Credentials> Parse(std::string_view data);

  std::string Serialize(CredentialsFormat format = CredentialsFormat::kWritable) const;

  // Adds, or replaces in place, the token under `alias`.
  void AddToken(std::string alias, Token token);
  void AddSecret(std::string alias, std::string secret);
  const Token* FindToken(std::string_view alias) const;
  const std::string* FindSecret(std::string_view alias) const;

  const std::vector<TokenEntry>& tokens() const { return tokens_; }
  const std::vector<SecretEntry>& secrets() const { return secrets_; }
  // The format Parse() read; kWritable for a Credentials built in code.
  CredentialsFormat source_format() const { return source_format_; }

  bool operator==(const Credentials& other) const {
    return tokens_ == other.tokens_ && secrets_ == other.secrets_;
  }

 private:
  std::vector<TokenEntry> tokens_;
  std::vector<SecretEntry> secrets_;
  // alias -> position in tokens_ / secrets_, so that parsing stays linear.
  std::unordered_map<std::string, size_t> token_index_;
  std::unordered_map<std::string, size_t> secret_index_;
  CredentialsFormat source_format_ = CredentialsFormat::kWritable;
};

// One Token in its Writable form (VInt idLen, id, VInt pwLen, pw, Text
// kind, Text service), as Token.decodeFromUrlString reads it once the URL
// string is decoded. Corruption on truncation or bad lengths.
Result<Token> ParseWritableToken(std::string_view data);
// The Writable form of one token (what ParseWritableToken reads).
std::string WriteWritableToken(const Token& token);

// Token.encodeToUrlString: the Writable form in URL-safe Base64 without
// padding. Decoding (decodeFromUrlString) takes either alphabet, with or
// without padding, as commons-codec's decoder does; Corruption or
// InvalidArgument on text that is no token.
std::string EncodeTokenUrlString(const Token& token);
Result<Token> DecodeTokenUrlString(std::string_view text);

// What the RM does to the submitted AM launch context's tokens before
// startContainers (AMLauncher.setupTokens, WIRE.md 7.1): parse them (empty
// means none), add the AMRM token under its service as alias (the empty
// string), keep everything else byte for byte, and write WRITABLE.
Result<std::string> AddAmrmTokenToLaunchTokens(std::string_view submitted_tokens,
                                               const Token& amrm_token);

}  // namespace spindle::rm
