#include "rm/security/delegation_token_records.h"

#include <limits>

#include "rm/security/writable_io.h"
#include "yarn_security_token.pb.h"
#include "yarn_server_resourcemanager_recovery.pb.h"

namespace spindle::rm {

namespace {

constexpr char kKeyWhat[] = "delegation key";
constexpr char kTokenWhat[] = "delegation token record";

}  // namespace

std::string EncodeDelegationKeyRecord(const DelegationKeyRecord& key) {
  std::string out;
  WriteVInt(key.key_id, &out);
  WriteVLong(key.expiry_date_ms, &out);
  WriteText(key.bytes, &out);
  return out;
}

Result<DelegationKeyRecord> DecodeDelegationKeyRecord(std::string_view bytes) {
  WritableReader reader(bytes, kKeyWhat);
  DelegationKeyRecord key;
  ASSIGN_OR_RETURN(key.key_id, reader.ReadVInt());
  ASSIGN_OR_RETURN(key.expiry_date_ms, reader.ReadVLong());
  const size_t length_offset = reader.offset();
  ASSIGN_OR_RETURN(const int32_t length, reader.ReadVInt());
  // Java writes -1 for a key without bytes (keyBytes == null).
  if (length == -1)
    return reader.Error("key " + std::to_string(key.key_id) + " has no key bytes", length_offset);
  if (length < 0) {
    return reader.Error("negative length " + std::to_string(length) + " of the key bytes",
                        length_offset);
  }
  ASSIGN_OR_RETURN(const std::string_view key_bytes, reader.ReadBytes(static_cast<size_t>(length)));
  key.bytes = std::string(key_bytes);
  if (reader.remaining() != 0) {
    return reader.Error(std::to_string(reader.remaining()) + " trailing bytes", reader.offset());
  }
  return key;
}

std::string EncodeDelegationTokenRecord(const DelegationTokenRecord& token) {
  hadoop::yarn::RMDelegationTokenIdentifierDataProto proto;
  ToProto(token.identifier, proto.mutable_token_identifier());
  proto.set_renewdate(token.renew_date_ms);
  return proto.SerializeAsString();
}

Result<DelegationTokenRecord> DecodeDelegationTokenRecord(std::string_view bytes) {
  hadoop::yarn::RMDelegationTokenIdentifierDataProto proto;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::Corruption(std::string(kTokenWhat) +
                              ": not an RMDelegationTokenIdentifierDataProto (" +
                              std::to_string(bytes.size()) + " bytes)");
  }
  if (!proto.has_token_identifier()) {
    return Status::Corruption(std::string(kTokenWhat) + ": no token_identifier");
  }
  if (!proto.has_renewdate()) {
    return Status::Corruption(std::string(kTokenWhat) + ": no renewDate");
  }
  return DelegationTokenRecord{FromProto(proto.token_identifier()), proto.renewdate()};
}

}  // namespace spindle::rm
