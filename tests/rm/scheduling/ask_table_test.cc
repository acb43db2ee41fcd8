// AskTable against Hadoop's AppSchedulingInfo rules. Each case names the
// Java method it follows (2.6.0 unless it says 3.3).
#include "rm/scheduling/ask_table.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "rm/yarn_exceptions.h"

namespace spindle::rm {
namespace {

using pool::Resource;

// The place names of a small cell: host h1 and h2 on /r1, h3 on /r2.
class FakePlaceNames : public PlaceNames {
 public:
  void AddNodesOnHost(const std::string& host, std::vector<pool::NodeId>* out) const override {
    auto it = hosts_.find(host);
    if (it != hosts_.end()) out->push_back(it->second);
  }
  std::optional<pool::RackId> RackNamed(const std::string& rack) const override {
    auto it = racks_.find(rack);
    if (it == racks_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::map<std::string, pool::NodeId> hosts_ = {
      {"h1", pool::NodeId(0, 1)}, {"h2", pool::NodeId(0, 2)}, {"h3", pool::NodeId(0, 3)}};
  std::map<std::string, pool::RackId> racks_ = {{"/r1", pool::RackId(1)}, {"/r2", pool::RackId(2)}};
};

ResourceRequest Row(const std::string& name, int32_t count, bool relax = true,
                    Resource capability = Resource::Of(1024, 1), int32_t priority = 1) {
  return ResourceRequest{priority, -1, name, capability, count, relax, std::nullopt};
}

AskTable DefaultTable() {
  return AskTable(ResourceNormalizer(ResourceCalculator::kDefault, Resource::Of(1024, 1),
                                     Resource::Of(8192, 4)));
}

const pool::AskKey kKey{1, -1, Resource::Of(1024, 1)};

// One call after another, then the rows of kKey.
struct UpdateCase {
  const char* name;
  const char* follows;  // the Hadoop method
  std::vector<std::vector<ResourceRequest>> calls;
  std::map<std::string, int32_t> rows;  // kKey's rows after the calls
  size_t dropped_in_last_call = 0;
};

TEST(AskTableTest, UpdatesFollowAppSchedulingInfo) {
  const std::vector<UpdateCase> cases = {
      {"an absolute ask replaces the previous row",
       "AppSchedulingInfo.updateResourceRequests (asks.put)",
       {{Row("*", 5), Row("h1", 2), Row("/r1", 2)}, {Row("*", 3), Row("h1", 1)}},
       {{"*", 3}, {"h1", 1}, {"/r1", 2}}},
      {"the last row of a name in one call wins",
       "3.3 AppSchedulingInfo.internalAddResourceRequests (dedup by name)",
       {{Row("*", 5), Row("*", 2)}},
       {{"*", 2}}},
      {"zero removes a host or rack row",
       "AppSchedulingInfo.updateResourceRequests",
       {{Row("*", 4), Row("h1", 2), Row("/r1", 2)}, {Row("h1", 0), Row("/r1", 0)}},
       {{"*", 4}}},
      {"a zero total drops the key with its host and rack rows",
       "3.3 AppSchedulingInfo.updatePendingResources (removes the placement allocator)",
       {{Row("*", 4), Row("h1", 2), Row("/r1", 2)}, {Row("*", 0)}},
       {},
       1},
      {"a zero total in the same call as host rows drops them too",
       "3.3 AppSchedulingInfo.updatePendingResources",
       {{Row("*", 0), Row("h1", 2)}},
       {},
       1},
      {"host rows without a total are kept until a total comes",
       "AppSchedulingInfo.updateResourceRequests",
       {{Row("h1", 2)}, {Row("*", 1)}},
       {{"*", 1}, {"h1", 2}}},
      {"a capability normalises into the key (1000 MB, 3 vcores -> 1024 MB, 1 vcore)",
       "SchedulerUtils.normalizeRequest with DefaultResourceCalculator",
       {{Row("*", 2, true, Resource::Of(1000, 3))}},
       {{"*", 2}}},
  };
  for (const UpdateCase& c : cases) {
    SCOPED_TRACE(std::string(c.name) + " [" + c.follows + "]");
    AskTable table = DefaultTable();
    AskTable::Changes changes;
    for (const auto& call : c.calls) changes = table.Update(call);
    std::map<std::string, int32_t> rows;
    if (const AskTable::Rows* r = table.RowsOf(kKey); r != nullptr) {
      for (const auto& [name, row] : *r) rows[name] = row.count;
    }
    EXPECT_EQ(rows, c.rows);
    EXPECT_EQ(changes.dropped.size(), c.dropped_in_last_call);
  }
}

TEST(AskTableTest, TwoSizesAtOnePriorityAreTwoKeys) {
  // Hadoop's AMRMClient keys its table by capability too; the pool places
  // per (priority, allocation request id, capability).
  AskTable table = DefaultTable();
  const auto changes = table.Update(
      {{Row("*", 2, true, Resource::Of(1024, 1)), Row("*", 3, true, Resource::Of(2048, 1))}});
  EXPECT_EQ(changes.touched.size(), 2u);
  EXPECT_EQ(table.Count(kKey, "*"), 2);
  EXPECT_EQ(table.Count(pool::AskKey{1, -1, Resource::Of(2048, 1)}, "*"), 3);
}

TEST(AskTableTest, AKeyWhoseLastRowGoesIsWrittenButNotTouched) {
  // A host row set to 0 that was its key's only row removes the key without
  // an ANY row of 0: nothing for the pool, but the stored row must go.
  AskTable table = DefaultTable();
  table.Update({{Row("h1", 1)}});
  const auto changes = table.Update({{Row("h1", 0), Row("h1", 0)}});
  EXPECT_TRUE(changes.touched.empty());
  EXPECT_TRUE(changes.dropped.empty());
  ASSERT_EQ(changes.written.size(), 1u) << "once, though written twice";
  EXPECT_EQ(changes.written[0], kKey);
  EXPECT_EQ(table.RowsOf(kKey), nullptr);
}

TEST(AskTableTest, DominantCalculatorKeepsVcoresInTheKey) {
  AskTable table(ResourceNormalizer(ResourceCalculator::kDominant, Resource::Of(1024, 1),
                                    Resource::Of(8192, 4)));
  table.Update({{Row("*", 1, true, Resource::Of(1000, 3))}});
  EXPECT_EQ(table.Count(pool::AskKey{1, -1, Resource::Of(1024, 3)}, "*"), 1);
}

struct AllocateCase {
  const char* name;
  const char* follows;
  pool::Locality locality;
  std::map<std::string, int32_t> rows;  // after one allocation on h1 in /r1
};

TEST(AskTableTest, AllocationsTakeFromTheRowsHadoopTakesFrom) {
  const std::vector<AllocateCase> cases = {
      {"node-local: host, rack and total",
       "AppSchedulingInfo.allocateNodeLocal",
       pool::Locality::kNodeLocal,
       {{"*", 2}, {"/r1", 1}}},  // h1 had 1: removed at 0
      {"rack-local: rack and total",
       "AppSchedulingInfo.allocateRackLocal",
       pool::Locality::kRackLocal,
       {{"*", 2}, {"h1", 1}, {"/r1", 1}}},
      {"off-switch: the total only",
       "AppSchedulingInfo.allocateOffSwitch",
       pool::Locality::kOffSwitch,
       {{"*", 2}, {"h1", 1}, {"/r1", 2}}},
  };
  for (const AllocateCase& c : cases) {
    SCOPED_TRACE(std::string(c.name) + " [" + c.follows + "]");
    AskTable table = DefaultTable();
    table.Update({{Row("*", 3), Row("h1", 1), Row("/r1", 2)}});
    table.Allocate(kKey, c.locality, "h1", "/r1");
    std::map<std::string, int32_t> rows;
    for (const auto& [name, row] : *table.RowsOf(kKey)) rows[name] = row.count;
    EXPECT_EQ(rows, c.rows);
  }
}

TEST(AskTableTest, TheTotalStaysAtZeroWhenFullyGranted) {
  // AppSchedulingInfo.decrementOutstanding (2.6.0): "Do not remove ANY".
  AskTable table = DefaultTable();
  table.Update({{Row("*", 1)}});
  table.Allocate(kKey, pool::Locality::kOffSwitch, "h3", "/r2");
  ASSERT_NE(table.RowsOf(kKey), nullptr);
  EXPECT_EQ(table.Count(kKey, "*"), 0);
  // A placement beyond the total (the AM lowered it meanwhile) stays at 0.
  table.Allocate(kKey, pool::Locality::kOffSwitch, "h3", "/r2");
  EXPECT_EQ(table.Count(kKey, "*"), 0);
  // A key the AM dropped is not brought back.
  table.Update({{Row("*", 0)}});
  table.Allocate(kKey, pool::Locality::kOffSwitch, "h3", "/r2");
  EXPECT_EQ(table.RowsOf(kKey), nullptr);
}

TEST(AskTableTest, PoolAsksFollowLeafQueueAssignContainersOnNode) {
  FakePlaceNames names;
  struct Case {
    const char* name;
    std::vector<ResourceRequest> rows;
    std::vector<pool::NodeId> nodes;
    std::vector<pool::RackId> racks;
    bool relax;
  };
  const std::vector<Case> cases = {
      {"hosts and their racks with relaxLocality",
       {Row("*", 2), Row("h1", 1), Row("h3", 1), Row("/r1", 1), Row("/r2", 1)},
       {pool::NodeId(0, 1), pool::NodeId(0, 3)},
       {pool::RackId(1), pool::RackId(2)},
       true},
      // AMRMClient's relaxLocality=false on hosts: rack rows and ANY go
      // without it; LeafQueue.assignContainersOnNode skips both levels.
      {"relaxLocality false on hosts: only those hosts",
       {Row("*", 1, false), Row("h1", 1), Row("/r1", 1, false)},
       {pool::NodeId(0, 1)},
       {},
       false},
      // Explicit racks keep relaxLocality on their own rows.
      {"relaxLocality false on a rack: only that rack",
       {Row("*", 1, false), Row("/r2", 1, true)},
       {},
       {pool::RackId(2)},
       false},
      {"unknown hosts and racks prefer nothing",
       {Row("*", 1), Row("nowhere", 1), Row("/gone", 1)},
       {},
       {},
       true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    AskTable table = DefaultTable();
    table.Update(c.rows);
    const std::vector<pool::Ask> asks = table.PoolAsks(names);
    ASSERT_EQ(asks.size(), 1u);
    EXPECT_EQ(asks[0].count, c.rows[0].count);
    EXPECT_EQ(asks[0].capability, Resource::Of(1024, 1));
    EXPECT_EQ(asks[0].nodes, c.nodes);
    EXPECT_EQ(asks[0].racks, c.racks);
    EXPECT_EQ(asks[0].relax_locality, c.relax);
  }
  // A key without a total asks for nothing yet.
  AskTable table = DefaultTable();
  table.Update({{Row("h1", 1)}});
  EXPECT_TRUE(table.PoolAsks(names).empty());
}

TEST(AskTableTest, BlacklistFollowsUpdateBlacklist) {
  FakePlaceNames names;
  AskTable table = DefaultTable();
  // RMServerUtils.validateBlacklistRequest: "*" is refused, nothing changes.
  const std::vector<std::string> with_any = {"h1", "*"};
  Status refused = table.UpdateBlacklist(with_any, {});
  EXPECT_EQ(refused.java_class(), yarn::kInvalidResourceBlacklistRequest);
  EXPECT_EQ(refused.message(), "Cannot add * to the blacklist!");
  EXPECT_TRUE(table.blacklist().empty());
  // AppSchedulingInfo.updateBlacklist: addAll, then removeAll.
  const std::vector<std::string> add = {"h1", "/r2", "h2"};
  const std::vector<std::string> remove = {"h2", "never-added"};
  ASSERT_TRUE(table.UpdateBlacklist(add, remove).ok());
  EXPECT_EQ(table.blacklist(), (std::set<std::string>{"/r2", "h1"}));
  // A name is a host or a rack (isBlacklisted(nodeName) || isBlacklisted(rackName)).
  std::vector<pool::NodeId> nodes;
  std::vector<pool::RackId> racks;
  table.ResolveBlacklist(names, &nodes, &racks);
  EXPECT_EQ(nodes, std::vector<pool::NodeId>{pool::NodeId(0, 1)});
  EXPECT_EQ(racks, std::vector<pool::RackId>{pool::RackId(2)});
}

TEST(AskTableTest, CapsLowerRowsAndKeepZeroRows) {
  AskTable table = DefaultTable();
  table.Update({{Row("*", 5), Row("h1", 2)}});
  table.CapRows([](const pool::AskKey&, const std::string& name) -> std::optional<int32_t> {
    if (name == "*") return 0;
    return std::nullopt;
  });
  EXPECT_EQ(table.Count(kKey, "*"), 0);
  EXPECT_EQ(table.Count(kKey, "h1"), 2);
  const auto rows = table.AllRows();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].resource_name, "*");
  EXPECT_EQ(rows[0].count, 0);
}

}  // namespace
}  // namespace spindle::rm
