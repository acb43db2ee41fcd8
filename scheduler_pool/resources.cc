#include "scheduler_pool/resources.h"

#include <sstream>

namespace spindle::pool {

int64_t Resource::Multiples(const Resource& unit) const {
  int64_t k = std::numeric_limits<int64_t>::max();
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (unit.v_[i] <= 0) continue;
    if (v_[i] <= 0) return 0;
    const int64_t m = v_[i] / unit.v_[i];
    if (m < k) k = m;
  }
  return k;
}

double Resource::DominantShare(const Resource& total) const {
  double share = 0;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (total.v_[i] <= 0) continue;
    const double s = static_cast<double>(v_[i]) / static_cast<double>(total.v_[i]);
    if (s > share) share = s;
  }
  return share;
}

std::string Resource::ToString() const {
  std::ostringstream os;
  os << "<memory:" << v_[kMemoryIndex] << ", vCores:" << v_[kVcoresIndex];
  for (int i = 2; i < kMaxResourceTypes; ++i) {
    if (v_[i] != 0) os << ", t" << i << ":" << v_[i];
  }
  os << ">";
  return os.str();
}

ResourceTypes::ResourceTypes() : names_{"memory-mb", "vcores"} {}

Result<ResourceTypes> ResourceTypes::Create(const std::vector<std::string>& extended) {
  ResourceTypes types;
  if (extended.size() > static_cast<size_t>(kMaxResourceTypes - 2)) {
    return Status::InvalidArgument("at most " + std::to_string(kMaxResourceTypes - 2) +
                                   " extended resource types are supported, got " +
                                   std::to_string(extended.size()));
  }
  for (const auto& name : extended) {
    if (name.empty()) return Status::InvalidArgument("empty resource type name");
    if (types.IndexOf(name).ok()) {
      return Status::InvalidArgument("duplicate resource type '" + name + "'");
    }
    types.names_.push_back(name);
  }
  return types;
}

Result<int> ResourceTypes::IndexOf(std::string_view name) const {
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return static_cast<int>(i);
  }
  return Status::NotFound("unknown resource type '" + std::string(name) + "'");
}

std::string ResourceTypes::Format(const Resource& r) const {
  std::string out;
  for (int i = 0; i < size(); ++i) {
    if (i > 0) out += ",";
    out += names_[static_cast<size_t>(i)] + "=" + std::to_string(r.Get(i));
  }
  return out;
}

}  // namespace spindle::pool
