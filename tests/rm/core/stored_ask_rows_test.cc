#include "rm/core/stored_ask_rows.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace spindle::rm {
namespace {

using pool::Resource;

ResourceRequest Row(const std::string& name, int32_t count, int32_t priority = 1) {
  return ResourceRequest{priority, -1, name, Resource::Of(1024, 1), count, true, std::nullopt};
}

// Applies changes to a map standing for the store.
void Apply(const AttemptRowChanges& changes, std::map<std::string, std::string>* store) {
  for (const std::string& key : changes.erase) store->erase(key);
  for (const auto& [key, bytes] : changes.put) (*store)[key] = bytes;
}

TEST(StoredAskRowsTest, RowsReadBackAsTheTable) {
  AskTable table{ResourceNormalizer()};
  table.Update(std::vector<ResourceRequest>{Row("*", 3), Row("/rack/a", 2), Row("h1", 1)});
  StoredAskRows stored;
  AttemptRowChanges changes;
  stored.SyncAll(table, &changes);
  std::map<std::string, std::string> store;
  Apply(changes, &store);
  EXPECT_EQ(store.count(StoredAskRows::kTableRow), 1u);
  auto record = StoredAskRows::Decode(store);
  ASSERT_TRUE(record.ok()) << record.status().ToString();
  EXPECT_EQ(record->asks.size(), 3u);
  // Nothing changed: nothing to write.
  AttemptRowChanges again;
  stored.SyncAll(table, &again);
  EXPECT_TRUE(again.empty());
}

TEST(StoredAskRowsTest, SyncAllErasesRowsOfKeysTheTableNoLongerHas) {
  // Rows a previous run left (seeded), one key re-sent and one not; a rack
  // name with '/' in it must not confuse the key prefix.
  AskTable previous{ResourceNormalizer()};
  previous.Update(std::vector<ResourceRequest>{Row("*", 1, 1), Row("/dc/rack", 1, 1),
                                               Row("*", 4, 2), Row("/dc/rack", 4, 2)});
  StoredAskRows first;
  AttemptRowChanges written;
  first.SyncAll(previous, &written);
  std::map<std::string, std::string> store;
  Apply(written, &store);

  std::set<std::string> keys;
  for (const auto& [key, bytes] : store) keys.insert(key);
  StoredAskRows restarted;
  restarted.Seed(keys);
  AskTable resent{ResourceNormalizer()};
  resent.Update(std::vector<ResourceRequest>{Row("*", 1, 1), Row("/dc/rack", 1, 1)});
  AttemptRowChanges changes;
  restarted.SyncAll(resent, &changes);
  Apply(changes, &store);
  auto record = StoredAskRows::Decode(store);
  ASSERT_TRUE(record.ok());
  ASSERT_EQ(record->asks.size(), 2u);
  for (const ResourceRequest& row : record->asks) EXPECT_EQ(row.priority, 1);
}

TEST(StoredAskRowsTest, GrantsComeAndGo) {
  StoredAskRows stored;
  const ContainerId id{ApplicationAttemptId{ApplicationId{1700000000000, 1}, 1}, 2};
  AttemptRowChanges changes;
  stored.Granted(std::vector{GrantedContainer{id, 1, -1, Resource::Of(1024, 1)}}, &changes);
  std::map<std::string, std::string> store;
  Apply(changes, &store);
  EXPECT_EQ(StoredAskRows::Decode(store)->granted.size(), 1u);
  AttemptRowChanges done;
  // The second was never granted: no-op.
  stored.Completed(std::vector{id, ContainerId{id.attempt, 99}}, &done);
  EXPECT_EQ(done.erase, std::vector<std::string>{StoredAskRows::GrantRowKey(id)});
  AttemptRowChanges end;
  stored.EraseAll(&end);
  Apply(done, &store);
  Apply(end, &store);
  EXPECT_TRUE(store.empty());
}

std::vector<GrantedContainer> Grants(const ApplicationAttemptId& attempt, int64_t first,
                                     int64_t count) {
  std::vector<GrantedContainer> out;
  for (int64_t i = first; i < first + count; ++i) {
    out.push_back(GrantedContainer{ContainerId{attempt, i}, 1, -1, Resource::Of(1024, 1)});
  }
  return out;
}

std::set<int64_t> GrantedIds(const std::map<std::string, std::string>& store) {
  auto record = StoredAskRows::Decode(store);
  EXPECT_TRUE(record.ok()) << record.status().ToString();
  std::set<int64_t> ids;
  for (const GrantedContainer& c : record->granted) {
    EXPECT_TRUE(ids.insert(c.id.id).second) << "container " << c.id.id << " stored twice";
  }
  return ids;
}

size_t GrantRows(const std::map<std::string, std::string>& store) {
  size_t rows = 0;
  for (const auto& [key, bytes] : store) rows += key.rfind("grant/", 0) == 0 ? 1 : 0;
  return rows;
}

TEST(StoredAskRowsTest, OneCallsGrantsShareRowsOfBoundedSize) {
  const ApplicationAttemptId attempt{ApplicationId{1700000000000, 1}, 1};
  StoredAskRows stored;
  std::map<std::string, std::string> store;
  AttemptRowChanges changes;
  // 300 containers in one call: three rows (128, 128, 44), not 300.
  stored.Granted(Grants(attempt, 1, 300), &changes);
  EXPECT_EQ(changes.put.size(), 4u);  // the table row and three grant rows
  Apply(changes, &store);
  EXPECT_EQ(GrantRows(store), 3u);
  EXPECT_EQ(GrantedIds(store).size(), 300u);
  // A second call: a row of its own; a container granted again is skipped.
  AttemptRowChanges more;
  stored.Granted(Grants(attempt, 300, 5), &more);
  Apply(more, &store);
  EXPECT_EQ(GrantRows(store), 4u);
  EXPECT_EQ(GrantedIds(store).size(), 304u);

  // Completions spread over rows: each touched row is written once.
  AttemptRowChanges done;
  std::vector<ContainerId> completed;
  for (int64_t i = 1; i <= 128; ++i) completed.push_back(ContainerId{attempt, i});  // row 1
  completed.push_back(ContainerId{attempt, 129});                                   // row 2
  completed.push_back(ContainerId{attempt, 130});                                   // row 2
  stored.Completed(completed, &done);
  EXPECT_EQ(done.erase, std::vector<std::string>{StoredAskRows::GrantRowKey({attempt, 1})});
  ASSERT_EQ(done.put.size(), 1u);
  EXPECT_EQ(done.put[0].first, StoredAskRows::GrantRowKey({attempt, 129}));
  Apply(done, &store);
  std::set<int64_t> left = GrantedIds(store);
  EXPECT_EQ(left.size(), 304u - 130u);
  EXPECT_EQ(left.count(130), 0u);
  EXPECT_EQ(left.count(131), 1u);
  // The row keyed by a completed container keeps its key while it holds others.
  AttemptRowChanges rest;
  std::vector<ContainerId> all;
  for (int64_t i = 131; i <= 304; ++i) all.push_back(ContainerId{attempt, i});
  stored.Completed(all, &rest);
  Apply(rest, &store);
  EXPECT_EQ(GrantRows(store), 0u);
  EXPECT_EQ(store.count(StoredAskRows::kTableRow), 1u);
}

TEST(StoredAskRowsTest, RegrantAllReplacesThePreviousRunsGrantRows) {
  const ApplicationAttemptId attempt{ApplicationId{1700000000000, 1}, 1};
  std::map<std::string, std::string> store;
  {
    StoredAskRows previous;
    AttemptRowChanges changes;
    previous.Granted(Grants(attempt, 1, 10), &changes);
    previous.Granted(Grants(attempt, 11, 10), &changes);
    Apply(changes, &store);
  }
  // A store of the per-container format: one row of its own.
  {
    AttemptAsksRecord one;
    one.granted = Grants(attempt, 50, 1);
    store[StoredAskRows::GrantRowKey({attempt, 50})] = EncodeAttemptAsks(one);
  }
  std::set<std::string> keys;
  for (const auto& [key, bytes] : store) keys.insert(key);
  StoredAskRows restarted;
  restarted.Seed(keys);
  // Nodes still run 1 (first of the first row), 15 and 50.
  std::vector<GrantedContainer> live = Grants(attempt, 1, 1);
  live.push_back(Grants(attempt, 15, 1)[0]);
  live.push_back(Grants(attempt, 50, 1)[0]);
  AttemptRowChanges changes;
  restarted.RegrantAll(live, &changes);
  // The row keyed by container 1 is put again in place, not erased.
  for (const std::string& erased : changes.erase) {
    EXPECT_NE(erased, StoredAskRows::GrantRowKey({attempt, 1}));
  }
  Apply(changes, &store);
  EXPECT_EQ(GrantedIds(store), (std::set<int64_t>{1, 15, 50}));
  EXPECT_EQ(GrantRows(store), 1u);
  // Completions find them in the new row.
  AttemptRowChanges done;
  restarted.Completed(std::vector{ContainerId{attempt, 15}}, &done);
  Apply(done, &store);
  EXPECT_EQ(GrantedIds(store), (std::set<int64_t>{1, 50}));
}

TEST(StoredAskRowsTest, ARowOfNoKnownKindOrBadBytesIsCorruption) {
  EXPECT_FALSE(StoredAskRows::Decode({{"other/1", "x"}}).ok());
  const auto bad = StoredAskRows::Decode({{"grant/c", "\xff\xff\xff"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("grant/c"), std::string::npos);
}

}  // namespace
}  // namespace spindle::rm
