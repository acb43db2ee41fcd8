#include "base/json/json_stream.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace spindle::json {

namespace {

bool IsBlank(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsDigit(int c) { return c >= '0' && c <= '9'; }

std::string Describe(int c) {
  if (c < 0) return "end of input";
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  char buf[16];
  std::snprintf(buf, sizeof(buf), "byte 0x%02x", c);
  return buf;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

}  // namespace

JsonStream::JsonStream(std::string name, std::FILE* file, std::string text,
                       JsonStreamOptions options)
    : name_(std::move(name)), file_(file), options_(options), buffer_(std::move(text)) {
  eof_ = file_ == nullptr;
}

JsonStream::~JsonStream() {
  if (file_ != nullptr) std::fclose(file_);
}

Result<std::unique_ptr<JsonStream>> JsonStream::Open(const std::string& path,
                                                     JsonStreamOptions options) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    const int err = errno;
    const std::string msg = path + ": cannot open: " + std::strerror(err);
    return err == ENOENT ? Status::NotFound(msg) : Status::IoError(msg);
  }
  if (options.chunk_bytes == 0) options.chunk_bytes = 1;
  std::unique_ptr<JsonStream> stream(new JsonStream(path, f, std::string(), options));
  struct stat st {};
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) stream->total_bytes_ = st.st_size;
  return stream;
}

std::unique_ptr<JsonStream> JsonStream::FromString(std::string name, std::string text,
                                                   JsonStreamOptions options) {
  return std::unique_ptr<JsonStream>(
      new JsonStream(std::move(name), nullptr, std::move(text), options));
}

bool JsonStream::Refill() {
  if (eof_) return false;
  // Drop what has been consumed, then append a chunk.
  buffer_.erase(0, pos_);
  pos_ = 0;
  const size_t old = buffer_.size();
  buffer_.resize(old + options_.chunk_bytes);
  const size_t n = std::fread(buffer_.data() + old, 1, options_.chunk_bytes, file_);
  buffer_.resize(old + n);
  bytes_read_ += static_cast<int64_t>(n);
  if (n == 0) eof_ = true;
  return n > 0;
}

double JsonStream::Progress() const {
  if (file_ == nullptr) {
    return buffer_.empty() ? 1.0 : static_cast<double>(pos_) / static_cast<double>(buffer_.size());
  }
  if (total_bytes_ <= 0) return total_bytes_ == 0 ? 1.0 : -1.0;
  const auto consumed = bytes_read_ - static_cast<int64_t>(buffer_.size() - pos_);
  return std::clamp(static_cast<double>(consumed) / static_cast<double>(total_bytes_), 0.0, 1.0);
}

int JsonStream::Peek() {
  while (pos_ >= buffer_.size()) {
    if (!Refill()) return -1;
  }
  return static_cast<unsigned char>(buffer_[pos_]);
}

int JsonStream::Get() {
  const int c = Peek();
  if (c >= 0) {
    ++pos_;
    if (c == '\n') ++line_;
  }
  return c;
}

void JsonStream::SkipBlanks() {
  while (IsBlank(Peek())) Get();
}

Status JsonStream::Error(const std::string& what) const {
  return Status::InvalidArgument(name_ + ":" + std::to_string(line_) + ": " + what);
}

Status JsonStream::Unexpected(int c, const char* wanted) const {
  return Error("bad JSON: " + Describe(c) + " where " + wanted + " was expected");
}

Result<bool> JsonStream::Next(JsonValue* value) {
  if (!failed_.ok()) return failed_;
  auto fail = [this](Status s) -> Result<bool> {
    failed_ = s;
    return s;
  };
  SkipBlanks();
  if (mode_ == Mode::kUnknown) {
    if (Peek() == '[') {
      Get();
      mode_ = Mode::kArray;
    } else {
      mode_ = Mode::kConcatenated;
    }
  }
  if (mode_ == Mode::kDone) {
    SkipBlanks();
    if (Peek() >= 0) return fail(Unexpected(Peek(), "the end of input after the top-level array"));
    return false;
  }
  if (mode_ == Mode::kArray) {
    SkipBlanks();
    if (Peek() == ']') {
      Get();
      mode_ = Mode::kDone;
      return Next(value);
    }
    if (!array_first_) {
      const int c = Get();
      if (c != ',') return fail(Unexpected(c, "',' or ']' in the top-level array"));
      SkipBlanks();
    }
    array_first_ = false;
    Result<JsonValue> v = ParseValue(1);
    if (!v.ok()) return fail(v.status());
    *value = std::move(v).value();
    return true;
  }
  if (Peek() < 0) return false;
  Result<JsonValue> v = ParseValue(0);
  if (!v.ok()) return fail(v.status());
  *value = std::move(v).value();
  return true;
}

Result<JsonValue> JsonStream::ParseValue(int depth) {
  SkipBlanks();
  const int c = Peek();
  switch (c) {
    case '{':
      return ParseObject(depth + 1);
    case '[':
      return ParseArray(depth + 1);
    case '"': {
      const int64_t line = line_;
      ASSIGN_OR_RETURN(std::string s, ParseString());
      return JsonValue::String(std::move(s), line);
    }
    case 't':
      RETURN_NOT_OK(ParseLiteral("true"));
      return JsonValue::Bool(true, line_);
    case 'f':
      RETURN_NOT_OK(ParseLiteral("false"));
      return JsonValue::Bool(false, line_);
    case 'n':
      RETURN_NOT_OK(ParseLiteral("null"));
      return JsonValue::Null(line_);
    default:
      if (c == '-' || IsDigit(c)) return ParseNumber();
      return Unexpected(c, "a JSON value");
  }
}

Result<JsonValue> JsonStream::ParseObject(int depth) {
  if (depth > options_.max_depth) {
    return Error("JSON nested deeper than " + std::to_string(options_.max_depth) + " levels");
  }
  JsonValue obj = JsonValue::Object(line_);
  Get();  // '{'
  SkipBlanks();
  if (Peek() == '}') {
    Get();
    return obj;
  }
  while (true) {
    SkipBlanks();
    if (Peek() != '"') return Unexpected(Peek(), "an object key (a string)");
    ASSIGN_OR_RETURN(std::string key, ParseString());
    if (obj.Find(key) != nullptr) return Error("duplicate object key \"" + key + "\"");
    SkipBlanks();
    const int colon = Get();
    if (colon != ':') return Unexpected(colon, "':' after an object key");
    ASSIGN_OR_RETURN(JsonValue v, ParseValue(depth));
    obj.mutable_members().push_back(JsonMember{std::move(key), std::move(v)});
    SkipBlanks();
    const int c = Get();
    if (c == '}') return obj;
    if (c != ',') return Unexpected(c, "',' or '}' in an object");
  }
}

Result<JsonValue> JsonStream::ParseArray(int depth) {
  if (depth > options_.max_depth) {
    return Error("JSON nested deeper than " + std::to_string(options_.max_depth) + " levels");
  }
  JsonValue arr = JsonValue::Array(line_);
  Get();  // '['
  SkipBlanks();
  if (Peek() == ']') {
    Get();
    return arr;
  }
  while (true) {
    ASSIGN_OR_RETURN(JsonValue v, ParseValue(depth));
    arr.mutable_elements().push_back(std::move(v));
    SkipBlanks();
    const int c = Get();
    if (c == ']') return arr;
    if (c != ',') return Unexpected(c, "',' or ']' in an array");
  }
}

Result<uint32_t> JsonStream::ParseHex4() {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    const int c = Get();
    int d;
    if (IsDigit(c)) {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      return Unexpected(c, "a hex digit of a \\u escape");
    }
    v = v * 16 + static_cast<uint32_t>(d);
  }
  return v;
}

Result<std::string> JsonStream::ParseString() {
  Get();  // '"'
  std::string out;
  while (true) {
    const int c = Get();
    if (c < 0) return Error("bad JSON: unterminated string");
    if (c == '"') return out;
    if (c < 0x20) {
      if (c == '\n') --line_;  // name the line the string is on
      return Error("bad JSON: control character " + Describe(c) + " in a string");
    }
    if (c != '\\') {
      out.push_back(static_cast<char>(c));
      continue;
    }
    const int e = Get();
    switch (e) {
      case '"':
        out.push_back('"');
        break;
      case '\\':
        out.push_back('\\');
        break;
      case '/':
        out.push_back('/');
        break;
      case 'b':
        out.push_back('\b');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'u': {
        ASSIGN_OR_RETURN(uint32_t cp, ParseHex4());
        if (cp >= 0xdc00 && cp <= 0xdfff) return Error("bad JSON: lone low surrogate \\u escape");
        if (cp >= 0xd800 && cp <= 0xdbff) {
          // A high surrogate must be followed by an escaped low one.
          if (Get() != '\\' || Get() != 'u') {
            return Error("bad JSON: high surrogate \\u escape without its low half");
          }
          ASSIGN_OR_RETURN(uint32_t lo, ParseHex4());
          if (lo < 0xdc00 || lo > 0xdfff) {
            return Error("bad JSON: high surrogate \\u escape without its low half");
          }
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        }
        AppendUtf8(cp, &out);
        break;
      }
      default:
        return Unexpected(e, "an escape character after '\\'");
    }
  }
}

Result<JsonValue> JsonStream::ParseNumber() {
  const int64_t line = line_;
  std::string lit;
  if (Peek() == '-') lit.push_back(static_cast<char>(Get()));
  if (Peek() == '0') {
    lit.push_back(static_cast<char>(Get()));
    if (IsDigit(Peek())) return Error("bad JSON: number with a leading zero");
  } else if (IsDigit(Peek())) {
    while (IsDigit(Peek())) lit.push_back(static_cast<char>(Get()));
  } else {
    return Unexpected(Peek(), "a digit");
  }
  if (Peek() == '.') {
    lit.push_back(static_cast<char>(Get()));
    if (!IsDigit(Peek())) return Unexpected(Peek(), "a digit after '.'");
    while (IsDigit(Peek())) lit.push_back(static_cast<char>(Get()));
  }
  if (Peek() == 'e' || Peek() == 'E') {
    lit.push_back(static_cast<char>(Get()));
    if (Peek() == '+' || Peek() == '-') lit.push_back(static_cast<char>(Get()));
    if (!IsDigit(Peek())) return Unexpected(Peek(), "a digit of an exponent");
    while (IsDigit(Peek())) lit.push_back(static_cast<char>(Get()));
  }
  // A number runs into the next token only through a delimiter.
  const int next = Peek();
  if (next >= 0 && !IsBlank(next) && next != ',' && next != ']' && next != '}') {
    return Unexpected(next, "a delimiter after a number");
  }
  return JsonValue::Number(std::move(lit), line);
}

Status JsonStream::ParseLiteral(const char* word) {
  for (const char* p = word; *p != '\0'; ++p) {
    const int c = Get();
    if (c != *p) return Error(std::string("bad JSON: expected '") + word + "'");
  }
  const int next = Peek();
  if (next >= 0 &&
      (IsDigit(next) || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z'))) {
    return Error(std::string("bad JSON: junk after '") + word + "'");
  }
  return Status::OK();
}

}  // namespace spindle::json
