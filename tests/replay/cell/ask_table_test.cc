#include "replay/cell/ask_table.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace spindle::replay {
namespace {

TraceTask Task(int64_t mb, std::vector<std::string> nodes = {},
               std::vector<std::string> racks = {}) {
  TraceTask t;
  t.memory_mb = mb;
  t.vcores = 1;
  t.duration_ms = 1000;
  t.preferred_nodes = std::move(nodes);
  t.preferred_racks = std::move(racks);
  return t;
}

class AskTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    racks_ = {{"n1", "/r1"}, {"n2", "/r1"}, {"n3", "/r2"}};
    TraceStage map;
    map.name = "map";
    map.priority = 20;
    map.tasks = {Task(1024, {"n1"}), Task(1024, {"n3"}), Task(1024, {}, {"/r2"}), Task(1024)};
    TraceStage reduce;
    reduce.name = "reduce";
    reduce.priority = 10;
    reduce.parents = {0};
    reduce.tasks = {Task(2048)};
    job_.id = "job_1";
    job_.stages = {map, reduce};
  }

  // The rows as "prio name mb=count".
  static std::map<std::string, int32_t> Rows(const std::vector<AskRow>& rows) {
    std::map<std::string, int32_t> out;
    for (const AskRow& r : rows) {
      out[std::to_string(r.priority) + " " + r.resource_name + " " + std::to_string(r.memory_mb)] =
          r.count;
    }
    return out;
  }

  std::map<std::string, std::string> racks_;
  TraceJob job_;
};

TEST_F(AskTableTest, AsksHostRackAndAnyRowsAsAMapReduceAm) {
  AskTable table(&job_, &racks_);
  for (int32_t t = 0; t < 4; ++t) table.Add({0, t});
  EXPECT_EQ(table.pending(), 4);
  const auto rows = Rows(table.TakeChanged());
  // Host rows for the hosts named, rack rows for their racks and the racks
  // named, ANY for all.
  const std::map<std::string, int32_t> want = {
      {"20 n1 1024", 1},  {"20 n3 1024", 1}, {"20 /r1 1024", 1},
      {"20 /r2 1024", 2}, {"20 * 1024", 4},
  };
  EXPECT_EQ(rows, want);
  // Nothing changed since.
  EXPECT_TRUE(table.TakeChanged().empty());
}

TEST_F(AskTableTest, AssignsNodeLocalThenRackLocalThenAny) {
  AskTable table(&job_, &racks_);
  for (int32_t t = 0; t < 4; ++t) table.Add({0, t});
  table.TakeChanged();

  // On n3: the task that named n3, node-local.
  auto a = table.Assign(20, "n3", 1024, 1);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->task, (TaskRef{0, 1}));
  EXPECT_EQ(a->locality, TaskLocality::kNodeLocal);
  EXPECT_TRUE(a->with_preference);
  EXPECT_TRUE(a->preferred);

  // On n2 (rack /r1): the task on n1's rack, rack-local; not preferred (it
  // named a node).
  a = table.Assign(20, "n2", 1024, 1);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->task, (TaskRef{0, 0}));
  EXPECT_EQ(a->locality, TaskLocality::kRackLocal);
  EXPECT_TRUE(a->with_preference);
  EXPECT_FALSE(a->preferred);

  // On n3 again: the rack-only task, which counts as preferred on its rack.
  a = table.Assign(20, "n3", 1024, 1);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->task, (TaskRef{0, 2}));
  EXPECT_EQ(a->locality, TaskLocality::kRackLocal);
  EXPECT_TRUE(a->preferred);

  // The decremented rows went down with each assignment.
  const auto rows = Rows(table.TakeChanged());
  EXPECT_EQ(rows.at("20 * 1024"), 1);
  EXPECT_EQ(rows.at("20 n1 1024"), 0);
  EXPECT_EQ(rows.at("20 n3 1024"), 0);
  EXPECT_EQ(rows.at("20 /r1 1024"), 0);
  EXPECT_EQ(rows.at("20 /r2 1024"), 0);

  // The last map anywhere; then nothing left at that priority.
  a = table.Assign(20, "n1", 1024, 1);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->task, (TaskRef{0, 3}));
  EXPECT_EQ(a->locality, TaskLocality::kOffSwitch);
  EXPECT_FALSE(a->with_preference);
  EXPECT_FALSE(table.Assign(20, "n1", 1024, 1).has_value());
  EXPECT_EQ(table.pending(), 0);
  EXPECT_EQ(Rows(table.TakeChanged()), (std::map<std::string, int32_t>{{"20 * 1024", 0}}));
  EXPECT_TRUE(table.AllRows().empty());
}

TEST_F(AskTableTest, MatchesPriorityAndSize) {
  AskTable table(&job_, &racks_);
  table.Add({1, 0});                                          // a 2048 MB reduce at priority 10
  EXPECT_FALSE(table.Assign(20, "n1", 4096, 4).has_value());  // wrong priority
  EXPECT_FALSE(table.Assign(10, "n1", 1024, 1).has_value());  // too small
  auto a = table.Assign(10, "n1", 2048, 1);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->task, (TaskRef{1, 0}));
}

TEST_F(AskTableTest, AllRowsResendsWhatIsOutstanding) {
  AskTable table(&job_, &racks_);
  table.Add({0, 0});
  table.Add({1, 0});
  table.TakeChanged();
  const auto all = Rows(table.AllRows());
  const std::map<std::string, int32_t> want = {
      {"20 n1 1024", 1}, {"20 /r1 1024", 1}, {"20 * 1024", 1}, {"10 * 2048", 1}};
  EXPECT_EQ(all, want);
}

}  // namespace
}  // namespace spindle::replay
