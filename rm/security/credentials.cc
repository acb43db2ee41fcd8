#include "rm/security/credentials.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <limits>

#include "base/base64.h"
#include "rm/security/writable_io.h"

namespace spindle::rm {

namespace {

constexpr std::string_view kMagic = "HDTS";
constexpr std::string_view kWhat = "credentials";

// Java reads a count with readVInt and loops while i < count, so a negative
// count reads nothing; Hadoop never writes one, and we refuse it.
Result<int32_t> ReadCount(WritableReader& in, std::string_view field) {
  const size_t start = in.offset();
  ASSIGN_OR_RETURN(const int32_t count, in.ReadVInt());
  if (count < 0) {
    return in.Error("negative " + std::string(field) + " count " + std::to_string(count), start);
  }
  return count;
}

Status ReadWritableBody(WritableReader& in, Credentials* credentials) {
  ASSIGN_OR_RETURN(const int32_t num_tokens, ReadCount(in, "token"));
  for (int32_t i = 0; i < num_tokens; ++i) {
    ASSIGN_OR_RETURN(std::string_view alias, in.ReadLengthPrefixed("token alias"));
    ASSIGN_OR_RETURN(std::string_view identifier, in.ReadLengthPrefixed("token identifier"));
    ASSIGN_OR_RETURN(std::string_view password, in.ReadLengthPrefixed("token password"));
    ASSIGN_OR_RETURN(std::string_view kind, in.ReadLengthPrefixed("token kind"));
    ASSIGN_OR_RETURN(std::string_view service, in.ReadLengthPrefixed("token service"));
    credentials->AddToken(std::string(alias), Token{std::string(identifier), std::string(password),
                                                    std::string(kind), std::string(service)});
  }
  ASSIGN_OR_RETURN(const int32_t num_secrets, ReadCount(in, "secret"));
  for (int32_t i = 0; i < num_secrets; ++i) {
    ASSIGN_OR_RETURN(std::string_view alias, in.ReadLengthPrefixed("secret alias"));
    ASSIGN_OR_RETURN(std::string_view secret, in.ReadLengthPrefixed("secret"));
    credentials->AddSecret(std::string(alias), std::string(secret));
  }
  return Status::OK();
}

Status ReadProtobufBody(std::string_view data, size_t offset, Credentials* credentials) {
  std::string_view rest = data.substr(offset);
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(rest.data()),
      static_cast<int>(std::min<size_t>(rest.size(), std::numeric_limits<int>::max())));
  uint32_t length = 0;
  if (!in.ReadVarint32(&length)) {
    return Status::Corruption("credentials: truncated CredentialsProto length at offset " +
                              std::to_string(offset));
  }
  const size_t body = offset + static_cast<size_t>(in.CurrentPosition());
  if (length > data.size() - body) {
    return Status::Corruption("credentials: CredentialsProto of " + std::to_string(length) +
                              " bytes overruns the data (" + std::to_string(data.size() - body) +
                              " left) at offset " + std::to_string(offset));
  }
  hadoop::common::CredentialsProto proto;
  // ParsePartial + IsInitialized: the same verdict as ParseFromArray, without
  // libprotobuf logging an error for every bad blob.
  if (!proto.ParsePartialFromArray(data.data() + body, static_cast<int>(length))) {
    return Status::Corruption("credentials: CredentialsProto does not parse at offset " +
                              std::to_string(body));
  }
  if (!proto.IsInitialized()) {
    return Status::Corruption("credentials: CredentialsProto at offset " + std::to_string(body) +
                              " lacks required fields: " + proto.InitializationErrorString());
  }
  for (const auto& kv : proto.tokens()) {
    credentials->AddToken(kv.alias(), FromTokenProto(kv.token()));
  }
  for (const auto& kv : proto.secrets()) credentials->AddSecret(kv.alias(), kv.secret());
  return Status::OK();
}

}  // namespace

Result<Token> ParseWritableToken(std::string_view data) {
  WritableReader in(data, "token");
  ASSIGN_OR_RETURN(std::string_view identifier, in.ReadLengthPrefixed("token identifier"));
  ASSIGN_OR_RETURN(std::string_view password, in.ReadLengthPrefixed("token password"));
  ASSIGN_OR_RETURN(std::string_view kind, in.ReadLengthPrefixed("token kind"));
  ASSIGN_OR_RETURN(std::string_view service, in.ReadLengthPrefixed("token service"));
  return Token{std::string(identifier), std::string(password), std::string(kind),
               std::string(service)};
}

std::string WriteWritableToken(const Token& token) {
  std::string out;
  WriteText(token.identifier, &out);
  WriteText(token.password, &out);
  WriteText(token.kind, &out);
  WriteText(token.service, &out);
  return out;
}

std::string EncodeTokenUrlString(const Token& token) {
  return Base64UrlEncode(WriteWritableToken(token));
}

Result<Token> DecodeTokenUrlString(std::string_view text) {
  ASSIGN_OR_RETURN(const std::string raw, Base64DecodeLenient(text));
  return ParseWritableToken(raw);
}

Result<Credentials> Credentials::Parse(std::string_view data) {
  WritableReader in(data, kWhat);
  if (data.size() < kMagic.size() || data.substr(0, kMagic.size()) != kMagic) {
    return Status::Corruption("credentials: bad header (want \"HDTS\") at offset 0");
  }
  RETURN_NOT_OK(in.ReadBytes(kMagic.size()).status());
  ASSIGN_OR_RETURN(const uint8_t version, in.ReadByte());
  Credentials credentials;
  switch (version) {
    case static_cast<uint8_t>(CredentialsFormat::kWritable):
      RETURN_NOT_OK(ReadWritableBody(in, &credentials));
      credentials.source_format_ = CredentialsFormat::kWritable;
      break;
    case static_cast<uint8_t>(CredentialsFormat::kProtobuf):
      RETURN_NOT_OK(ReadProtobufBody(data, in.offset(), &credentials));
      credentials.source_format_ = CredentialsFormat::kProtobuf;
      break;
    default:
      return in.Error("unknown token storage version " + std::to_string(version), kMagic.size());
  }
  return credentials;
}

std::string Credentials::Serialize(CredentialsFormat format) const {
  std::string out(kMagic);
  out.push_back(static_cast<char>(format));
  if (format == CredentialsFormat::kProtobuf) {
    hadoop::common::CredentialsProto proto;
    for (const TokenEntry& entry : tokens_) {
      auto* kv = proto.add_tokens();
      kv->set_alias(entry.alias);
      ToTokenProto(entry.token, kv->mutable_token());
    }
    for (const SecretEntry& entry : secrets_) {
      auto* kv = proto.add_secrets();
      kv->set_alias(entry.alias);
      kv->set_secret(entry.secret);
    }
    const std::string body = proto.SerializeAsString();
    // writeDelimitedTo: a protobuf varint length, then the message.
    for (uint64_t length = body.size();; length >>= 7) {
      if (length < 0x80) {
        out.push_back(static_cast<char>(length));
        break;
      }
      out.push_back(static_cast<char>((length & 0x7f) | 0x80));
    }
    out += body;
    return out;
  }
  WriteVInt(static_cast<int32_t>(tokens_.size()), &out);
  for (const TokenEntry& entry : tokens_) {
    WriteText(entry.alias, &out);
    out += WriteWritableToken(entry.token);
  }
  WriteVInt(static_cast<int32_t>(secrets_.size()), &out);
  for (const SecretEntry& entry : secrets_) {
    WriteText(entry.alias, &out);
    WriteText(entry.secret, &out);
  }
  return out;
}

void Credentials::AddToken(std::string alias, Token token) {
  auto [it, inserted] = token_index_.try_emplace(alias, tokens_.size());
  if (!inserted) {
    tokens_[it->second].token = std::move(token);
    return;
  }
  tokens_.push_back(TokenEntry{std::move(alias), std::move(token)});
}

void Credentials::AddSecret(std::string alias, std::string secret) {
  auto [it, inserted] = secret_index_.try_emplace(alias, secrets_.size());
  if (!inserted) {
    secrets_[it->second].secret = std::move(secret);
    return;
  }
  secrets_.push_back(SecretEntry{std::move(alias), std::move(secret)});
}

const Token* Credentials::FindToken(std::string_view alias) const {
  auto it = token_index_.find(std::string(alias));
  return it == token_index_.end() ? nullptr : &tokens_[it->second].token;
}

const std::string* Credentials::FindSecret(std::string_view alias) const {
  auto it = secret_index_.find(std::string(alias));
  return it == secret_index_.end() ? nullptr : &secrets_[it->second].secret;
}

Result<std::string> AddAmrmTokenToLaunchTokens(std::string_view submitted_tokens,
                                               const Token& amrm_token) {
  Credentials credentials;
  if (!submitted_tokens.empty()) {
    ASSIGN_OR_RETURN(credentials, Credentials::Parse(submitted_tokens));
  }
  credentials.AddToken(amrm_token.service, amrm_token);
  return credentials.Serialize(CredentialsFormat::kWritable);
}

}  // namespace spindle::rm
