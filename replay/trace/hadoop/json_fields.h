// JsonFields: typed access to the fields of one JSON object of a trace
// record, with errors that name the file, the line and the field, as
// trace_reader.h asks ("inputsls.json:14: field job.tasks[2].container.end.ms:
// expected an integer, got string \"x\"").
//
// Integers are accepted as JSON integer literals or as strings holding a
// decimal integer ("12"): SLS reads its fields with Long.parseLong on their
// text, so both spellings occur in real traces. A fractional or exponent
// number where an integer is wanted is an error, never truncated.
//
// Thread-safety: a view; const use from many threads is safe. It refers to
// the object and names it was made with, which must outlive it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/json/json_stream.h"
#include "base/json/json_value.h"
#include "base/result.h"

namespace spindle::replay::hadoop {

// The trace readers read JSON with base/json's parser.
using json::JsonMember;
using json::JsonStream;
using json::JsonValue;

class JsonFields {
 public:
  // `prefix` is prepended to field names in errors ("job.tasks[2].").
  JsonFields(const std::string& file, const JsonValue& object, std::string prefix = "");

  const JsonValue& object() const { return object_; }
  // The value of `key`, or nullptr if absent or JSON null (Jackson maps
  // null and absent alike).
  const JsonValue* Get(std::string_view key) const;

  Result<int64_t> Int(std::string_view key) const;
  Result<std::optional<int64_t>> OptionalInt(std::string_view key) const;
  Result<double> Double(std::string_view key) const;
  Result<std::optional<double>> OptionalDouble(std::string_view key) const;
  Result<std::string> String(std::string_view key) const;
  Result<std::optional<std::string>> OptionalString(std::string_view key) const;
  // Required array or object fields.
  Result<const JsonValue*> Array(std::string_view key) const;
  Result<const JsonValue*> Object(std::string_view key) const;
  Result<const JsonValue*> OptionalArray(std::string_view key) const;  // nullptr if absent

  // An InvalidArgument "<file>:<line>: field <prefix><key>: <what>", the
  // line being that of the field's value if present, else the object's.
  Status Error(std::string_view key, const std::string& what) const;
  // The same for a record-level problem: "<file>:<line>: <what>".
  Status RecordError(const std::string& what) const;
  // Fields of a nested object or array element, with a longer prefix.
  JsonFields Nested(const JsonValue& value, const std::string& name) const;

  const std::string& prefix() const { return prefix_; }

 private:
  Result<int64_t> ToInt(std::string_view key, const JsonValue& v) const;
  Result<double> ToDouble(std::string_view key, const JsonValue& v) const;

  const std::string& file_;
  const JsonValue& object_;
  std::string prefix_;
};

// A short rendering of a value for error messages: `string "x"`, `number 1.5`.
std::string DescribeJson(const JsonValue& v);

}  // namespace spindle::replay::hadoop
