#include "security/auth_to_local.h"

#include <cctype>
#include <limits>
#include <optional>
#include <regex>
#include <utility>

namespace spindle::security {

// One parsed rule. Field names follow KerberosName.Rule (3.3).
struct AuthToLocal::Rule {
  bool is_default = true;
  int components = 0;
  std::string format;
  std::optional<std::string> match_source;
  std::optional<std::regex> match;
  std::optional<std::string> from_source;
  std::optional<std::regex> from;
  std::string to;
  bool repeat = false;
  bool to_lower_case = false;

  std::string ToString() const {
    if (is_default) return "DEFAULT";
    std::string text = "RULE:[" + std::to_string(components) + ":" + format + "]";
    if (match_source.has_value()) text += "(" + *match_source + ")";
    if (from_source.has_value()) {
      text += "s/" + *from_source + "/" + to + "/";
      if (repeat) text += "g";
    }
    if (to_lower_case) text += "/L";
    return text;
  }
};

namespace {

using Rule = AuthToLocal::Rule;

// Java's \s: space, \t, \n, \x0B, \f, \r.
bool IsJavaSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\x0B' || c == '\f' || c == '\r';
}

// String.trim(): every char <= ' ' at either end.
std::string_view JavaTrim(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  return text;
}

std::string ToLowerEnglish(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Reads characters up to (not including) `stop` from `text` at `pos`;
// nullopt when `stop` never comes.
std::optional<std::string> ReadUntil(std::string_view text, size_t& pos, char stop) {
  size_t end = text.find(stop, pos);
  if (end == std::string_view::npos) return std::nullopt;
  std::string part(text.substr(pos, end - pos));
  pos = end;
  return part;
}

bool Consume(std::string_view text, size_t& pos, std::string_view literal) {
  if (text.substr(pos, literal.size()) != literal) return false;
  pos += literal.size();
  return true;
}

Result<std::regex> CompileRulePattern(const std::string& source, std::string_view rule_text) {
  try {
    return std::regex(source, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return Status::InvalidArgument("Invalid rule: " + std::string(rule_text) + ": pattern " +
                                   source + " does not compile: " + e.what());
  }
}

// One rule at the start of `remaining`, the way Java's ruleParser matches
// with lookingAt():
//   \s*((DEFAULT)|(RULE:\[(\d*):([^\]]*)](\(([^)]*)\))?(s/([^/]*)/([^/]*)/(g)?)?))/?(L)?
// Each optional group either matches whole or is skipped, and what follows
// it is optional too, so the first (greedy) choice is final: no backtracking
// is needed to agree with Java. Sets `consumed`.
Result<Rule> ParseOneRule(std::string_view remaining, size_t& consumed) {
  const auto invalid = [&] {
    return Status::InvalidArgument("Invalid rule: " + std::string(remaining));
  };
  size_t pos = 0;
  while (pos < remaining.size() && IsJavaSpace(remaining[pos])) ++pos;
  Rule rule;
  if (Consume(remaining, pos, "DEFAULT")) {
    rule.is_default = true;
  } else if (Consume(remaining, pos, "RULE:[")) {
    rule.is_default = false;
    const size_t digits_start = pos;
    while (pos < remaining.size() && remaining[pos] >= '0' && remaining[pos] <= '9') ++pos;
    const std::string_view digits = remaining.substr(digits_start, pos - digits_start);
    if (!Consume(remaining, pos, ":")) return invalid();
    std::optional<std::string> format = ReadUntil(remaining, pos, ']');
    if (!format.has_value()) return invalid();
    ++pos;  // ']'
    // Integer.parseInt: an empty or too long number fails (NumberFormatException).
    if (digits.empty() || digits.size() > 9) {
      return Status::InvalidArgument("Invalid rule: " + std::string(remaining) +
                                     ": For input string: \"" + std::string(digits) + "\"");
    }
    rule.components = std::stoi(std::string(digits));
    rule.format = std::move(*format);
    if (size_t at = pos; Consume(remaining, at, "(")) {
      if (std::optional<std::string> match = ReadUntil(remaining, at, ')'); match.has_value()) {
        rule.match_source = std::move(*match);
        pos = at + 1;
      }
    }
    if (size_t at = pos; Consume(remaining, at, "s/")) {
      std::optional<std::string> from = ReadUntil(remaining, at, '/');
      std::optional<std::string> to;
      if (from.has_value()) {
        ++at;
        to = ReadUntil(remaining, at, '/');
      }
      if (to.has_value()) {
        ++at;
        rule.from_source = std::move(*from);
        rule.to = std::move(*to);
        rule.repeat = Consume(remaining, at, "g");
        pos = at;
      }
    }
  } else {
    return invalid();
  }
  Consume(remaining, pos, "/");
  const bool lower = Consume(remaining, pos, "L");
  // Java's default Rule() ignores a trailing /L.
  if (!rule.is_default) rule.to_lower_case = lower;
  const std::string_view rule_text = remaining.substr(0, pos);
  if (rule.match_source.has_value()) {
    ASSIGN_OR_RETURN(rule.match, CompileRulePattern(*rule.match_source, rule_text));
  }
  if (rule.from_source.has_value()) {
    ASSIGN_OR_RETURN(rule.from, CompileRulePattern(*rule.from_source, rule_text));
  }
  consumed = pos;
  return rule;
}

// KerberosName.Rule.replaceParameters: "$n" is params[n], other text is
// copied.
Result<std::string> ReplaceParameters(const std::string& format,
                                      const std::vector<std::string>& params) {
  std::string result;
  size_t pos = 0;
  while (pos < format.size()) {
    size_t dollar = format.find('$', pos);
    if (dollar == std::string::npos) {
      result.append(format, pos, std::string::npos);
      break;
    }
    result.append(format, pos, dollar - pos);
    size_t end = dollar + 1;
    while (end < format.size() && format[end] >= '0' && format[end] <= '9') ++end;
    const std::string digits = format.substr(dollar + 1, end - dollar - 1);
    if (digits.empty() || digits.size() > 9) {
      return Status::InvalidArgument("bad format in username mapping in " + digits);
    }
    const int num = std::stoi(digits);
    if (num < 0 || num >= static_cast<int>(params.size())) {
      return Status::InvalidArgument("index " + std::to_string(num) + " from " + format +
                                     " is outside of the valid range 0 to " +
                                     std::to_string(params.size() - 1));
    }
    result += params[static_cast<size_t>(num)];
    pos = end;
  }
  return result;
}

// Appends Java's Matcher.appendReplacement expansion of `to` for `match`:
// "$n" takes group n (digits are added while the number stays a group), "\x"
// is x, a '$' without a group number is "Illegal group reference".
Status AppendJavaReplacement(const std::string& to, const std::smatch& match, std::string& out) {
  const size_t group_count = match.size() - 1;
  for (size_t i = 0; i < to.size(); ++i) {
    const char c = to[i];
    if (c == '\\') {
      if (++i == to.size()) return Status::InvalidArgument("character to be escaped is missing");
      out.push_back(to[i]);
    } else if (c == '$') {
      if (++i == to.size())
        return Status::InvalidArgument("Illegal group reference: group index is missing");
      if (to[i] < '0' || to[i] > '9') return Status::InvalidArgument("Illegal group reference");
      size_t group = static_cast<size_t>(to[i] - '0');
      if (group > group_count) return Status::InvalidArgument("No group " + std::to_string(group));
      while (i + 1 < to.size() && to[i + 1] >= '0' && to[i + 1] <= '9') {
        const size_t longer = group * 10 + static_cast<size_t>(to[i + 1] - '0');
        if (longer > group_count) break;
        group = longer;
        ++i;
      }
      if (match[group].matched) out += match[group].str();
    } else {
      out.push_back(c);
    }
  }
  return Status::OK();
}

// Matcher.replaceFirst / replaceAll. After an empty match the next search
// starts one character further, as Java's Matcher.find does.
Result<std::string> ReplaceSubstitution(const std::string& base, const std::regex& from,
                                        const std::string& to, bool repeat) {
  std::string out;
  size_t copied = 0;
  size_t search_from = 0;
  while (search_from <= base.size()) {
    std::smatch match;
    const auto flags = search_from > 0 ? std::regex_constants::match_prev_avail
                                       : std::regex_constants::match_default;
    if (!std::regex_search(base.begin() + static_cast<std::ptrdiff_t>(search_from), base.end(),
                           match, from, flags)) {
      break;
    }
    const size_t start = search_from + static_cast<size_t>(match.position(0));
    const size_t end = start + static_cast<size_t>(match.length(0));
    out.append(base, copied, start - copied);
    RETURN_NOT_OK(AppendJavaReplacement(to, match, out));
    copied = end;
    if (!repeat) break;
    search_from = end == start ? end + 1 : end;
  }
  out.append(base, copied, std::string::npos);
  return out;
}

// KerberosName.Rule.apply: the short name, or nullopt when the rule does not
// apply.
Result<std::optional<std::string>> ApplyRule(const Rule& rule,
                                             const std::vector<std::string>& params,
                                             const std::string& default_realm,
                                             RuleMechanism mechanism) {
  std::optional<std::string> result;
  if (rule.is_default) {
    if (default_realm == params[0]) result = params[1];
  } else if (static_cast<int>(params.size()) - 1 == rule.components) {
    ASSIGN_OR_RETURN(std::string base, ReplaceParameters(rule.format, params));
    if (!rule.match.has_value() || std::regex_match(base, *rule.match)) {
      if (!rule.from.has_value()) {
        result = std::move(base);
      } else {
        ASSIGN_OR_RETURN(result, ReplaceSubstitution(base, *rule.from, rule.to, rule.repeat));
      }
    }
  }
  if (result.has_value() && result->find_first_of("/@") != std::string::npos &&
      mechanism == RuleMechanism::kHadoop) {
    return Status::Unauthorized("Non-simple name " + *result + " after auth_to_local rule " +
                                rule.ToString());
  }
  if (rule.to_lower_case && result.has_value()) result = ToLowerEnglish(std::move(*result));
  return result;
}

}  // namespace

AuthToLocal::AuthToLocal(std::vector<std::shared_ptr<const Rule>> rules, RuleMechanism mechanism,
                         std::string default_realm)
    : rules_(std::move(rules)), mechanism_(mechanism), default_realm_(std::move(default_realm)) {}
AuthToLocal::AuthToLocal(const AuthToLocal&) = default;
AuthToLocal& AuthToLocal::operator=(const AuthToLocal&) = default;
AuthToLocal::AuthToLocal(AuthToLocal&&) noexcept = default;
AuthToLocal& AuthToLocal::operator=(AuthToLocal&&) noexcept = default;
AuthToLocal::~AuthToLocal() = default;

Result<AuthToLocal> AuthToLocal::Parse(std::string_view rules, RuleMechanism mechanism,
                                       std::string default_realm) {
  std::vector<std::shared_ptr<const Rule>> parsed;
  std::string_view remaining = JavaTrim(rules);
  while (!remaining.empty()) {
    size_t consumed = 0;
    ASSIGN_OR_RETURN(Rule rule, ParseOneRule(remaining, consumed));
    parsed.push_back(std::make_shared<const Rule>(std::move(rule)));
    remaining.remove_prefix(consumed);
  }
  return AuthToLocal(std::move(parsed), mechanism, std::move(default_realm));
}

Result<RuleMechanism> AuthToLocal::ParseMechanism(std::string_view value) {
  if (EqualsIgnoreCase(value, "hadoop")) return RuleMechanism::kHadoop;
  if (EqualsIgnoreCase(value, "mit")) return RuleMechanism::kMit;
  return Status::InvalidArgument("Invalid rule mechanism: " + std::string(value));
}

Result<AuthToLocal> AuthToLocal::FromConfiguration(const rm::Configuration& conf,
                                                   AuthenticationMethod method,
                                                   std::string default_realm) {
  const bool kerberos = method == AuthenticationMethod::kKerberos;
  if (kerberos && default_realm.empty()) {
    return Status::InvalidArgument("Can't get Kerberos realm");
  }
  const std::string rules =
      conf.Get(kAuthToLocalKey, kerberos ? "DEFAULT" : "RULE:[1:$1] RULE:[2:$1]");
  ASSIGN_OR_RETURN(const RuleMechanism mechanism,
                   ParseMechanism(conf.Get(kAuthToLocalMechanismKey, "hadoop")));
  return Parse(rules, mechanism, std::move(default_realm));
}

Result<std::string> AuthToLocal::ShortName(const KerberosName& name) const {
  std::vector<std::string> params;
  if (!name.host.has_value()) {
    if (!name.realm.has_value()) return name.service;
    params = {*name.realm, name.service};
  } else {
    // Java passes a null realm here for "a/b" with no realm; DEFAULT then
    // never applies and $0 is "null". Spindle keeps the same outcome for
    // DEFAULT and spells the realm as Java's string concatenation would.
    params = {name.realm.value_or("null"), name.service, *name.host};
  }
  for (const std::shared_ptr<const Rule>& rule : rules_) {
    ASSIGN_OR_RETURN(std::optional<std::string> result,
                     ApplyRule(*rule, params, default_realm_, mechanism_));
    if (result.has_value()) return std::move(*result);
  }
  if (mechanism_ == RuleMechanism::kHadoop) {
    return Status::Unauthorized("No rules applied to " + name.ToString());
  }
  return name.ToString();
}

Result<std::string> AuthToLocal::ShortName(std::string_view principal) const {
  ASSIGN_OR_RETURN(const KerberosName name, KerberosName::Parse(principal));
  return ShortName(name);
}

std::string AuthToLocal::ToString() const {
  std::string text;
  for (const std::shared_ptr<const Rule>& rule : rules_) {
    if (!text.empty()) text += "\n";
    text += rule->ToString();
  }
  return text;
}

}  // namespace spindle::security
