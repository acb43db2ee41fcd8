// Checks of generated HTML for report tests.
#pragma once

#include <string>

namespace spindle::testing {

// "" if every tag of `html` is closed in order (void elements, self-closing
// tags and the doctype aside); else what is wrong first.
std::string CheckTags(const std::string& html);

}  // namespace spindle::testing
