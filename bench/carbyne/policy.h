// PolicyKind: the cluster schedulers the Carbyne model compares (seed paper
// 003, §5.1): DRF between jobs with breadth-first order inside each (the
// baseline), Carbyne (altruism on top of DRF), and two references: Tetris
// packing across jobs and SRTF (least remaining work first).
//
// Thread-safety: values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace spindle::bench::carbyne {

enum class PolicyKind : uint8_t {
  kDrf,      // job-level DRF, progressive filling, work conserving
  kCarbyne,  // DRF + intra-job altruism + leftover to SRTF, placed by packing
  kTetris,   // each machine takes the best-aligned runnable task (no fairness)
  kSrtf,     // jobs by least remaining work, greedily
};

// Short names, as flags and tables print them: "drf", "carbyne", "tetris",
// "srtf".
const char* PolicyName(PolicyKind kind);
// InvalidArgument naming the policies for any other text.
Result<PolicyKind> ParsePolicy(const std::string& text);
// Every policy, in table order (DRF first: the others are compared with it).
std::vector<PolicyKind> AllPolicies();

}  // namespace spindle::bench::carbyne
