// CsvRow: one line of a comma-separated trace split into fields, with typed
// accessors whose errors name the place: "task_events.csv.gz:12: field 11
// (memory request): 'x' is not a number". The cluster traces quote nothing,
// so neither does this (a quote is an ordinary character). Empty fields are
// kept: they are meaningful (Google marks missing values so), and each
// accessor says what it does with one.
//
// Fields are numbered from 1 in messages, as awk, cut and the traces'
// schema documents count them; accessors take the same 1-based numbers.
//
// Thread-safety: none; a CsvRow is a value that views the line it split
// (the line must outlive the accessors' use).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/status.h"

namespace spindle::replay {

class CsvRow {
 public:
  // Splits `line` at every ','. `where` ("file:line") prefixes errors.
  void Split(std::string_view line, std::string where);

  int size() const { return static_cast<int>(fields_.size()); }
  // Field n (1-based), as is; n must be in [1, size()].
  std::string_view field(int n) const { return fields_[static_cast<size_t>(n - 1)]; }
  bool empty(int n) const { return field(n).empty(); }
  const std::string& where() const { return where_; }

  // A line of column names (an exported file's header): every field is
  // non-empty and none starts as a number would.
  bool LooksLikeHeader() const;
  // InvalidArgument unless the row has exactly `n` fields.
  Status ExpectFields(int n) const;
  // InvalidArgument "<where>: field n (name): <why>".
  Status Error(int n, std::string_view name, std::string_view why) const;
  // InvalidArgument "<where>: <why>" (about the row, not one field).
  Status RowError(std::string_view why) const;

  // A decimal integer (optional sign); empty is an error ("missing").
  Result<int64_t> Int(int n, std::string_view name) const;
  // A decimal or scientific number ("3.815e-06"), finite; empty is an error.
  Result<double> Double(int n, std::string_view name) const;
  // As Int/Double, but empty gives nullopt (a missing value).
  Result<std::optional<int64_t>> OptionalInt(int n, std::string_view name) const;
  Result<std::optional<double>> OptionalDouble(int n, std::string_view name) const;
  // The text; empty is an error.
  Result<std::string_view> Text(int n, std::string_view name) const;

 private:
  std::vector<std::string_view> fields_;
  std::string where_;
};

}  // namespace spindle::replay
