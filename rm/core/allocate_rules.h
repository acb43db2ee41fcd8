// AllocateRules: what ApplicationMasterService does with an allocate's
// responseId, and the words it uses, on each Hadoop line
// (AmProtocolRules, chosen by spindle.compat.hadoop-version; the table is
// rm/config/HADOOP_LINES.md):
//
//   request vs the last answer's id L   2.6 / 2.7                     3.3
//   one behind (next(request) == L)     the last answer again         the last answer again
//   equal                               answered, numbered L + 1      answered, numbered next(L)
//   ahead                               answered, numbered L + 1      refused
//   further behind                      refused                       refused
//
// Refusals are InvalidApplicationMasterRequestException with the line's
// text. 2.x computes in Java int arithmetic (L + 1 may overflow to negative);
// 3.x numbers answers (L + 1) & Integer.MAX_VALUE (AMRMClientUtils).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"
#include "rm/config/hadoop_line.h"
#include "rm/records/yarn_ids.h"

namespace spindle::rm {

enum class ResponseIdVerdict {
  kResendLast,  // answer with the last answer, unchanged
  kAnswer,      // process the allocate; number the answer NextResponseId(L)
};

// The verdict for an allocate carrying `request_id` when the last answer
// was numbered `last_id`, or the line's InvalidApplicationMasterRequest-
// Exception.
Result<ResponseIdVerdict> CheckResponseId(AmProtocolRules rules,
                                          const ApplicationAttemptId& attempt, int32_t request_id,
                                          int32_t last_id);

// The id of the answer that follows one numbered `last_id`.
int32_t NextResponseId(AmProtocolRules rules, int32_t last_id);

// ApplicationMasterNotRegisteredException's text for an allocate of an
// attempt whose AM has not registered (with this RM run).
std::string AmNotRegisteredMessage(AmProtocolRules rules, const ApplicationAttemptId& attempt);

}  // namespace spindle::rm
