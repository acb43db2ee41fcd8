#include "scheduler_pool/node_labels.h"

#include <glog/logging.h>

namespace spindle::pool {

LabelId NodeLabelTable::Intern(std::string_view name) {
  if (name.empty()) return kDefaultLabel;
  MutexLock lock(&mu_);
  auto it = ids_.find(std::string(name));
  if (it != ids_.end()) return it->second;
  const size_t next = ids_.size() + 1;
  if (next >= static_cast<size_t>(kMaxLabels)) {
    LOG(ERROR) << "more than " << kMaxLabels - 1 << " node labels: " << name
               << " is placed as the default partition";
    return kDefaultLabel;
  }
  const auto id = static_cast<LabelId>(next);
  ids_.emplace(std::string(name), id);
  return id;
}

std::optional<LabelId> NodeLabelTable::Find(std::string_view name) const {
  if (name.empty()) return kDefaultLabel;
  MutexLock lock(&mu_);
  auto it = ids_.find(std::string(name));
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

}  // namespace spindle::pool
