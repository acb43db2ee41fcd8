#include "base/flags/command_line.h"

#include <glog/logging.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace spindle {

namespace {

// Help text column where a flag's description starts, and the line width.
constexpr size_t kHelpColumn = 30;
constexpr size_t kHelpWidth = 100;

const char* DefaultValueName(FlagKind kind) {
  switch (kind) {
    case FlagKind::kSwitch:
      return "";
    case FlagKind::kString:
      return "TEXT";
    case FlagKind::kInt:
      return "N";
    case FlagKind::kDouble:
      return "X";
    case FlagKind::kList:
      return "A,B";
  }
  return "";
}

FlagSpec Make(std::string name, FlagKind kind, std::string default_text, bool has_default,
              std::string help) {
  FlagSpec f;
  f.name = std::move(name);
  f.kind = kind;
  f.value_name = DefaultValueName(kind);
  f.default_text = std::move(default_text);
  f.has_default_value = has_default;
  f.help = std::move(help);
  return f;
}

Result<int64_t> ParseInt(const std::string& text) {
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    return Status::InvalidArgument("not an integer");
  }
  return value;
}

Result<double> ParseDouble(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(v)) {
    return Status::InvalidArgument("not a number");
  }
  return v;
}

Result<bool> ParseBool(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  return Status::InvalidArgument("not true or false");
}

std::string RangeText(const FlagSpec& f) {
  if (f.kind == FlagKind::kInt) {
    return std::to_string(static_cast<int64_t>(f.min)) + " to " +
           std::to_string(static_cast<int64_t>(f.max));
  }
  return FormatFlagNumber(f.min) + " to " + FormatFlagNumber(f.max);
}

// OK if `text` is a value of `f`'s kind (and range); why not otherwise.
Status CheckValue(const FlagSpec& f, const std::string& text) {
  double number = 0;
  switch (f.kind) {
    case FlagKind::kSwitch: {
      if (!ParseBool(text).ok()) {
        return Status::InvalidArgument("--" + f.name + " is a switch: give it alone, or =true or " +
                                       "=false, not '" + text + "'");
      }
      return Status::OK();
    }
    case FlagKind::kString:
    case FlagKind::kList:
      return Status::OK();
    case FlagKind::kInt: {
      auto v = ParseInt(text);
      if (!v.ok()) {
        return Status::InvalidArgument("--" + f.name + " wants an integer, got '" + text + "'");
      }
      number = static_cast<double>(*v);
      break;
    }
    case FlagKind::kDouble: {
      auto v = ParseDouble(text);
      if (!v.ok()) {
        return Status::InvalidArgument("--" + f.name + " wants a number, got '" + text + "'");
      }
      number = *v;
      break;
    }
  }
  if (f.has_range && (number < f.min || number > f.max)) {
    return Status::InvalidArgument("--" + f.name + " must be " + RangeText(f) + ", got '" + text +
                                   "'");
  }
  return Status::OK();
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.push_back(std::move(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// Levenshtein distance with adjacent transpositions (optimal string alignment).
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// Appends `text` from column `column` on, wrapped at kHelpWidth, each
// continuation line indented by `indent`. Newlines in `text` are kept.
void AppendWrapped(std::string* out, size_t column, size_t indent, const std::string& text) {
  size_t at = column;
  bool line_start = true;
  size_t start = 0;
  while (start < text.size()) {
    if (text[start] == '\n') {
      *out += "\n" + std::string(indent, ' ');
      at = indent;
      line_start = true;
      ++start;
      continue;
    }
    size_t end = text.find_first_of(" \n", start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line_start && at + 1 + word.size() > kHelpWidth) {
      *out += "\n" + std::string(indent, ' ');
      at = indent;
      line_start = true;
    }
    if (!line_start) {
      *out += ' ';
      ++at;
    }
    *out += word;
    at += word.size();
    line_start = false;
    start = end < text.size() && text[end] == ' ' ? end + 1 : end;
  }
}

}  // namespace

std::string FormatFlagNumber(double v) {
  char buffer[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, v);
    if (std::strtod(buffer, nullptr) == v) break;
  }
  return buffer;
}

// ---- FlagSpec ---------------------------------------------------------------

FlagSpec FlagSpec::Switch(std::string name, std::string help) {
  return Make(std::move(name), FlagKind::kSwitch, "false", true, std::move(help));
}

FlagSpec FlagSpec::String(std::string name, std::string value_name, std::string default_value,
                          std::string help) {
  FlagSpec f =
      Make(std::move(name), FlagKind::kString, std::move(default_value), true, std::move(help));
  f.value_name = std::move(value_name);
  return f;
}

FlagSpec FlagSpec::Int(std::string name, int64_t default_value, std::string help) {
  return Make(std::move(name), FlagKind::kInt, std::to_string(default_value), true,
              std::move(help));
}

FlagSpec FlagSpec::Double(std::string name, double default_value, std::string help) {
  return Make(std::move(name), FlagKind::kDouble, FormatFlagNumber(default_value), true,
              std::move(help));
}

FlagSpec FlagSpec::List(std::string name, std::string value_name, std::string default_value,
                        std::string help) {
  FlagSpec f =
      Make(std::move(name), FlagKind::kList, std::move(default_value), true, std::move(help));
  f.value_name = std::move(value_name);
  return f;
}

FlagSpec FlagSpec::InRange(double lo, double hi) && {
  has_range = true;
  min = lo;
  max = hi;
  return std::move(*this);
}

FlagSpec FlagSpec::Required() && {
  required = true;
  has_default_value = false;
  default_text.clear();
  return std::move(*this);
}

FlagSpec FlagSpec::ComputedDefault(std::string description) && {
  has_default_value = false;
  default_text = std::move(description);
  return std::move(*this);
}

FlagSpec FlagSpec::ValueName(std::string name_shown) && {
  value_name = std::move(name_shown);
  return std::move(*this);
}

// ---- help and suggestions ---------------------------------------------------

std::string ClosestMatch(std::string_view typed, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::string::npos;
  for (const std::string& c : candidates) {
    size_t d = EditDistance(typed, c);
    // A candidate the user typed the start of counts as close.
    if (typed.size() >= 3 && c.compare(0, typed.size(), typed) == 0) d = std::min<size_t>(d, 1);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  // Close enough to be a typo: up to a third of the word, at least 1, at most 3.
  const size_t limit = std::clamp<size_t>(std::max(typed.size(), best.size()) / 3, 1, 3);
  return best_distance <= limit ? best : std::string();
}

std::string HelpText(const CommandSpec& spec) {
  std::string out = "usage: spindle " + spec.name + " [flags]\n";
  out += spec.summary + "\n\nflags:\n";
  std::vector<FlagSpec> rows = spec.flags;
  rows.push_back(FlagSpec::Switch("help", "print this help and exit"));
  for (const FlagSpec& f : rows) {
    std::string left = "  --" + f.name;
    if (f.kind != FlagKind::kSwitch) left += " " + f.value_name;
    out += left;
    size_t column = left.size();
    if (column + 2 > kHelpColumn) {
      out += "\n" + std::string(kHelpColumn, ' ');
    } else {
      out += std::string(kHelpColumn - column, ' ');
    }
    std::string text = f.help;
    std::vector<std::string> notes;
    if (f.required) notes.push_back("required");
    if (f.has_range) notes.push_back(RangeText(f));
    if (f.kind != FlagKind::kSwitch && !f.default_text.empty()) {
      notes.push_back("default: " + f.default_text);
    }
    if (!notes.empty()) {
      text += " (";
      for (size_t i = 0; i < notes.size(); ++i) text += (i == 0 ? "" : "; ") + notes[i];
      text += ")";
    }
    AppendWrapped(&out, kHelpColumn, kHelpColumn, text);
    out += "\n";
  }
  if (!spec.notes.empty()) {
    out += "\n";
    AppendWrapped(&out, 0, 0, spec.notes);
    if (out.back() != '\n') out += "\n";
  }
  return out;
}

// ---- parsing ----------------------------------------------------------------

bool CommandLine::HelpRequested(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--") return false;
    if (a == "--help" || a == "-h" || a == "--help=true") return true;
  }
  return false;
}

Result<CommandLine> CommandLine::Parse(const CommandSpec& spec,
                                       const std::vector<std::string>& args) {
  CommandLine cl;
  cl.command_ = spec.name;
  std::vector<std::string> names;
  for (const FlagSpec& f : spec.flags) {
    CHECK(cl.specs_.emplace(f.name, f).second)
        << "spindle " << spec.name << ": --" << f.name << " is twice in the flag table";
    names.push_back("--" + f.name);
  }
  names.push_back("--help");
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      return Status::InvalidArgument("unexpected argument '" + arg +
                                     "' (flags are --name value or --name=value)");
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    auto spec_it = cl.specs_.find(name);
    if (spec_it == cl.specs_.end()) {
      std::string message = "unknown flag --" + name;
      const std::string suggestion = ClosestMatch("--" + name, names);
      if (!suggestion.empty()) message += " (did you mean " + suggestion + "?)";
      return Status::InvalidArgument(message);
    }
    const FlagSpec& f = spec_it->second;
    std::string value;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (f.kind == FlagKind::kSwitch) {
      value = "true";
    } else if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
      value = args[++i];
    } else {
      return Status::InvalidArgument("--" + name + " needs a value (" + f.value_name +
                                     "); for one that starts with --, write --" + name + "=VALUE");
    }
    RETURN_NOT_OK(CheckValue(f, value));
    cl.values_[name] = value;  // a repeated flag: the last one wins
  }
  for (const FlagSpec& f : spec.flags) {
    if (f.required && cl.values_.count(f.name) == 0) {
      return Status::InvalidArgument("--" + f.name + " is required (" + f.help + ")");
    }
  }
  return cl;
}

// ---- getters ----------------------------------------------------------------

const FlagSpec& CommandLine::Spec(const std::string& name) const {
  auto it = specs_.find(name);
  CHECK(it != specs_.end()) << "spindle " << command_ << " reads --" << name
                            << ", which is not in its flag table";
  return it->second;
}

const std::string& CommandLine::ValueOrDefault(const std::string& name) const {
  const FlagSpec& f = Spec(name);
  auto it = values_.find(name);
  if (it != values_.end()) return it->second;
  CHECK(f.has_default_value) << "spindle " << command_ << " reads --" << name
                             << " without a default and without checking Has()";
  return f.default_text;
}

bool CommandLine::Has(const std::string& name) const {
  Spec(name);
  return values_.count(name) != 0;
}

std::string CommandLine::GetString(const std::string& name) const {
  const FlagSpec& f = Spec(name);
  if (!f.has_default_value && !Has(name)) return "";
  return ValueOrDefault(name);
}

std::string CommandLine::GetString(const std::string& name, const std::string& fallback) const {
  Spec(name);
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

int64_t CommandLine::GetInt(const std::string& name) const {
  CHECK(Spec(name).kind == FlagKind::kInt) << "--" << name << " is not an integer flag";
  auto v = ParseInt(ValueOrDefault(name));
  CHECK(v.ok()) << "--" << name << ": default '" << Spec(name).default_text << "' is no integer";
  return *v;
}

double CommandLine::GetDouble(const std::string& name) const {
  CHECK(Spec(name).kind == FlagKind::kDouble) << "--" << name << " is not a number flag";
  auto v = ParseDouble(ValueOrDefault(name));
  CHECK(v.ok()) << "--" << name << ": default '" << Spec(name).default_text << "' is no number";
  return *v;
}

bool CommandLine::GetBool(const std::string& name) const {
  CHECK(Spec(name).kind == FlagKind::kSwitch) << "--" << name << " is not a switch";
  auto v = ParseBool(ValueOrDefault(name));
  return v.ok() && *v;
}

std::vector<std::string> CommandLine::GetList(const std::string& name) const {
  return SplitList(GetString(name));
}

// ---- running a command ------------------------------------------------------

int RunCommand(const CommandSpec& spec, CommandMain command_main,
               const std::vector<std::string>& args) {
  if (CommandLine::HelpRequested(args)) {
    std::fputs(HelpText(spec).c_str(), stdout);
    return kExitOk;
  }
  auto flags = CommandLine::Parse(spec, args);
  if (!flags.ok()) return ReportUsageError(spec.name, flags.status());
  return command_main(*flags);
}

int ReportUsageError(std::string_view command, const Status& status) {
  const std::string name(command);
  std::fprintf(stderr, "spindle %s: %s\nrun 'spindle %s --help' for its flags\n", name.c_str(),
               status.UserMessage().c_str(), name.c_str());
  return kExitUsage;
}

int ReportFailure(std::string_view command, const Status& status) {
  const std::string name(command);
  std::fprintf(stderr, "spindle %s: %s\n", name.c_str(), status.UserMessage().c_str());
  return kExitFailure;
}

}  // namespace spindle
