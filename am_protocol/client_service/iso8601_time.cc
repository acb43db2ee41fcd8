#include "am_protocol/client_service/iso8601_time.h"

#include <time.h>

#include <cctype>
#include <cstdio>

namespace spindle::client_service {

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
// days_from_civil); month in [1, 12].
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}
  bool Digits(int64_t* value, size_t max_digits = 18) {
    size_t n = 0;
    int64_t v = 0;
    while (pos_ < text_.size() && n < max_digits &&
           std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      v = v * 10 + (text_[pos_++] - '0');
      ++n;
    }
    *value = v;
    return n > 0;
  }
  bool Literal(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  bool Word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// "+hhmm", "+hh:mm" or "+hh" after the sign; minutes east of UTC.
bool ParseOffset(Scanner& in, bool colon_allowed, int64_t* minutes) {
  const char sign = in.Peek();
  if (sign != '+' && sign != '-') return false;
  in.Literal(sign);
  int64_t hours = 0;
  int64_t mins = 0;
  if (!in.Digits(&hours, 2)) return false;
  if (colon_allowed && in.Literal(':')) {
    if (!in.Digits(&mins, 2)) return false;
  } else if (!in.Digits(&mins, 2)) {
    // RFC 822 needs four digits; "GMT+hh" may stop after the hours.
    if (!colon_allowed) return false;
    mins = 0;
  }
  if (hours > 23 || mins > 59) return false;
  *minutes = (sign == '-' ? -1 : 1) * (hours * 60 + mins);
  return true;
}

}  // namespace

std::string FormatIso8601(int64_t epoch_ms, int32_t utc_offset_seconds) {
  const int64_t local_ms = epoch_ms + int64_t{utc_offset_seconds} * 1000;
  const int64_t days = FloorDiv(local_ms, 86400000);
  int64_t ms_of_day = local_ms - days * 86400000;
  // civil_from_days
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const int64_t hour = ms_of_day / 3600000;
  ms_of_day %= 3600000;
  const int64_t minute = ms_of_day / 60000;
  ms_of_day %= 60000;
  const int64_t second = ms_of_day / 1000;
  const int64_t millis = ms_of_day % 1000;
  const int32_t offset_minutes = utc_offset_seconds / 60;
  const int32_t abs_offset = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char buf[160];
  std::snprintf(buf, sizeof(buf), "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lld%c%02d%02d",
                static_cast<long long>(y), static_cast<long long>(m), static_cast<long long>(d),
                static_cast<long long>(hour), static_cast<long long>(minute),
                static_cast<long long>(second), static_cast<long long>(millis),
                offset_minutes < 0 ? '-' : '+', abs_offset / 60, abs_offset % 60);
  return buf;
}

std::string FormatIso8601(int64_t epoch_ms) {
  const time_t seconds = static_cast<time_t>(FloorDiv(epoch_ms, 1000));
  struct tm local {};
  int32_t offset = 0;
  if (localtime_r(&seconds, &local) != nullptr) offset = static_cast<int32_t>(local.tm_gmtoff);
  return FormatIso8601(epoch_ms, offset);
}

Result<int64_t> ParseIso8601(std::string_view text) {
  Scanner in(text);
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millis = 0;
  const bool fields = in.Digits(&year) && in.Literal('-') && in.Digits(&month) && in.Literal('-') &&
                      in.Digits(&day) && in.Literal('T') && in.Digits(&hour) && in.Literal(':') &&
                      in.Digits(&minute) && in.Literal(':') && in.Digits(&second) &&
                      in.Literal('.') && in.Digits(&millis);
  if (!fields)
    return Status::InvalidArgument("not in yyyy-MM-dd'T'HH:mm:ss.SSSZ: " + std::string(text));
  int64_t offset_minutes = 0;
  bool zone = false;
  if (in.Word("GMT") || in.Word("UTC")) {
    zone = true;
    if (in.Peek() == '+' || in.Peek() == '-') zone = ParseOffset(in, true, &offset_minutes);
  } else {
    zone = ParseOffset(in, false, &offset_minutes);
  }
  if (!zone) return Status::InvalidArgument("no time zone in " + std::string(text));
  // Lenient roll-over: months beyond 12 carry into years, the rest adds up.
  const int64_t months = year * 12 + (month - 1);
  const int64_t days =
      DaysFromCivil(FloorDiv(months, 12), months - FloorDiv(months, 12) * 12 + 1, 1) + day - 1;
  const int64_t local_ms = ((days * 24 + hour) * 60 + minute) * 60000 + second * 1000 + millis;
  return local_ms - offset_minutes * 60000;
}

}  // namespace spindle::client_service
