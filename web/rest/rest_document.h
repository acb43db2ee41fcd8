// RestNode / RestDocument: the tree a REST handler builds for one answer,
// rendered the way Hadoop's RM (Jersey 1 + JAXB, "natural" JSON notation,
// root element kept) writes it, so clients that parse the RM's JSON or XML
// read ours unchanged (WIRE.md section 8).
//
// JSON rules: one top-level key named after the root element; int/long and
// float values are JSON numbers, booleans are JSON booleans, strings are
// strings (escaped as Jersey 1 escapes them, "/" included: "\/"); a list renders as an array even
// with one item, and an empty list is omitted (as JAXB writes no element for it), so a wrapper
// object with nothing inside renders as {} ({"apps":{}}). Absent nullable strings are simply not
// added (OptStr). A node with an xsi type (the scheduler and queue info subclasses) gets
// "type":"<xsi type>" as its first JSON field.
//
// XML rules: the JAXB header, then the same element names; list items are
// repeated elements; text is escaped; an object with no children is <x/>,
// an empty string is <x></x>; an xsi type becomes an xsi:type attribute.
//
// Floats print as Java's Float.toString does ("0.0", "12.5", "1.0E-4"),
// doubles as Double.toString. JSON has no NaN or infinity: those render as
// 0.0 in JSON (NaN / INF / -INF in XML, as JAXB prints them); callers clamp
// progress-like values before adding them anyway.
//
// Building: field order is insertion order (JAXB writes a DAO's fields in
// declaration order). Adding a field to a non-object node, or a named field
// to a list, is a programming error (CHECK).
//
// Thread-safety: values; no shared state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::web::rest {

class RestNode {
 public:
  enum class Kind { kObject, kList, kString, kNumber, kBool };

  // An empty object (the default) or an empty list.
  RestNode();
  static RestNode Object();
  static RestNode List();
  // Scalars, mostly for list items (e.g. nodeLabels).
  static RestNode String(std::string value);
  static RestNode Int(int64_t value);
  static RestNode Float(float value);
  static RestNode Double(double value);
  static RestNode Bool(bool value);

  RestNode(const RestNode&);
  RestNode(RestNode&&) noexcept;
  RestNode& operator=(const RestNode&);
  RestNode& operator=(RestNode&&) noexcept;
  ~RestNode();

  // Object fields; each returns *this for chaining.
  RestNode& Str(std::string_view name, std::string value);
  // Adds the field only when `value` is set (a nullable Java String).
  RestNode& OptStr(std::string_view name, const std::optional<std::string>& value);
  RestNode& Int(std::string_view name, int64_t value);
  RestNode& Float(std::string_view name, float value);
  RestNode& Double(std::string_view name, double value);
  RestNode& Bool(std::string_view name, bool value);
  // A child node (object, or a list rendered as a repeated element). Names
  // are not checked for uniqueness: putting "entry" twice writes the key
  // twice, as Jersey 1 writes the entries of a JAXB map.
  RestNode& Put(std::string_view name, RestNode child);
  // A repeated element `name` with these items; nothing if `items` is empty.
  RestNode& Items(std::string_view name, std::vector<RestNode> items);
  // A repeated string element (e.g. nodeLabels); nothing if empty.
  RestNode& StrItems(std::string_view name, const std::vector<std::string>& items);

  // List items.
  RestNode& Append(RestNode item);

  // The JAXB subclass name (xsi:type) of an object: "capacityScheduler".
  RestNode& SetXsiType(std::string type);

  Kind kind() const { return kind_; }
  // Scalar text (the rendered number for numbers); "" for containers.
  const std::string& text() const { return text_; }
  // The named field of an object, or nullptr.
  const RestNode* Find(std::string_view name) const;
  size_t size() const;

 private:
  struct Field;
  friend class RestDocument;

  explicit RestNode(Kind kind, std::string text = "");
  void AddField(std::string_view name, RestNode value);
  void WriteJson(std::string* out) const;
  void WriteXml(const std::string& name, bool xsi_declared, std::string* out) const;

  Kind kind_;
  std::string text_;
  std::string xsi_type_;
  // Object fields in order, or list items (name unused).
  std::vector<Field> fields_;
};

// One REST answer: the root element name and its content (an object).
class RestDocument {
 public:
  // Whether the JSON keeps the root element as its one top-level key
  // (every DAO but a few), or writes the body alone: Hadoop's
  // JAXBContextResolver unwraps NewApplication, DelegationToken, AppQueue,
  // AppPriority ..., and AppState, which it does not list, is written by
  // Jersey's default (root unwrapped) JSON. XML always has the root.
  enum class JsonRoot { kKept, kUnwrapped };

  RestDocument(std::string root, RestNode body, JsonRoot json_root = JsonRoot::kKept);

  const std::string& root() const { return root_; }
  const RestNode& body() const { return body_; }

  // {"<root>":{...}}, or {...} when the root is unwrapped.
  std::string ToJson() const;
  // <?xml ... standalone="yes"?><root>...</root>
  std::string ToXml() const;

 private:
  std::string root_;
  RestNode body_;
  JsonRoot json_root_;
};

// Java's Float.toString / Double.toString of a finite value ("1.0",
// "0.001", "1.0E7", "1.2345E-4"); JAXB's NaN / INF / -INF otherwise.
std::string JavaFloatString(float value);
std::string JavaDoubleString(double value);

// XML text escaping as JAXB does it (&, <, >; plus " in attributes).
std::string XmlEscape(std::string_view text, bool attribute = false);

}  // namespace spindle::web::rest
