#include "rm/recovery/store_record_names.h"

#include <charconv>

#include "rm/security/master_key_manager.h"

namespace spindle::rm {

std::optional<int64_t> ParseStoredNumber(std::string_view text) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<persist::ClusterField> ClusterFieldNamed(std::string_view name) {
  using persist::ClusterField;
  for (ClusterField field :
       {ClusterField::kClusterTimestamp, ClusterField::kAppIdCounter, ClusterField::kEpoch,
        ClusterField::kQueueConfigVersion, ClusterField::kDelegationTokenSequence}) {
    if (name == persist::ClusterFieldName(field)) return field;
  }
  return std::nullopt;
}

const std::string& AmrmKeyFamily() {
  static const std::string family = KeyFamilyName(KeyFamily::kAmrmTokens);
  return family;
}

bool IsHadoopAttemptId(std::string_view id) {
  return id.starts_with("appattempt_") && id.find('/') == std::string_view::npos;
}

}  // namespace spindle::rm
