#include "rm/recovery/store_fenced.h"

#include <string>

namespace spindle::rm {

Status StoreFencedStatus(std::string_view detail) {
  return Status::Remote(kStoreFencedException,
                        "the state store was fenced: another ResourceManager took it over (" +
                            std::string(detail) + ")",
                        Status::Code::kAborted);
}

bool IsStoreFenced(const Status& status) { return status.java_class() == kStoreFencedException; }

}  // namespace spindle::rm
