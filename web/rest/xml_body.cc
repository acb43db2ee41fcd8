#include "web/rest/xml_body.h"

#include <algorithm>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <sstream>

namespace spindle::web::rest {

namespace {

namespace pt = boost::property_tree;
using json::JsonMember;
using json::JsonValue;

bool IsMarkup(const std::string& tag) { return tag == "<xmlattr>" || tag == "<xmlcomment>"; }

JsonValue Bind(const pt::ptree& element) {
  bool has_children = false;
  for (const auto& [tag, child] : element) {
    if (!IsMarkup(tag)) has_children = true;
  }
  if (!has_children) return JsonValue::String(element.data(), 0);
  JsonValue object = JsonValue::Object(0);
  auto& members = object.mutable_members();
  for (const auto& [tag, child] : element) {
    if (IsMarkup(tag)) continue;
    JsonValue value = Bind(child);
    // Clang (before 16) cannot capture a structured binding.
    const std::string& key = tag;
    auto existing = std::find_if(members.begin(), members.end(),
                                 [&](const JsonMember& m) { return m.key == key; });
    if (existing == members.end()) {
      members.push_back(JsonMember{tag, std::move(value)});
    } else if (existing->value.is_array()) {
      existing->value.mutable_elements().push_back(std::move(value));
    } else {
      JsonValue list = JsonValue::Array(0);
      list.mutable_elements().push_back(std::move(existing->value));
      list.mutable_elements().push_back(std::move(value));
      existing->value = std::move(list);
    }
  }
  return object;
}

}  // namespace

Result<JsonValue> XmlBodyAsJson(std::string_view xml, const std::string& expected_root) {
  pt::ptree tree;
  std::istringstream in{std::string(xml)};
  try {
    pt::read_xml(in, tree, pt::xml_parser::no_comments);
  } catch (const pt::xml_parser_error& e) {
    return Status::InvalidArgument("malformed XML at line " + std::to_string(e.line()) + ": " +
                                   e.message());
  }
  const pt::ptree* root = nullptr;
  for (const auto& [tag, child] : tree) {
    if (tag == "<xmldecl>" || IsMarkup(tag)) continue;
    if (tag != expected_root || root != nullptr) {
      return Status::InvalidArgument("unexpected element <" + tag + ">: expected <" +
                                     expected_root + ">");
    }
    root = &child;
  }
  if (root == nullptr) {
    return Status::InvalidArgument("no <" + expected_root + "> element");
  }
  JsonValue bound = Bind(*root);
  // <root/> is an empty object, not an empty string.
  if (bound.is_string()) return JsonValue::Object(0);
  return bound;
}

}  // namespace spindle::web::rest
