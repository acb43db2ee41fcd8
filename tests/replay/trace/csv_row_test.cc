#include "replay/trace/csv_row.h"

#include <gtest/gtest.h>

namespace spindle::replay {
namespace {

TEST(CsvRowTest, KeepsEmptyFields) {
  CsvRow row;
  row.Split("1,,x,", "f.csv:3");
  ASSERT_EQ(row.size(), 4);
  EXPECT_EQ(row.field(1), "1");
  EXPECT_TRUE(row.empty(2));
  EXPECT_EQ(row.field(3), "x");
  EXPECT_TRUE(row.empty(4));
  row.Split("", "f.csv:4");
  EXPECT_EQ(row.size(), 1);
}

TEST(CsvRowTest, TypedFieldsAndTheirErrors) {
  CsvRow row;
  row.Split("42,-7,3.815e-06,,x,1.5,99999999999999999999,+3", "task_events.csv.gz:1234");
  EXPECT_EQ(*row.Int(1, "a"), 42);
  EXPECT_EQ(*row.Int(2, "b"), -7);
  EXPECT_DOUBLE_EQ(*row.Double(3, "c"), 3.815e-06);
  EXPECT_FALSE(row.OptionalDouble(4, "d")->has_value());
  EXPECT_FALSE(row.OptionalInt(4, "d")->has_value());
  EXPECT_EQ(*row.Int(8, "h"), 3);

  auto missing = row.Double(4, "memory request");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "task_events.csv.gz:1234: field 4 (memory request): "
            "missing (empty)");
  auto not_number = row.Double(5, "memory request");
  ASSERT_FALSE(not_number.ok());
  EXPECT_EQ(not_number.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(not_number.status().message(),
            "task_events.csv.gz:1234: field 5 (memory request): 'x' is not a number");
  auto not_int = row.Int(6, "task index");
  ASSERT_FALSE(not_int.ok());
  EXPECT_EQ(not_int.status().message(),
            "task_events.csv.gz:1234: field 6 (task index): '1.5' is not an integer");
  EXPECT_FALSE(row.Int(7, "big").ok());
  auto beyond = row.Int(9, "past the end");
  ASSERT_FALSE(beyond.ok());
  EXPECT_NE(beyond.status().message().find("field 9 (past the end)"), std::string::npos);
  EXPECT_FALSE(row.Text(4, "user").ok());
  EXPECT_EQ(*row.Text(5, "user"), "x");
  EXPECT_EQ(row.ExpectFields(3).message(), "task_events.csv.gz:1234: expected 3 fields, found 8");
  EXPECT_TRUE(row.ExpectFields(8).ok());
}

TEST(CsvRowTest, RejectsNonFiniteAndTrailingJunk) {
  CsvRow row;
  row.Split("inf,nan,1e999,2x, 3", "f:1");
  for (int n = 1; n <= 5; ++n) EXPECT_FALSE(row.Double(n, "v").ok()) << n;
  EXPECT_FALSE(row.Int(4, "v").ok());
}

TEST(CsvRowTest, TellsAHeaderLineFromARecord) {
  CsvRow row;
  row.Split("create_timestamp,modify_timestamp,job_id,task_id", "f:1");
  EXPECT_TRUE(row.LooksLikeHeader());
  for (const char* record : {"x,160,7,1", "-5,a,b,c", "a,,b,c", ".5,a,b,c", "a,b,+1,c"}) {
    row.Split(record, "f:1");
    EXPECT_FALSE(row.LooksLikeHeader()) << record;
  }
}

}  // namespace
}  // namespace spindle::replay
