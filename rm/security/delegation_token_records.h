// What the RM's state store keeps for RM delegation tokens, and its bytes, as
// Hadoop's RMStateStore keeps them (RMDelegationTokenSecretManager's
// storeNewMasterKey / storeNewToken / updateStoredToken):
//
//   DelegationKeyRecord    one delegation master key; Hadoop's DelegationKey
//                          Writable:
//                            VInt keyId, VLong expiryDate,
//                            VInt length, then the key bytes
//                          (writable_io.h; Java writes length -1 for a key
//                          without bytes, which no RM stores and which is
//                          refused here). {2, 1700000000000, 8 bytes} ->
//                          02 8a 01 8b cf e5 68 00 08 <8 bytes>.
//   DelegationTokenRecord  one issued token and its renew date; the
//                          RMDelegationTokenIdentifierDataProto
//                          {token_identifier = 1 (YARNDelegationTokenIdentifierProto,
//                          all seven fields, as token_identifiers.h writes
//                          the identifier), renewDate = 2}.
//
// The token's password is not stored: it is HMAC-SHA1 of its master key over
// the identifier bytes, recomputed at recovery (as Java's
// addPersistedDelegationToken does). The sequence number of the last issued
// token is a plain int32 the store keeps as it likes.
//
// Decoding never trusts its input: anything malformed, truncated, followed by
// extra bytes or missing a field is Corruption naming the record and what was
// wrong.
//
// Thread-safety: values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"
#include "rm/security/token_identifiers.h"

namespace spindle::rm {

// A delegation master key (Java: DelegationKey). Never log `bytes`.
struct DelegationKeyRecord {
  int32_t key_id = 0;
  int64_t expiry_date_ms = 0;  // wall-clock ms
  std::string bytes;

  bool operator==(const DelegationKeyRecord&) const = default;
};

// An issued token (Java: RMDelegationTokenIdentifierData): its identifier and
// the wall-clock ms until which it is valid without another renewal.
struct DelegationTokenRecord {
  RmDelegationTokenIdentifier identifier;
  int64_t renew_date_ms = 0;

  bool operator==(const DelegationTokenRecord&) const = default;
};

std::string EncodeDelegationKeyRecord(const DelegationKeyRecord& key);
// Corruption("delegation key: ...") for bytes that are not exactly one
// DelegationKey Writable with key bytes.
Result<DelegationKeyRecord> DecodeDelegationKeyRecord(std::string_view bytes);

std::string EncodeDelegationTokenRecord(const DelegationTokenRecord& token);
// Corruption("delegation token record: ...") for bytes that are not an
// RMDelegationTokenIdentifierDataProto with both fields set. Missing fields
// inside the identifier take the proto defaults, as in
// DecodeRmDelegationTokenIdentifier.
Result<DelegationTokenRecord> DecodeDelegationTokenRecord(std::string_view bytes);

}  // namespace spindle::rm
