// hadoop.security.auth_to_local: the rules that turn an authenticated
// Kerberos principal into the short (operating-system) user name that RPC
// calls run as, evaluated exactly as Hadoop 3.3's KerberosName does:
//
//   DEFAULT                       name@<default realm> and name/host@<default
//                                 realm> give "name"
//   RULE:[n:fmt](match)s/from/to/g/L
//                                 applies to names of n components; fmt builds
//                                 a string from $0 (realm), $1, $2...; it must
//                                 fully match `match`; then `from` is replaced
//                                 by `to` (first match, every match with g);
//                                 /L lower-cases the result (3.3)
//
// Rules are tried in order; the first that applies wins. With the "hadoop"
// mechanism (hadoop.security.auth_to_local.mechanism, the default) a result
// holding '/' or '@' is an error and a name no rule applies to fails with
// "No rules applied to <name>"; with "mit" such a name maps to itself.
//
// Regular expressions are Java's in Hadoop; Spindle compiles them as
// ECMAScript (std::regex), which agrees on the constructs auth_to_local rules
// use (classes, anchors, groups, quantifiers). A rule whose expression
// ECMAScript cannot compile is refused when the rules are parsed, never
// skipped. Replacement strings follow Java's Matcher rules ($n, \x).
//
// Thread contract: immutable after Parse; ShortName may be called from any
// thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "rm/config/configuration.h"
#include "security/authentication_method.h"
#include "security/kerberos_name.h"

namespace spindle::security {

enum class RuleMechanism { kHadoop, kMit };

inline constexpr char kAuthToLocalKey[] = "hadoop.security.auth_to_local";
inline constexpr char kAuthToLocalMechanismKey[] = "hadoop.security.auth_to_local.mechanism";

class AuthToLocal {
 public:
  struct Rule;

  // Parses a rule list (rules separated by white space); "Invalid rule: ..."
  // names the unparsed rest, as Java's IllegalArgumentException does.
  // `default_realm` is what DEFAULT compares realms with.
  static Result<AuthToLocal> Parse(std::string_view rules, RuleMechanism mechanism,
                                   std::string default_realm);

  // "hadoop" or "mit", case-insensitive; otherwise "Invalid rule mechanism: x".
  static Result<RuleMechanism> ParseMechanism(std::string_view value);

  // As HadoopKerberosName.setConfiguration: the rules default to "DEFAULT"
  // with Kerberos and to "RULE:[1:$1] RULE:[2:$1]" otherwise.
  static Result<AuthToLocal> FromConfiguration(const rm::Configuration& conf,
                                               AuthenticationMethod method,
                                               std::string default_realm);

  AuthToLocal(const AuthToLocal&);
  AuthToLocal& operator=(const AuthToLocal&);
  AuthToLocal(AuthToLocal&&) noexcept;
  AuthToLocal& operator=(AuthToLocal&&) noexcept;
  ~AuthToLocal();

  // The short name of `name`: a name with neither host nor realm is already
  // short. Errors name the rule or the principal, as Java's NoMatchingRule
  // and BadFormatString do.
  Result<std::string> ShortName(const KerberosName& name) const;
  Result<std::string> ShortName(std::string_view principal) const;

  // The rules one per line, as KerberosName.getRules prints them.
  std::string ToString() const;

 private:
  AuthToLocal(std::vector<std::shared_ptr<const Rule>> rules, RuleMechanism mechanism,
              std::string default_realm);

  // Shared by copies: a rule is immutable once parsed.
  std::vector<std::shared_ptr<const Rule>> rules_;
  RuleMechanism mechanism_;
  std::string default_realm_;
};

}  // namespace spindle::security
