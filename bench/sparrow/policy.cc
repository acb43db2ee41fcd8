#include "bench/sparrow/policy.h"

#include "bench/sparrow/batch_sampling.h"
#include "bench/sparrow/late_binding.h"
#include "bench/sparrow/omniscient.h"
#include "bench/sparrow/per_task_sampling.h"
#include "bench/sparrow/random_placement.h"

namespace spindle::bench::sparrow {

std::optional<int> Policy::OnGetTask(int /*job*/, int /*node*/, Cluster& /*cluster*/) {
  return std::nullopt;
}

const char* PolicyName(PolicyKind kind) {
  switch (kind) {
    case PolicyKind::kRandom:
      return "random";
    case PolicyKind::kPerTaskSampling:
      return "per-task";
    case PolicyKind::kBatchSampling:
      return "batch";
    case PolicyKind::kBatchLateBinding:
      return "batch+late";
    case PolicyKind::kOmniscient:
      return "omniscient";
  }
  return "?";
}

std::vector<PolicyKind> AllPolicies() {
  return {PolicyKind::kRandom, PolicyKind::kPerTaskSampling, PolicyKind::kBatchSampling,
          PolicyKind::kBatchLateBinding, PolicyKind::kOmniscient};
}

Result<PolicyKind> ParsePolicy(const std::string& text) {
  for (PolicyKind k : AllPolicies()) {
    if (text == PolicyName(k)) return k;
  }
  return Status::InvalidArgument("policy '" + text +
                                 "': expected random, per-task, batch, batch+late or omniscient");
}

std::unique_ptr<Policy> MakePolicy(PolicyKind kind) {
  switch (kind) {
    case PolicyKind::kRandom:
      return std::make_unique<RandomPlacement>();
    case PolicyKind::kPerTaskSampling:
      return std::make_unique<PerTaskSampling>();
    case PolicyKind::kBatchSampling:
      return std::make_unique<BatchSampling>();
    case PolicyKind::kBatchLateBinding:
      return std::make_unique<LateBinding>();
    case PolicyKind::kOmniscient:
      return std::make_unique<Omniscient>();
  }
  return nullptr;
}

}  // namespace spindle::bench::sparrow
