#include "base/markup_escape.h"

namespace spindle {

std::string EscapeMarkup(std::string_view text, MarkupEscape mode) {
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
        out += mode == MarkupEscape::kText ? "\"" : "&quot;";
        break;
      case '\'':
        out += mode == MarkupEscape::kAll ? "&#39;" : "'";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace spindle
