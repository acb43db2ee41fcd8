// JsonWriter: a minimal streaming JSON writer (reports, the REST API). The caller
// opens and closes containers; commas are inserted automatically;
// non-finite numbers are written as null.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

namespace spindle::json {

class JsonWriter {
 public:
  std::string Take() { return std::move(out_); }

  void BeginObject() {
    Separate();
    out_ += '{';
    first_ = true;
  }
  void EndObject() {
    out_ += '}';
    first_ = false;
  }
  void BeginArray() {
    Separate();
    out_ += '[';
    first_ = true;
  }
  void EndArray() {
    out_ += ']';
    first_ = false;
  }
  void Key(const std::string& k) {
    Separate();
    String(k);
    out_ += ':';
    first_ = true;  // the value follows without a comma
  }
  void Str(const std::string& s) {
    Separate();
    String(s);
  }
  void Num(double v) {
    Separate();
    if (!std::isfinite(v)) {
      out_ += "null";
      return;
    }
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.6g", v);
    out_ += buf;
  }
  void Int(int64_t v) {
    Separate();
    out_ += std::to_string(v);
  }
  void Bool(bool v) {
    Separate();
    out_ += v ? "true" : "false";
  }
  template <typename T>
  void Field(const std::string& k, T v) {
    Key(k);
    if constexpr (std::is_same_v<T, bool>) {
      Bool(v);
    } else if constexpr (std::is_integral_v<T>) {
      Int(static_cast<int64_t>(v));
    } else if constexpr (std::is_floating_point_v<T>) {
      Num(v);
    } else {
      Str(std::string(v));
    }
  }

 private:
  void Separate() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  void String(const std::string& s) {
    out_ += '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\t':
          out_ += "\\t";
          break;
        case '\r':
          out_ += "\\r";
          break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            out_ += buf;
          } else {
            out_ += static_cast<char>(c);
          }
      }
    }
    out_ += '"';
  }

  std::string out_;
  bool first_ = true;
};

}  // namespace spindle::json
