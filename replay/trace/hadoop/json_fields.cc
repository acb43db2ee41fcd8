#include "replay/trace/hadoop/json_fields.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace spindle::replay::hadoop {

std::string DescribeJson(const JsonValue& v) {
  switch (v.type()) {
    case JsonValue::Type::kString: {
      std::string s = v.text().size() > 40 ? v.text().substr(0, 40) + "..." : v.text();
      return "string \"" + s + "\"";
    }
    case JsonValue::Type::kNumber:
      return "number " + v.text();
    case JsonValue::Type::kBool:
      return v.bool_value() ? "true" : "false";
    default:
      return JsonValue::TypeName(v.type());
  }
}

JsonFields::JsonFields(const std::string& file, const JsonValue& object, std::string prefix)
    : file_(file), object_(object), prefix_(std::move(prefix)) {}

const JsonValue* JsonFields::Get(std::string_view key) const {
  const JsonValue* v = object_.Find(key);
  if (v == nullptr || v->is_null()) return nullptr;
  return v;
}

Status JsonFields::Error(std::string_view key, const std::string& what) const {
  const JsonValue* v = object_.Find(key);
  const int64_t line = v != nullptr ? v->line() : object_.line();
  return Status::InvalidArgument(file_ + ":" + std::to_string(line) + ": field " + prefix_ +
                                 std::string(key) + ": " + what);
}

Status JsonFields::RecordError(const std::string& what) const {
  return Status::InvalidArgument(file_ + ":" + std::to_string(object_.line()) + ": " + what);
}

JsonFields JsonFields::Nested(const JsonValue& value, const std::string& name) const {
  return JsonFields(file_, value, prefix_ + name + ".");
}

Result<int64_t> JsonFields::ToInt(std::string_view key, const JsonValue& v) const {
  if (v.is_number()) {
    if (std::optional<int64_t> i = v.AsInt64()) return *i;
  } else if (v.is_string()) {
    const std::string& s = v.text();
    size_t i = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
    bool digits = i < s.size();
    for (size_t j = i; j < s.size(); ++j) digits = digits && s[j] >= '0' && s[j] <= '9';
    if (digits) {
      errno = 0;
      const long long n = std::strtoll(s.c_str(), nullptr, 10);
      if (errno != ERANGE) return static_cast<int64_t>(n);
    }
  }
  return Error(key, "expected an integer, got " + DescribeJson(v));
}

Result<double> JsonFields::ToDouble(std::string_view key, const JsonValue& v) const {
  if (v.is_number()) {
    if (std::optional<double> d = v.AsDouble()) return *d;
  } else if (v.is_string() && !v.text().empty()) {
    char* end = nullptr;
    const double d = std::strtod(v.text().c_str(), &end);
    if (end == v.text().c_str() + v.text().size() && std::isfinite(d)) return d;
  }
  return Error(key, "expected a number, got " + DescribeJson(v));
}

Result<int64_t> JsonFields::Int(std::string_view key) const {
  const JsonValue* v = Get(key);
  if (v == nullptr) return Error(key, "missing (an integer is required)");
  return ToInt(key, *v);
}

Result<std::optional<int64_t>> JsonFields::OptionalInt(std::string_view key) const {
  const JsonValue* v = Get(key);
  if (v == nullptr) return std::optional<int64_t>();
  ASSIGN_OR_RETURN(int64_t i, ToInt(key, *v));
  return std::optional<int64_t>(i);
}

Result<double> JsonFields::Double(std::string_view key) const {
  const JsonValue* v = Get(key);
  if (v == nullptr) return Error(key, "missing (a number is required)");
  return ToDouble(key, *v);
}

Result<std::optional<double>> JsonFields::OptionalDouble(std::string_view key) const {
  const JsonValue* v = Get(key);
  if (v == nullptr) return std::optional<double>();
  ASSIGN_OR_RETURN(double d, ToDouble(key, *v));
  return std::optional<double>(d);
}

Result<std::string> JsonFields::String(std::string_view key) const {
  const JsonValue* v = Get(key);
  if (v == nullptr) return Error(key, "missing (a string is required)");
  if (!v->is_string()) return Error(key, "expected a string, got " + DescribeJson(*v));
  return v->text();
}

Result<std::optional<std::string>> JsonFields::OptionalString(std::string_view key) const {
  const JsonValue* v = Get(key);
  if (v == nullptr) return std::optional<std::string>();
  if (!v->is_string()) return Error(key, "expected a string, got " + DescribeJson(*v));
  return std::optional<std::string>(v->text());
}

Result<const JsonValue*> JsonFields::Array(std::string_view key) const {
  const JsonValue* v = Get(key);
  if (v == nullptr) return Error(key, "missing (an array is required)");
  if (!v->is_array()) return Error(key, "expected an array, got " + DescribeJson(*v));
  return v;
}

Result<const JsonValue*> JsonFields::OptionalArray(std::string_view key) const {
  const JsonValue* v = Get(key);
  if (v == nullptr) return static_cast<const JsonValue*>(nullptr);
  if (!v->is_array()) return Error(key, "expected an array, got " + DescribeJson(*v));
  return v;
}

Result<const JsonValue*> JsonFields::Object(std::string_view key) const {
  const JsonValue* v = Get(key);
  if (v == nullptr) return Error(key, "missing (an object is required)");
  if (!v->is_object()) return Error(key, "expected an object, got " + DescribeJson(*v));
  return v;
}

}  // namespace spindle::replay::hadoop
