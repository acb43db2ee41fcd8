#include "bench/carbyne/policy.h"

namespace spindle::bench::carbyne {

const char* PolicyName(PolicyKind kind) {
  switch (kind) {
    case PolicyKind::kDrf:
      return "drf";
    case PolicyKind::kCarbyne:
      return "carbyne";
    case PolicyKind::kTetris:
      return "tetris";
    case PolicyKind::kSrtf:
      return "srtf";
  }
  return "?";
}

Result<PolicyKind> ParsePolicy(const std::string& text) {
  for (PolicyKind k : AllPolicies()) {
    if (text == PolicyName(k)) return k;
  }
  return Status::InvalidArgument("policy '" + text + "': expected drf, carbyne, tetris or srtf");
}

std::vector<PolicyKind> AllPolicies() {
  return {PolicyKind::kDrf, PolicyKind::kCarbyne, PolicyKind::kTetris, PolicyKind::kSrtf};
}

}  // namespace spindle::bench::carbyne
