#include "rm/core/allocate_rules.h"

#include "rm/yarn_exceptions.h"

namespace spindle::rm {

namespace {

// Java's int `x + 1`: two's complement wrap-around, without C++'s undefined
// signed overflow.
int32_t JavaIntPlusOne(int32_t x) { return static_cast<int32_t>(static_cast<uint32_t>(x) + 1u); }

constexpr char kInvalidPrefix[] =
    "Invalid responseId in AllocateRequest from application attempt: ";

}  // namespace

int32_t NextResponseId(AmProtocolRules rules, int32_t last_id) {
  switch (rules) {
    case AmProtocolRules::kHadoop2:
      // ApplicationMasterService (2.6/2.7): lastResponse.getResponseId() + 1.
      return JavaIntPlusOne(last_id);
    case AmProtocolRules::kHadoop3:
      // AMRMClientUtils.getNextResponseId: loops between 0 and MAX_VALUE.
      return JavaIntPlusOne(last_id) & 0x7fffffff;
  }
  return JavaIntPlusOne(last_id);
}

Result<ResponseIdVerdict> CheckResponseId(AmProtocolRules rules,
                                          const ApplicationAttemptId& attempt, int32_t request_id,
                                          int32_t last_id) {
  switch (rules) {
    case AmProtocolRules::kHadoop2: {
      const int32_t next = JavaIntPlusOne(request_id);
      if (next == last_id) return ResponseIdVerdict::kResendLast;
      if (next < last_id) {
        return Status::Remote(yarn::kInvalidApplicationMasterRequest,
                              kInvalidPrefix + attempt.ToString() + ", expect responseId to be " +
                                  std::to_string(JavaIntPlusOne(last_id)));
      }
      return ResponseIdVerdict::kAnswer;
    }
    case AmProtocolRules::kHadoop3:
      if (NextResponseId(rules, request_id) == last_id) return ResponseIdVerdict::kResendLast;
      if (request_id != last_id) {
        return Status::Remote(yarn::kInvalidApplicationMasterRequest,
                              kInvalidPrefix + attempt.ToString() + ", expect responseId to be " +
                                  std::to_string(last_id) + ", but get " +
                                  std::to_string(request_id));
      }
      return ResponseIdVerdict::kAnswer;
  }
  return ResponseIdVerdict::kAnswer;
}

std::string AmNotRegisteredMessage(AmProtocolRules rules, const ApplicationAttemptId& attempt) {
  const std::string head =
      "AM is not registered for known application attempt: " + attempt.ToString() +
      " or RM had restarted after AM registered";
  switch (rules) {
    case AmProtocolRules::kHadoop2:
      return head + " . AM should re-register.";
    case AmProtocolRules::kHadoop3:
      // "registered. " + " AM should ...": two blanks, as 3.3 writes it.
      return head + ".  AM should re-register.";
  }
  return head + ". AM should re-register.";
}

}  // namespace spindle::rm
