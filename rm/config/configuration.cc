#include "rm/config/configuration.h"

#include <glog/logging.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/process_user.h"
#include "base/strings/trim.h"
#include "rm/config/hadoop_line.h"

namespace spindle::rm {

namespace {
namespace pt = boost::property_tree;

constexpr int kMaxSubstitutions = 20;
constexpr char kProgrammatically[] = "programmatically";

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct ParsedProperty {
  std::string name;
  std::optional<std::string> value;
  bool final = false;
};

// Parses the XML text into properties, or explains why it cannot.
Result<std::vector<ParsedProperty>> ParseXml(std::string_view xml, const std::string& source) {
  pt::ptree tree;
  std::istringstream in{std::string(xml)};
  try {
    pt::read_xml(in, tree, pt::xml_parser::no_comments);
  } catch (const pt::xml_parser_error& e) {
    return Status::InvalidArgument(source + ": not well-formed XML at line " +
                                   std::to_string(e.line()) + ": " + e.message());
  }
  const pt::ptree* root = nullptr;
  for (const auto& [tag, child] : tree) {
    if (tag == "<xmldecl>") continue;
    if (tag != "configuration" || root != nullptr) {
      return Status::InvalidArgument(source +
                                     ": bad conf file: top-level element not <configuration>");
    }
    root = &child;
  }
  if (root == nullptr) {
    return Status::InvalidArgument(source + ": bad conf file: no <configuration> element");
  }
  std::vector<ParsedProperty> out;
  for (const auto& [tag, property] : *root) {
    if (tag == "<xmlattr>") continue;
    if (tag != "property") {
      std::string message = source;
      message.append(": bad conf file: element not <property>: <").append(tag).append(">");
      return Status::InvalidArgument(message);
    }
    ParsedProperty parsed;
    bool has_name = false;
    for (const auto& [field, node] : property) {
      if (field == "name") {
        parsed.name = TrimBlanks(node.data());
        has_name = true;
      } else if (field == "value") {
        parsed.value = node.data();
      } else if (field == "final") {
        parsed.final = TrimBlanks(node.data()) == "true";
      }
      // <description>, <source> and anything else are documentation.
    }
    if (!has_name || parsed.name.empty()) {
      return Status::InvalidArgument(source + ": a <property> has no <name>");
    }
    out.push_back(std::move(parsed));
  }
  return out;
}

}  // namespace

Configuration::Configuration() {
  // As the JVM sets them (from the passwd entry, never $USER or $HOME).
  system_properties_["user.name"] = ProcessUserName();
  system_properties_["user.home"] = ProcessUserHome();
  system_properties_["java.io.tmpdir"] = "/tmp";
}

HadoopLine Configuration::LineForDefaults() const {
  // An unparsable value is reported by HadoopLineOf() when the daemon
  // starts; until then the newest line's defaults apply.
  auto it = entries_.find(kHadoopLineKey);
  if (it == entries_.end()) return kDefaultHadoopLine;
  return ParseHadoopLine(it->second.value).value_or(kDefaultHadoopLine);
}

Status Configuration::AddResourceFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::IoError(path + ": cannot read configuration file: " + std::strerror(errno));
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return AddResourceString(buffer.str(), path);
}

Status Configuration::AddResourceString(std::string_view xml, const std::string& source) {
  ASSIGN_OR_RETURN(auto properties, ParseXml(xml, source));
  for (auto& p : properties) {
    // Hadoop skips a property without a <value>.
    if (!p.value.has_value()) continue;
    Apply(p.name, Entry{std::move(*p.value), source, p.final});
  }
  return Status::OK();
}

void Configuration::Set(const std::string& key, const std::string& value) {
  Apply(key, Entry{value, kProgrammatically, false});
}

void Configuration::Apply(const std::string& key, Entry entry) {
  auto it = entries_.find(key);
  if (it != entries_.end() && it->second.final) {
    if (it->second.value != entry.value) {
      LOG(WARNING) << entry.source << ": an attempt to override final parameter: " << key
                   << ";  Ignoring.";
    }
    return;
  }
  entries_[key] = std::move(entry);
}

std::optional<std::string> Configuration::GetRaw(const std::string& key) const {
  auto it = entries_.find(key);
  if (it != entries_.end()) return it->second.value;
  if (auto shipped = HadoopDefault(LineForDefaults(), key); shipped.has_value()) {
    return std::string(shipped->value);
  }
  return std::nullopt;
}

Result<std::string> Configuration::Substitute(const std::string& text) const {
  std::string expr = text;
  for (int depth = 0; depth < kMaxSubstitutions; ++depth) {
    // Find the first ${...} that resolves; unresolvable ones stay as written.
    size_t search_from = 0;
    bool replaced = false;
    while (true) {
      const size_t start = expr.find("${", search_from);
      if (start == std::string::npos) break;
      const size_t end = expr.find('}', start + 2);
      if (end == std::string::npos) break;
      const std::string name = expr.substr(start + 2, end - start - 2);
      std::optional<std::string> value;
      if (name.rfind("env.", 0) == 0) {
        if (const char* env = std::getenv(name.substr(4).c_str()); env != nullptr) value = env;
      } else if (auto sys = system_properties_.find(name); sys != system_properties_.end()) {
        value = sys->second;
      } else if (auto raw = GetRaw(name); raw.has_value()) {
        value = raw;
      }
      if (!value.has_value() || name.empty()) {
        search_from = end + 1;
        continue;
      }
      expr.replace(start, end - start + 1, *value);
      replaced = true;
      break;
    }
    if (!replaced) return expr;
  }
  return Status::InvalidArgument(
      "Variable substitution depth too large: " + std::to_string(kMaxSubstitutions) + " " + text);
}

std::optional<std::string> Configuration::Get(const std::string& key) const {
  auto raw = GetRaw(key);
  if (!raw.has_value()) return std::nullopt;
  auto expanded = Substitute(*raw);
  if (!expanded.ok()) {
    LOG(WARNING) << SourceOf(key) << ": " << key << ": " << expanded.status().message();
    return raw;
  }
  return std::move(expanded).value();
}

std::string Configuration::Get(const std::string& key, const std::string& fallback) const {
  auto v = Get(key);
  return v.has_value() ? *v : fallback;
}

std::optional<std::string> Configuration::GetTrimmed(const std::string& key) const {
  auto v = Get(key);
  if (!v.has_value()) return std::nullopt;
  std::string trimmed(TrimBlanks(*v));
  if (trimmed.empty()) return std::nullopt;
  return trimmed;
}

Status Configuration::InvalidValue(const std::string& key, const std::string& value,
                                   const std::string& expected) const {
  return Status::InvalidArgument(SourceOf(key) + ": " + key + " = '" + value + "' is not " +
                                 expected);
}

Result<int64_t> Configuration::GetInt(const std::string& key, int64_t fallback) const {
  auto v = GetTrimmed(key);
  if (!v.has_value()) return fallback;
  std::string_view text = *v;
  int base = 10;
  bool negative = false;
  if (!text.empty() && text[0] == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  // Hadoop's getLong accepts a 0x hex prefix.
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    return InvalidValue(key, *v, "an integer");
  }
  return negative ? -value : value;
}

Result<SocketAddress> Configuration::GetSocketAddress(const std::string& key,
                                                      const std::string& fallback) const {
  const std::string value = GetTrimmed(key).value_or(fallback);
  std::optional<SocketAddress> address = ParseSocketAddress(value);
  if (!address.has_value()) return InvalidValue(key, value, "host:port");
  return *std::move(address);
}

Result<double> Configuration::GetDouble(const std::string& key, double fallback) const {
  auto v = GetTrimmed(key);
  if (!v.has_value()) return fallback;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(v->c_str(), &end);
  if (end != v->c_str() + v->size() || errno == ERANGE) return InvalidValue(key, *v, "a number");
  return value;
}

Result<bool> Configuration::GetBool(const std::string& key, bool fallback) const {
  auto v = GetTrimmed(key);
  if (!v.has_value()) return fallback;
  const std::string lower = Lower(*v);
  if (lower == "true") return true;
  if (lower == "false") return false;
  return InvalidValue(key, *v, "true or false");
}

std::vector<std::string> Configuration::GetTrimmedStrings(const std::string& key) const {
  std::vector<std::string> out;
  auto v = Get(key);
  if (!v.has_value()) return out;
  std::string_view rest = *v;
  while (true) {
    const size_t comma = rest.find(',');
    std::string item(TrimBlanks(rest.substr(0, comma)));
    if (!item.empty()) out.push_back(std::move(item));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

std::string Configuration::SourceOf(const std::string& key) const {
  auto it = entries_.find(key);
  if (it != entries_.end()) return it->second.source;
  const HadoopLine line = LineForDefaults();
  if (auto shipped = HadoopDefault(line, key); shipped.has_value()) {
    return std::string(shipped->file) + " (Hadoop " + std::string(TraitsOf(line).name) + ")";
  }
  return kBuiltInDefaultSource;
}

bool Configuration::IsFinal(const std::string& key) const {
  auto it = entries_.find(key);
  return it != entries_.end() && it->second.final;
}

std::vector<std::string> Configuration::KeysWithPrefix(std::string_view prefix) const {
  std::vector<std::string> keys;
  for (auto it = entries_.lower_bound(std::string(prefix));
       it != entries_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    keys.push_back(it->first);
  }
  return keys;
}

}  // namespace spindle::rm
