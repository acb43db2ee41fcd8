// TrimBlanks: text without the blanks around it, as Hadoop's list settings
// are read (an ACL's users and groups, a host list, hadoop.rpc.protection's
// words, a configuration value). Blanks are space, tab, CR and LF; other
// bytes, inner blanks included, are kept.
//
// Thread-safety: pure.
#pragma once

#include <string_view>

namespace spindle {

// A view into `text`, so it lives as long as `text`'s characters do.
std::string_view TrimBlanks(std::string_view text);

}  // namespace spindle
