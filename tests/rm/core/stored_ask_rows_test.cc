#include "rm/core/stored_ask_rows.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

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
  stored.Granted(GrantedContainer{id, 1, -1, Resource::Of(1024, 1)}, &changes);
  std::map<std::string, std::string> store;
  Apply(changes, &store);
  EXPECT_EQ(StoredAskRows::Decode(store)->granted.size(), 1u);
  AttemptRowChanges done;
  stored.Completed(id, &done);
  stored.Completed(ContainerId{id.attempt, 99}, &done);  // never granted: no-op
  EXPECT_EQ(done.erase, std::vector<std::string>{StoredAskRows::GrantRowKey(id)});
  AttemptRowChanges end;
  stored.EraseAll(&end);
  Apply(done, &store);
  Apply(end, &store);
  EXPECT_TRUE(store.empty());
}

TEST(StoredAskRowsTest, ARowOfNoKnownKindOrBadBytesIsCorruption) {
  EXPECT_FALSE(StoredAskRows::Decode({{"other/1", "x"}}).ok());
  const auto bad = StoredAskRows::Decode({{"grant/c", "\xff\xff\xff"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("grant/c"), std::string::npos);
}

}  // namespace
}  // namespace spindle::rm
