#include "web/rest/rest_document.h"

#include <glog/logging.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>
#include <utility>

namespace spindle::web::rest {

struct RestNode::Field {
  std::string name;
  RestNode value;
};

namespace {

// Formats the shortest round-trip digits of `value` (finite, non-zero
// magnitude handled by the caller) the way java.lang.Float/Double.toString
// lays them out: plain notation for 1e-3 <= |v| < 1e7, else d.dddE<exp>.
template <typename T>
std::string JavaFloatingString(T value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "INF" : "-INF";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  CHECK(ec == std::errc()) << "to_chars failed";
  std::string sci(buf, end);  // "-1.2345e-04"
  std::string out;
  size_t pos = 0;
  if (sci[0] == '-') {
    out += '-';
    pos = 1;
  }
  const size_t e = sci.find('e');
  std::string digits;
  for (size_t i = pos; i < e; ++i) {
    if (sci[i] != '.') digits += sci[i];
  }
  const int exponent = std::atoi(sci.c_str() + e + 1);
  const T magnitude = std::fabs(value);
  if (magnitude >= static_cast<T>(1e-3) && magnitude < static_cast<T>(1e7)) {
    if (exponent >= 0) {
      const size_t int_len = static_cast<size_t>(exponent) + 1;
      std::string int_part = digits.substr(0, std::min(int_len, digits.size()));
      while (int_part.size() < int_len) int_part += '0';
      std::string frac = digits.size() > int_len ? digits.substr(int_len) : "0";
      out += int_part + "." + frac;
    } else {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
  } else {
    out += digits.substr(0, 1);
    out += '.';
    out += digits.size() > 1 ? digits.substr(1) : "0";
    out += 'E';
    out += std::to_string(exponent);
  }
  return out;
}

void JsonString(std::string_view s, std::string* out) {
  *out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '/':
        // Jersey 1's JSON encoder escapes the solidus ("\/default-rack").
        *out += "\\/";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\t':
        *out += "\\t";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\b':
        *out += "\\b";
        break;
      case '\f':
        *out += "\\f";
        break;
      default:
        if (c < 0x20) {
          static const char kHex[] = "0123456789abcdef";
          *out += "\\u00";
          *out += kHex[c >> 4];
          *out += kHex[c & 0xf];
        } else {
          *out += static_cast<char>(c);
        }
    }
  }
  *out += '"';
}

}  // namespace

std::string JavaFloatString(float value) { return JavaFloatingString(value); }
std::string JavaDoubleString(double value) { return JavaFloatingString(value); }

std::string XmlEscape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += attribute ? "&quot;" : "\"";
        break;
      default:
        out += c;
    }
  }
  return out;
}

RestNode::RestNode() : kind_(Kind::kObject) {}
RestNode::RestNode(Kind kind, std::string text) : kind_(kind), text_(std::move(text)) {}
RestNode::RestNode(const RestNode&) = default;
RestNode::RestNode(RestNode&&) noexcept = default;
RestNode& RestNode::operator=(const RestNode&) = default;
RestNode& RestNode::operator=(RestNode&&) noexcept = default;
RestNode::~RestNode() = default;

RestNode RestNode::Object() { return RestNode(Kind::kObject); }
RestNode RestNode::List() { return RestNode(Kind::kList); }
RestNode RestNode::String(std::string value) { return RestNode(Kind::kString, std::move(value)); }
RestNode RestNode::Int(int64_t value) { return RestNode(Kind::kNumber, std::to_string(value)); }
RestNode RestNode::Float(float value) { return RestNode(Kind::kNumber, JavaFloatString(value)); }
RestNode RestNode::Double(double value) { return RestNode(Kind::kNumber, JavaDoubleString(value)); }
RestNode RestNode::Bool(bool value) { return RestNode(Kind::kBool, value ? "true" : "false"); }

void RestNode::AddField(std::string_view name, RestNode value) {
  CHECK(kind_ == Kind::kObject) << "field " << name << " added to a non-object";
  fields_.push_back(Field{std::string(name), std::move(value)});
}

RestNode& RestNode::Str(std::string_view name, std::string value) {
  AddField(name, String(std::move(value)));
  return *this;
}

RestNode& RestNode::OptStr(std::string_view name, const std::optional<std::string>& value) {
  if (value) AddField(name, String(*value));
  return *this;
}

RestNode& RestNode::Int(std::string_view name, int64_t value) {
  AddField(name, Int(value));
  return *this;
}

RestNode& RestNode::Float(std::string_view name, float value) {
  AddField(name, Float(value));
  return *this;
}

RestNode& RestNode::Double(std::string_view name, double value) {
  AddField(name, Double(value));
  return *this;
}

RestNode& RestNode::Bool(std::string_view name, bool value) {
  AddField(name, Bool(value));
  return *this;
}

RestNode& RestNode::Put(std::string_view name, RestNode child) {
  AddField(name, std::move(child));
  return *this;
}

RestNode& RestNode::Items(std::string_view name, std::vector<RestNode> items) {
  if (items.empty()) {
    CHECK(kind_ == Kind::kObject) << "field " << name << " added to a non-object";
    return *this;
  }
  RestNode list = List();
  for (auto& item : items) list.Append(std::move(item));
  AddField(name, std::move(list));
  return *this;
}

RestNode& RestNode::StrItems(std::string_view name, const std::vector<std::string>& items) {
  std::vector<RestNode> nodes;
  nodes.reserve(items.size());
  for (const auto& item : items) nodes.push_back(String(item));
  return Items(name, std::move(nodes));
}

RestNode& RestNode::Append(RestNode item) {
  CHECK(kind_ == Kind::kList) << "item appended to a non-list";
  CHECK(item.kind_ != Kind::kList) << "a list item cannot itself be a list";
  fields_.push_back(Field{"", std::move(item)});
  return *this;
}

RestNode& RestNode::SetXsiType(std::string type) {
  CHECK(kind_ == Kind::kObject) << "xsi type on a non-object";
  xsi_type_ = std::move(type);
  return *this;
}

const RestNode* RestNode::Find(std::string_view name) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const auto& field : fields_) {
    if (field.name == name) return &field.value;
  }
  return nullptr;
}

size_t RestNode::size() const { return fields_.size(); }

void RestNode::WriteJson(std::string* out) const {
  switch (kind_) {
    case Kind::kString:
      JsonString(text_, out);
      return;
    case Kind::kNumber:
      // JSON has no NaN/Infinity; see the header.
      if (text_ == "NaN" || text_ == "INF" || text_ == "-INF") {
        *out += "0.0";
      } else {
        *out += text_;
      }
      return;
    case Kind::kBool:
      *out += text_;
      return;
    case Kind::kList: {
      *out += '[';
      bool first = true;
      for (const auto& item : fields_) {
        if (!first) *out += ',';
        first = false;
        item.value.WriteJson(out);
      }
      *out += ']';
      return;
    }
    case Kind::kObject: {
      *out += '{';
      bool first = true;
      if (!xsi_type_.empty()) {
        JsonString("type", out);
        *out += ':';
        JsonString(xsi_type_, out);
        first = false;
      }
      for (const auto& field : fields_) {
        if (!first) *out += ',';
        first = false;
        JsonString(field.name, out);
        *out += ':';
        field.value.WriteJson(out);
      }
      *out += '}';
      return;
    }
  }
}

void RestNode::WriteXml(const std::string& name, bool xsi_declared, std::string* out) const {
  if (kind_ == Kind::kList) {
    for (const auto& item : fields_) item.value.WriteXml(name, xsi_declared, out);
    return;
  }
  *out += '<';
  *out += name;
  if (!xsi_type_.empty()) {
    // JAXB declares the xsi prefix on the outermost element that uses it.
    if (!xsi_declared) *out += " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"";
    xsi_declared = true;
    *out += " xsi:type=\"";
    *out += XmlEscape(xsi_type_, /*attribute=*/true);
    *out += '"';
  }
  if (kind_ == Kind::kObject) {
    if (fields_.empty()) {
      *out += "/>";
      return;
    }
    *out += '>';
    for (const auto& field : fields_) field.value.WriteXml(field.name, xsi_declared, out);
  } else {
    *out += '>';
    *out += XmlEscape(text_);
  }
  *out += "</";
  *out += name;
  *out += '>';
}

RestDocument::RestDocument(std::string root, RestNode body, JsonRoot json_root)
    : root_(std::move(root)), body_(std::move(body)), json_root_(json_root) {
  CHECK(body_.kind() == RestNode::Kind::kObject) << "a document's body is an object";
}

std::string RestDocument::ToJson() const {
  if (json_root_ == JsonRoot::kUnwrapped) {
    std::string out;
    body_.WriteJson(&out);
    return out;
  }
  std::string out = "{";
  JsonString(root_, &out);
  out += ':';
  body_.WriteJson(&out);
  out += '}';
  return out;
}

std::string RestDocument::ToXml() const {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>";
  body_.WriteXml(root_, /*xsi_declared=*/false, &out);
  return out;
}

}  // namespace spindle::web::rest
