// Token: a Hadoop token as four byte strings (WIRE.md 6.1), the form in which
// the secret managers hand tokens out; ToTokenProto() fills the
// hadoop.common.TokenProto that YARN messages carry, and Credentials holds
// them in the Writable form.
//
// Thread-safety: values.
#pragma once

#include <string>

#include "security.pb.h"

namespace spindle::rm {

// Token kinds (Token.kind, the TokenIdentifier's KIND).
inline constexpr char kAmrmTokenKind[] = "YARN_AM_RM_TOKEN";
inline constexpr char kNmTokenKind[] = "NMToken";
inline constexpr char kContainerTokenKind[] = "ContainerToken";
inline constexpr char kRmDelegationTokenKind[] = "RM_DELEGATION_TOKEN";

struct Token {
  std::string identifier;  // raw identifier bytes (a serialized *TokenIdentifierProto)
  std::string password;    // raw password bytes: HMAC-SHA1(master key, identifier)
  std::string kind;
  std::string service;  // "IP:port" of the server the token is for; empty for AMRM and
                        // RM delegation tokens as the RM makes them

  bool operator==(const Token&) const = default;
};

// All four TokenProto fields are required; every one is set (service too,
// when empty).
void ToTokenProto(const Token& token, hadoop::common::TokenProto* proto);
hadoop::common::TokenProto ToTokenProto(const Token& token);
Token FromTokenProto(const hadoop::common::TokenProto& proto);

}  // namespace spindle::rm
