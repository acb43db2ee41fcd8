#include "base/json/json_value.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace spindle::json {

JsonValue JsonValue::Null(int64_t line) {
  JsonValue v;
  v.line_ = line;
  return v;
}

JsonValue JsonValue::Bool(bool b, int64_t line) {
  JsonValue v;
  v.type_ = Type::kBool;
  v.bool_ = b;
  v.line_ = line;
  return v;
}

JsonValue JsonValue::Number(std::string literal, int64_t line) {
  JsonValue v;
  v.type_ = Type::kNumber;
  v.text_ = std::move(literal);
  v.line_ = line;
  return v;
}

JsonValue JsonValue::String(std::string s, int64_t line) {
  JsonValue v;
  v.type_ = Type::kString;
  v.text_ = std::move(s);
  v.line_ = line;
  return v;
}

JsonValue JsonValue::Array(int64_t line) {
  JsonValue v;
  v.type_ = Type::kArray;
  v.line_ = line;
  return v;
}

JsonValue JsonValue::Object(int64_t line) {
  JsonValue v;
  v.type_ = Type::kObject;
  v.line_ = line;
  return v;
}

std::optional<int64_t> JsonValue::AsInt64() const {
  if (type_ != Type::kNumber) return std::nullopt;
  // An integer literal is an optional '-' and digits only.
  size_t i = text_.empty() || text_[0] != '-' ? 0 : 1;
  if (i == text_.size()) return std::nullopt;
  for (size_t j = i; j < text_.size(); ++j) {
    if (text_[j] < '0' || text_[j] > '9') return std::nullopt;
  }
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text_.c_str(), &end, 10);
  if (errno == ERANGE || end != text_.c_str() + text_.size()) return std::nullopt;
  return static_cast<int64_t>(v);
}

std::optional<double> JsonValue::AsDouble() const {
  if (type_ != Type::kNumber) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text_.c_str(), &end);
  if (end != text_.c_str() + text_.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const JsonMember& m : members_) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

const char* JsonValue::TypeName(Type type) {
  switch (type) {
    case Type::kNull:
      return "null";
    case Type::kBool:
      return "bool";
    case Type::kNumber:
      return "number";
    case Type::kString:
      return "string";
    case Type::kArray:
      return "array";
    case Type::kObject:
      return "object";
  }
  return "?";
}

}  // namespace spindle::json
