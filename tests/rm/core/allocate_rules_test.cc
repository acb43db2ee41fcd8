#include "rm/core/allocate_rules.h"

#include <gtest/gtest.h>

#include <climits>

#include "rm/yarn_exceptions.h"

namespace spindle::rm {
namespace {

const ApplicationAttemptId kAttempt =
    ApplicationAttemptId::Parse("appattempt_1700000000000_0007_000001").value();

AmProtocolRules RulesOf(HadoopLine line) { return TraitsOf(line).am_rules; }

class AllocateRulesPerLine : public ::testing::TestWithParam<HadoopLine> {};

TEST_P(AllocateRulesPerLine, EqualIsAnsweredAndOneBehindGetsTheLastAnswer) {
  const AmProtocolRules rules = RulesOf(GetParam());
  EXPECT_EQ(CheckResponseId(rules, kAttempt, 3, 3).value(), ResponseIdVerdict::kAnswer);
  EXPECT_EQ(CheckResponseId(rules, kAttempt, 2, 3).value(), ResponseIdVerdict::kResendLast);
  EXPECT_EQ(NextResponseId(rules, 3), 4);
}

TEST_P(AllocateRulesPerLine, FurtherBehindIsRefused) {
  auto verdict = CheckResponseId(RulesOf(GetParam()), kAttempt, 1, 3);
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.status().java_class(), yarn::kInvalidApplicationMasterRequest);
}

INSTANTIATE_TEST_SUITE_P(EveryLine, AllocateRulesPerLine,
                         ::testing::Values(HadoopLine::k2_6, HadoopLine::k2_7, HadoopLine::k3_3));

TEST(AllocateRulesTest, AheadIsAnsweredOnHadoop2Lines) {
  // ApplicationMasterService.allocate (2.6.5, 2.7.7) refuses only
  // `request + 1 < last`: one ahead (the 4 after 3) and far ahead
  // are processed, and the answer is numbered last + 1.
  for (const auto line : {HadoopLine::k2_6, HadoopLine::k2_7}) {
    const AmProtocolRules rules = RulesOf(line);
    EXPECT_EQ(CheckResponseId(rules, kAttempt, 4, 3).value(), ResponseIdVerdict::kAnswer);
    EXPECT_EQ(CheckResponseId(rules, kAttempt, 1000, 3).value(), ResponseIdVerdict::kAnswer);
    EXPECT_EQ(NextResponseId(rules, 3), 4) << "numbered after the last answer, not the request";
  }
}

TEST(AllocateRulesTest, AheadIsRefusedOnHadoop3AsHadoop3Refuses) {
  auto verdict = CheckResponseId(RulesOf(HadoopLine::k3_3), kAttempt, 4, 3);
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.status().java_class(),
            "org.apache.hadoop.yarn.exceptions.InvalidApplicationMasterRequestException");
  // AMRMClientUtils.assembleInvalidResponseIdExceptionMessage (3.3), which
  // the 3.x AMRMClient parses to resync its responseId.
  EXPECT_EQ(verdict.status().message(),
            "Invalid responseId in AllocateRequest from application attempt: "
            "appattempt_1700000000000_0007_000001, expect responseId to be 3, but get 4");
}

TEST(AllocateRulesTest, Hadoop2RefusalNamesTheNextId) {
  auto verdict = CheckResponseId(RulesOf(HadoopLine::k2_7), kAttempt, 1, 3);
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.status().message(),
            "Invalid responseId in AllocateRequest from application attempt: "
            "appattempt_1700000000000_0007_000001, expect responseId to be 4");
}

TEST(AllocateRulesTest, NumberingAtTheTopOfTheIntRange) {
  // 3.x loops back to 0 (and then accepts MAX_VALUE as one behind 0);
  // 2.x overflows to Integer.MIN_VALUE as Java's int does.
  EXPECT_EQ(NextResponseId(RulesOf(HadoopLine::k3_3), INT32_MAX), 0);
  EXPECT_EQ(CheckResponseId(RulesOf(HadoopLine::k3_3), kAttempt, INT32_MAX, 0).value(),
            ResponseIdVerdict::kResendLast);
  EXPECT_EQ(NextResponseId(RulesOf(HadoopLine::k2_6), INT32_MAX), INT32_MIN);
  // 2.x: MAX_VALUE + 1 wraps below any last id: refused.
  EXPECT_FALSE(CheckResponseId(RulesOf(HadoopLine::k2_6), kAttempt, INT32_MAX, 5).ok());
}

TEST(AllocateRulesTest, NotRegisteredTextPerLine) {
  EXPECT_EQ(AmNotRegisteredMessage(RulesOf(HadoopLine::k2_7), kAttempt),
            "AM is not registered for known application attempt: "
            "appattempt_1700000000000_0007_000001 or RM had restarted after AM registered . "
            "AM should re-register.");
  EXPECT_EQ(AmNotRegisteredMessage(RulesOf(HadoopLine::k3_3), kAttempt),
            "AM is not registered for known application attempt: "
            "appattempt_1700000000000_0007_000001 or RM had restarted after AM registered.  "
            "AM should re-register.");
}

}  // namespace
}  // namespace spindle::rm
