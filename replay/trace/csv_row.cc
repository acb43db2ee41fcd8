#include "replay/trace/csv_row.h"

#include <charconv>
#include <cmath>

namespace spindle::replay {

void CsvRow::Split(std::string_view line, std::string where) {
  where_ = std::move(where);
  fields_.clear();
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      fields_.push_back(line.substr(start));
      return;
    }
    fields_.push_back(line.substr(start, comma - start));
    start = comma + 1;
  }
}

bool CsvRow::LooksLikeHeader() const {
  if (fields_.empty()) return false;
  for (const std::string_view f : fields_) {
    if (f.empty()) return false;
    const char c = f.front();
    if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') return false;
  }
  return true;
}

Status CsvRow::ExpectFields(int n) const {
  if (size() == n) return Status::OK();
  return RowError("expected " + std::to_string(n) + " fields, found " + std::to_string(size()));
}

Status CsvRow::Error(int n, std::string_view name, std::string_view why) const {
  return Status::InvalidArgument(where_ + ": field " + std::to_string(n) + " (" +
                                 std::string(name) + "): " + std::string(why));
}

Status CsvRow::RowError(std::string_view why) const {
  return Status::InvalidArgument(where_ + ": " + std::string(why));
}

Result<std::optional<int64_t>> CsvRow::OptionalInt(int n, std::string_view name) const {
  if (n < 1 || n > size()) return Error(n, name, "missing (row too short)");
  const std::string_view s = field(n);
  if (s.empty()) return std::optional<int64_t>();
  std::string_view digits = s;
  if (digits.front() == '+') digits.remove_prefix(1);
  int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range) {
    return Error(n, name, "'" + std::string(s) + "' is out of range");
  }
  if (ec != std::errc() || ptr != digits.data() + digits.size() || digits.empty()) {
    return Error(n, name, "'" + std::string(s) + "' is not an integer");
  }
  return std::optional<int64_t>(v);
}

Result<std::optional<double>> CsvRow::OptionalDouble(int n, std::string_view name) const {
  if (n < 1 || n > size()) return Error(n, name, "missing (row too short)");
  const std::string_view s = field(n);
  if (s.empty()) return std::optional<double>();
  std::string_view digits = s;
  if (digits.front() == '+') digits.remove_prefix(1);
  double v = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || ptr != digits.data() + digits.size() || digits.empty() ||
      !std::isfinite(v)) {
    return Error(n, name, "'" + std::string(s) + "' is not a number");
  }
  return std::optional<double>(v);
}

Result<int64_t> CsvRow::Int(int n, std::string_view name) const {
  ASSIGN_OR_RETURN(const std::optional<int64_t> v, OptionalInt(n, name));
  if (!v) return Error(n, name, "missing (empty)");
  return *v;
}

Result<double> CsvRow::Double(int n, std::string_view name) const {
  ASSIGN_OR_RETURN(const std::optional<double> v, OptionalDouble(n, name));
  if (!v) return Error(n, name, "missing (empty)");
  return *v;
}

Result<std::string_view> CsvRow::Text(int n, std::string_view name) const {
  if (n < 1 || n > size()) return Error(n, name, "missing (row too short)");
  if (field(n).empty()) return Error(n, name, "missing (empty)");
  return field(n);
}

}  // namespace spindle::replay
