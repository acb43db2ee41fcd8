// JsonValue: a small JSON document tree (null, bool, number, string, array,
// object), as JsonStream reads one top-level record into it. Each value
// remembers the input line it starts on, so a reader can name
// "file:line" and the field when the value is wrong.
//
// Numbers keep their literal text: an integer field ("submitTime":
// 1371222054499) is read exactly, never through a double. Objects keep
// their members in input order; JsonStream refuses duplicate keys, so a
// lookup is unambiguous.
//
// Thread-safety: a value; const access from many threads is safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::json {

struct JsonMember;

class JsonValue {
 public:
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };

  JsonValue() = default;
  static JsonValue Null(int64_t line);
  static JsonValue Bool(bool b, int64_t line);
  // `literal` must be a valid JSON number literal (JsonStream checks).
  static JsonValue Number(std::string literal, int64_t line);
  static JsonValue String(std::string s, int64_t line);
  static JsonValue Array(int64_t line);
  static JsonValue Object(int64_t line);

  Type type() const { return type_; }
  int64_t line() const { return line_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_number() const { return type_ == Type::kNumber; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  // Meaningful for the matching type only (otherwise false / "" / empty).
  bool bool_value() const { return bool_; }
  // A string's text, or a number's literal text ("-1.5e3").
  const std::string& text() const { return text_; }
  const std::vector<JsonValue>& elements() const { return elements_; }
  std::vector<JsonValue>& mutable_elements() { return elements_; }
  const std::vector<JsonMember>& members() const { return members_; }
  std::vector<JsonMember>& mutable_members() { return members_; }

  // A number whose literal is an integer (no fraction, no exponent) that
  // fits int64; nullopt otherwise (also for non-numbers).
  std::optional<int64_t> AsInt64() const;
  // A number as a double (exponents and fractions allowed); nullopt for
  // non-numbers and literals out of double's range.
  std::optional<double> AsDouble() const;
  // The member named `key` of an object, or nullptr (also for non-objects).
  const JsonValue* Find(std::string_view key) const;

  // "null", "true", "number", "string", "array", "object": for messages.
  static const char* TypeName(Type type);

 private:
  Type type_ = Type::kNull;
  int64_t line_ = 0;
  bool bool_ = false;
  std::string text_;
  std::vector<JsonValue> elements_;
  std::vector<JsonMember> members_;
};

struct JsonMember {
  std::string key;
  JsonValue value;
};

}  // namespace spindle::json
