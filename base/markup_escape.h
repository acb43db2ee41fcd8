// EscapeMarkup: text made safe inside XML or HTML. One function for every
// writer of markup (REST XML, /conf, /logLevel, the SVG/HTML reports), with
// the escapes each needs:
//   kText       & < >        element text as JAXB and Hadoop's
//                            Configuration.writeXml write it
//   kAttribute  & < > "      a double-quoted attribute value as well
//   kAll        & < > " '    anywhere in HTML (text or either quoting)
// Bytes pass through otherwise (UTF-8 is not checked).
//
// Thread-safety: pure.
#pragma once

#include <string>
#include <string_view>

namespace spindle {

enum class MarkupEscape { kText, kAttribute, kAll };

std::string EscapeMarkup(std::string_view text, MarkupEscape mode = MarkupEscape::kAll);

}  // namespace spindle
